import type { SearchLink } from '@fvg/contracts';
import { queryString } from '../../lib/query-string.ts';
import { isRouteName, pathFor } from '../../lib/route-table.ts';

/** Where a link of the API opens in this app: a path and its URL search. */
export interface RouteTarget {
  to: string;
  search: Record<string, string>;
  /** The same as one string, for an anchor's href. */
  href: string;
}

/**
 * The screen a link of the API names (a route of the route table, its params and URL search: search
 * results, dashboard figures); undefined for a route or params this version of the app does not know
 * (a newer server), which the caller shows as plain text rather than a dead link.
 */
export function routeTarget(link: SearchLink): RouteTarget | undefined {
  if (!isRouteName(link.route)) return undefined;
  let to: string;
  try {
    to = pathFor(link.route, link.params);
  } catch {
    return undefined;
  }
  const search = link.search ?? {};
  const qs = queryString(search);
  return { to, search, href: qs ? `${to}?${qs}` : to };
}
