import { Alert, Button, Stack } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useAdminMode } from '../lib/admin-mode.ts';
import { useT } from '../lib/i18n.ts';
import type { RouteName } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';
import { NoAccess } from './no-access.tsx';
import { PageLoader } from './page-loader.tsx';
import { ScreenFrame } from './screen-frame.tsx';

export interface AdminScreenProps {
  route: RouteName;
  /** Why the screen is not for users other than administrators. */
  noAccessMessage: ReactNode;
  /** The screen's content, shown only while admin mode is on. */
  children: ReactNode;
}

/**
 * The frame of an admin screen: "No access" for anyone but administrators, and for administrators
 * with admin mode off, a way to switch it on in place of the content.
 */
export function AdminScreen({ route, noAccessMessage, children }: AdminScreenProps) {
  const t = useT('shell');
  const me = useMe();
  const adminMode = useAdminMode(me.data?.role);

  if (!me.data) return <PageLoader />;
  if (me.data.role !== 'admin') return <NoAccess message={noAccessMessage} />;

  return (
    <ScreenFrame route={route}>
      {adminMode.enabled ? (
        children
      ) : (
        <Alert
          color="red"
          variant="light"
          icon={<IconShieldLock aria-hidden />}
          title={t('adminMode.offTitle')}
          data-testid="admin-mode-required"
        >
          <Stack gap="sm" align="flex-start">
            {t('adminMode.offText')}
            <Button
              size="xs"
              color="red"
              onClick={() => adminMode.setEnabled(true)}
              data-testid="enable-admin-mode"
            >
              {t('adminMode.switchOn')}
            </Button>
          </Stack>
        </Alert>
      )}
    </ScreenFrame>
  );
}
