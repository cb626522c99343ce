import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the sales offers area; hooks, mutations and live updates go through these only.
 * Details are keyed by what the URL names the offer with (`?open=<id>`).
 */
export const offerKeys = {
  all: ['sales-offers'] as const,
  lists: () => [...offerKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...offerKeys.lists(), params] as const,
  details: () => [...offerKeys.all, 'detail'] as const,
  detail: (idOrNumber: string) => [...offerKeys.details(), idOrNumber] as const,
  history: (idOrNumber: string) => [...offerKeys.detail(idOrNumber), 'history'] as const,
};

// Live updates (lib/live-updates.ts): an offer's change refreshes the offer queries on screen. Details
// are keyed by id or number, so `all` is the root (one extra request at most).
registerRecordKeys('offer', { all: offerKeys.all, detail: offerKeys.detail });
// A renamed customer shows in the lists.
registerRecordKeys('party', { all: offerKeys.lists(), detail: () => offerKeys.lists() });
