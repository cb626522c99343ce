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
