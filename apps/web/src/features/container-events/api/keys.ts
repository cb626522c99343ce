import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the container events area: the containers and unlinked-events lists, the
 * timelines (per container number), the dossiers' events tabs and single events. Hooks, mutations and
 * live updates go through these only.
 */
export const containerEventKeys = {
  all: ['container-events'] as const,
  lists: () => [...containerEventKeys.all, 'list'] as const,
  containerLists: () => [...containerEventKeys.lists(), 'containers'] as const,
  containerList: (params: QueryParams) => [...containerEventKeys.containerLists(), params] as const,
  unlinkedLists: () => [...containerEventKeys.lists(), 'unlinked'] as const,
  unlinkedList: (params: QueryParams) => [...containerEventKeys.unlinkedLists(), params] as const,
  timelines: () => [...containerEventKeys.all, 'timeline'] as const,
  /** A container's timeline, by its number as the server normalises it (upper case, no spaces). */
  timeline: (containerNumber: string) => [...containerEventKeys.timelines(), containerNumber] as const,
  dossierEvents: (dossierId: string) => [...containerEventKeys.all, 'dossier', dossierId] as const,
  events: () => [...containerEventKeys.all, 'event'] as const,
  event: (id: string) => [...containerEventKeys.events(), id] as const,
};

/** Integration API keys (admin); nothing announces them on the hub, the screen refreshes after a change. */
export const integrationKeyKeys = {
  all: ['integration-keys'] as const,
  list: () => [...integrationKeyKeys.all, 'list'] as const,
};

// Live updates (lib/live-updates.ts). The server announces an event under its container number (the
// timeline's key), but a transport event without a container (an ETA found through the bill of lading)
// under its own id, and that event still shows in the timelines of its dossier's containers. So `all`
// is the root: any accepted event refreshes the lists, the timelines and the events tabs on screen.
registerRecordKeys('container-event', { all: containerEventKeys.all, detail: containerEventKeys.timeline });
// A dossier whose events changed (linked, new) refreshes its events tab; a dossier's number, customer,
// booking or containers show in the lists (and decide the unlinked events' suggestions).
registerRecordKeys('dossier', { all: containerEventKeys.lists(), detail: containerEventKeys.dossierEvents });
