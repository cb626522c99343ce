import type { SearchLink } from '@fvg/contracts';
import { isRouteName, pathFor } from '../app/route-table.ts';
import { queryString } from './query-string.ts';

/*
 * The API names a screen the way the web does (contracts' searchLinkSchema: a route NAME of
 * app/route-table.ts, its params and URL search), so search results and dashboard figures link
 * through pathFor instead of carrying paths. An unknown route or a missing param yields null: the
 * figure or result is then shown without a link rather than breaking the screen.
 */

export interface LinkTarget {
  /** The path, for `<Link to>`. */
  to: string;
  /** The URL search, for `<Link search>`. */
  search: Record<string, string>;
  /** Path and search together, for an href or a test. */
  href: string;
}

export function linkTarget(link: SearchLink | null | undefined): LinkTarget | null {
  if (!link || !isRouteName(link.route)) return null;
  let to: string;
  try {
    to = pathFor(link.route, link.params);
  } catch {
    return null;
  }
  const search = { ...(link.search ?? {}) };
  const qs = queryString(search);
  return { to, search, href: qs ? `${to}?${qs}` : to };
}
