import { searchResponseSchema } from '@fvg/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { type SearchParams, searchKeys } from './keys.ts';

/** Results per kind in the palette: a glance; /search shows a page and "More". */
export const PALETTE_LIMIT = 5;
export const PAGE_LIMIT = 10;
export const MORE_LIMIT = 25;

/**
 * The search as a query. The signal is passed on, so a request whose key is superseded (the next
 * keystroke) or no longer watched (the palette closed) is aborted by TanStack Query, not left running.
 */
export function searchOptions(params: SearchParams) {
  return queryOptions({
    queryKey: searchKeys.results(params),
    queryFn: ({ signal }) =>
      api.get(
        withQuery('search', {
          q: params.q,
          kinds: params.kind,
          limit: params.limit,
          cursor: params.cursor,
        }),
        { signal, schema: searchResponseSchema },
      ),
  });
}
