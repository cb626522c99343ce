import type { SearchKind } from '@fvg/contracts';

/** One request of `GET /api/search`: the palette's few per kind, a page of /search, or "more" of one kind. */
export interface SearchParams {
  q: string;
  limit: number;
  /** With `cursor`: the one kind whose next results are asked for. */
  kind?: SearchKind;
  cursor?: string;
}

/**
 * The query keys of global search. Results are not registered for live updates: the palette lives for
 * a few seconds and /search refetches when it is opened again after the client's stale time.
 */
export const searchKeys = {
  all: ['search'] as const,
  results: (params: SearchParams) => [...searchKeys.all, 'results', params] as const,
};
