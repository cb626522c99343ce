import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { AdminScreen } from '../components/admin-screen.tsx';
import { ListPage } from '../components/records/list-page.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { anyPartyLookup } from '../features/parties/api/parties-api.ts';
import { InviteForm } from '../features/users/components/invite-form.tsx';
import { userListConfig } from '../features/users/components/user-list-config.tsx';
import { pathFor } from '../lib/route-table.ts';

/** /admin/users: administrators, with admin mode on, manage who can sign in. */
export default function AdminUsersScreen() {
  const [search, setSearch] = useRouteSearch<{ new?: 1 }>();
  const config = useMemo(() => userListConfig(anyPartyLookup), []);
  const close = () => setSearch({ new: undefined });

  return (
    <AdminScreen
      route="admin-users"
      noAccessMessage="Managing users is for administrators. Ask an administrator if an account needs changing."
    >
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
    </AdminScreen>
  );
}
