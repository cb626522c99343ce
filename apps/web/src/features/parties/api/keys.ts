import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/** Every query key of the parties area; invalidation goes through these only. */
export const partyKeys = {
  all: ['parties'] as const,
  lists: () => [...partyKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...partyKeys.lists(), params] as const,
  details: () => [...partyKeys.all, 'detail'] as const,
  detail: (id: string) => [...partyKeys.details(), id] as const,
  history: (id: string) => [...partyKeys.detail(id), 'history'] as const,
  /** Pickers in other areas' forms and filters. */
  lookups: () => [...partyKeys.all, 'lookup'] as const,
};

// Live updates (lib/live-updates.ts): a changed party refreshes every party query, lookups included.
registerRecordKeys('party', { all: partyKeys.all, detail: partyKeys.detail });
