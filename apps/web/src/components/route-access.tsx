import type { ReactNode } from 'react';
import { useT } from '../lib/i18n.ts';
import { type RouteName, routeByName } from '../lib/route-table.ts';
import { hasCwAccess, useMe } from '../lib/session.ts';
import { NoAccess } from './no-access.tsx';
import { PageLoader } from './page-loader.tsx';

/**
 * What a screen shows instead of itself when the user may not use its route: "No access" for routes
 * limited to some roles (`roles`) and for warehouse routes (`requiresCwAccess`) without the cw_access
 * flag, a loader while that is not known yet; null when the screen may show.
 */
export function useRouteAccessBlock(route: RouteName): ReactNode | null {
  const t = useT('shell');
  const def = routeByName(route);
  const me = useMe();
  if (def.roles) {
    if (!me.data) return <PageLoader />;
    if (!def.roles.includes(me.data.role)) return <NoAccess message={t('noAccess.notForRole')} />;
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
