/** A query parameter value; undefined, null and '' are left out of the query string. */
export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Readonly<Record<string, QueryValue>>;

/** `{ page: 2, q: 'msku', status: undefined }` → `page=2&q=msku`, in the order given. */
export function queryString(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.append(key, String(value));
  }
  return search.toString();
}

/** A path with its query string, e.g. withQuery('dossiers', { page: 2 }) → 'dossiers?page=2'. */
export function withQuery(path: string, params: QueryParams): string {
  const qs = queryString(params);
  return qs ? `${path}?${qs}` : path;
}
