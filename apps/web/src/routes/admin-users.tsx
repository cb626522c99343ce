import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { AdminScreen } from '../components/admin-screen.tsx';
import { ListPage } from '../components/records/list-page.tsx';
import { useNewRecordDialog } from '../components/records/list-screen.tsx';
import { anyPartyLookup } from '../features/parties/api/parties-api.ts';
import { InviteForm } from '../features/users/components/invite-form.tsx';
import { userListConfig } from '../features/users/components/user-list-config.tsx';

/** /admin/users: administrators, with admin mode on, manage who can sign in. */
export default function AdminUsersScreen() {
  const config = useMemo(() => userListConfig(anyPartyLookup), []);
  const invite = useNewRecordDialog('admin-users', {
    label: 'Invite user',
    testId: 'invite-user',
    icon: <IconUserPlus size={16} aria-hidden />,
    title: 'Invite a user',
    dialogTestId: 'invite-dialog',
    size: 'lg',
    form: ({ close, keepsForm }) => (
      <InviteForm
        partyLookup={anyPartyLookup}
        onInvited={(user) => {
          notifications.show({ color: 'green', message: `Invitation sent to ${user.email}.` });
          close();
        }}
        onCancel={close}
        keepsForm={keepsForm}
      />
    ),
  });

  return (
    <AdminScreen
      route="admin-users"
      noAccessMessage="Managing users is for administrators. Ask an administrator if an account needs changing."
    >
      <ListPage config={config} actions={invite.button} />
      {invite.dialog}
    </AdminScreen>
  );
}
