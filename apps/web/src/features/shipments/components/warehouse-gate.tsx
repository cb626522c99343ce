import type { ReactNode } from 'react';
import { NoAccess } from '../../../components/no-access.tsx';
import { PageLoader } from '../../../components/page-loader.tsx';
import { hasCwAccess, useMe } from '../../../lib/session.ts';

/**
 * The warehouse's "no access" screen for record screens that draw their own frame (DetailLayout, the
 * editor): the same rule ScreenFrame applies to requiresCwAccess routes, before any warehouse query runs.
 */
export function WarehouseGate({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending && me.fetchStatus !== 'idle') return <PageLoader />;
  if (!hasCwAccess(me.data)) return <NoAccess />;
  return <>{children}</>;
}
