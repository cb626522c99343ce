import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the transports area (lists, details, history and the planning board); hooks,
 * mutations and live updates go through these only. Planning lies under the root, so a change of
 * any transport refreshes it.
 */
export const transportKeys = {
  all: ['transports'] as const,
  lists: () => [...transportKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...transportKeys.lists(), params] as const,
  details: () => [...transportKeys.all, 'detail'] as const,
  detail: (id: string) => [...transportKeys.details(), id] as const,
  history: (id: string) => [...transportKeys.detail(id), 'history'] as const,
  plannings: () => [...transportKeys.all, 'planning'] as const,
  planning: (from: string, to: string) => [...transportKeys.plannings(), { from, to }] as const,
};

// Live updates (lib/live-updates.ts): any transport change refreshes lists, planning and its detail.
registerRecordKeys('transport', { all: transportKeys.all, detail: transportKeys.detail });
// A renamed carrier shows in the lists and on the planning board.
registerRecordKeys('party', { all: transportKeys.lists(), detail: () => transportKeys.plannings() });
// A dossier's number or customer shows in the lists.
registerRecordKeys('dossier', { all: transportKeys.lists(), detail: () => transportKeys.lists() });
