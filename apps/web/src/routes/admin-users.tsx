import { Alert, Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconShieldLock, IconUserPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { pathFor } from '../app/route-table.ts';
import { NoAccess } from '../components/no-access.tsx';
import { PageLoader } from '../components/page-loader.tsx';
import { ListPage } from '../components/records/list-page.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { anyPartyLookup } from '../features/parties/api/parties-api.ts';
import { InviteForm } from '../features/users/components/invite-form.tsx';
import { userListConfig } from '../features/users/components/user-list-config.tsx';
import { useAdminMode } from '../lib/admin-mode.ts';
import { useMe } from '../lib/session.ts';

/** /admin/users: administrators, with admin mode on, manage who can sign in. */
export default function AdminUsersScreen() {
  const me = useMe();
  const adminMode = useAdminMode(me.data?.role);
  const [search, setSearch] = useRouteSearch<{ new?: 1 }>();
  const config = useMemo(() => userListConfig(anyPartyLookup), []);
  const close = () => setSearch({ new: undefined });

  if (!me.data) return <PageLoader />;
  if (me.data.role !== 'admin') {
    return (
      <NoAccess message="Managing users is for administrators. Ask an administrator if an account needs changing." />
    );
  }

  return (
    <ScreenFrame route="admin-users">
      {!adminMode.enabled ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconShieldLock aria-hidden />}
          title="Admin mode is off"
          data-testid="admin-mode-required"
        >
          <Stack gap="sm" align="flex-start">
            Administrative actions show only while admin mode is on (also in the user menu).
            <Button
              size="xs"
              color="red"
              onClick={() => adminMode.setEnabled(true)}
              data-testid="enable-admin-mode"
            >
              Switch on admin mode
            </Button>
          </Stack>
        </Alert>
      ) : (
        <>
          <ListPage
            config={config}
            actions={
              <Button
                leftSection={<IconUserPlus size={16} aria-hidden />}
                onClick={() => setSearch({ new: 1 })}
                data-testid="invite-user"
              >
                Invite user
              </Button>
            }
          />
          <RecordModal
            opened={search.new === 1}
            title="Invite a user"
            onClose={close}
            size="lg"
            testId="invite-dialog"
          >
            <InviteForm
              partyLookup={anyPartyLookup}
              onInvited={(user) => {
                notifications.show({ color: 'green', message: `Invitation sent to ${user.email}.` });
                close();
              }}
              onCancel={close}
              keepsForm={(next) => next.pathname === pathFor('admin-users') && next.search.new === 1}
            />
          </RecordModal>
        </>
      )}
    </ScreenFrame>
  );
}
