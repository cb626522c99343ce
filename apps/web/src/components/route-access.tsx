import type { ReactNode } from 'react';
import { type RouteName, routeByName } from '../app/route-table.ts';
import { hasCwAccess, useMe } from '../lib/session.ts';
import { NoAccess } from './no-access.tsx';
import { PageLoader } from './page-loader.tsx';

const NOT_FOR_ROLE =
  'This screen is part of FVG’s internal work and is not available to your account. Your dossiers, their transports and documents are under Dossiers.';

/**
 * What a screen shows instead of itself when the user may not use its route: "No access" for routes
 * limited to some roles (`roles`) and for warehouse routes (`requiresCwAccess`) without the cw_access
 * flag, a loader while that is not known yet; null when the screen may show.
 */
export function useRouteAccessBlock(route: RouteName): ReactNode | null {
  const def = routeByName(route);
  const me = useMe();
  if (def.roles) {
    if (!me.data) return <PageLoader />;
    if (!def.roles.includes(me.data.role)) return <NoAccess message={NOT_FOR_ROLE} />;
  }
  if (def.requiresCwAccess) {
    if (me.isPending && me.fetchStatus !== 'idle') return <PageLoader />;
    if (!hasCwAccess(me.data)) return <NoAccess />;
  }
  return null;
}

/** The route's access rules around a screen that does not sit in a ScreenFrame (print views). */
export function RouteAccess({ route, children }: { route: RouteName; children: ReactNode }) {
  const block = useRouteAccessBlock(route);
  return <>{block ?? children}</>;
}
