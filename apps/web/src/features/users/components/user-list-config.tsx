import type { Role, UserAdmin, UserAdminUpdate } from '@fvg/contracts';
import { Button, Select, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/records/confirm-dialog.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import { type LookupSource, RecordSelect } from '../../../components/records/record-select.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { userKeys } from '../api/keys.ts';
import { fetchUserList, useEndSessions, useUpdateUser } from '../api/users-api.ts';
import { ROLE_LABELS, ROLE_OPTIONS } from './user-meta.ts';

/** One inline change of a user, saved at once; a refusal shows the server's reason. */
function useInlineUpdate(user: UserAdmin) {
  const update = useUpdateUser();
  /** `done` says in words what happened; the default names the changed setting. */
  const save = (body: UserAdminUpdate, what: string, done?: (saved: UserAdmin) => string) =>
    update.mutate(
      { id: user.id, body },
      {
        onSuccess: (saved) =>
          notifications.show({
            color: 'green',
            message: done ? done(saved) : `${saved.name}: ${what} saved.`,
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: `${user.name}: not saved`,
            message: problemMessage(error),
          }),
      },
    );
  return { save, pending: update.isPending };
}

function RoleCell({ user }: { user: UserAdmin }) {
  const { save, pending } = useInlineUpdate(user);
  return (
    <Select
      aria-label={`Role of ${user.name}`}
      data={ROLE_OPTIONS}
      value={user.role}
      onChange={(role) => role && role !== user.role && save({ role: role as Role }, 'role')}
      allowDeselect={false}
      size="xs"
      w="100%"
      disabled={pending}
      comboboxProps={{ withinPortal: true }}
      data-testid={`user-role-${user.email}`}
    />
  );
}

function PartyCell({ user, partyLookup }: { user: UserAdmin; partyLookup: LookupSource }) {
  const { save, pending } = useInlineUpdate(user);
  if (user.role !== 'customer' && !user.party)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <RecordSelect
      aria-label={`Organisation of ${user.name}`}
      source={partyLookup}
      value={user.party?.id ?? null}
      knownOption={
        user.party ? { value: user.party.id, label: `${user.party.name} (${user.party.code})` } : null
      }
      onChange={(partyId) => partyId !== (user.party?.id ?? null) && save({ partyId }, 'organisation')}
      size="xs"
      w="100%"
      disabled={pending}
      clearable={user.role !== 'customer'}
      data-testid={`user-party-${user.email}`}
    />
  );
}

function FlagCell({ user, flag }: { user: UserAdmin; flag: 'cwAccess' | 'active' }) {
  const { save, pending } = useInlineUpdate(user);
  const [confirming, setConfirming] = useState(false);
  const change = (on: boolean) => {
    if (flag === 'cwAccess')
      return save({ cwAccess: on }, 'warehouse access', (u) =>
        on ? `${u.name} can now use the warehouse.` : `${u.name} no longer has warehouse access.`,
      );
    if (!on) return setConfirming(true); // deactivation asks first
    save({ active: true }, 'active', (u) => `${u.name} can sign in again.`);
  };
  return (
    <>
      <Switch
        aria-label={`${flag === 'cwAccess' ? 'Warehouse access' : 'Active'}: ${user.name}`}
        checked={user[flag]}
        onChange={(event) => change(event.currentTarget.checked)}
        disabled={pending}
        data-testid={`user-${flag === 'cwAccess' ? 'cw' : 'active'}-${user.email}`}
      />
      {/* Mounted only while asking: a list of users must not carry a closed dialog per row. */}
      {flag === 'active' && confirming && (
        <ConfirmDialog
          opened
          title={`Deactivate ${user.name}?`}
          message={`${user.name} is signed out at once, on every device, and cannot sign in until reactivated. Their records and history stay.`}
          confirmLabel="Deactivate"
          cancelLabel="Keep active"
          danger
          loading={pending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            save(
              { active: false },
              'active',
              (u) => `${u.name} is deactivated: signed out everywhere and cannot sign in.`,
            );
          }}
        />
      )}
    </>
  );
}

/** Ends every session of the user after asking: for a lost device or a shared password. */
function SessionsCell({ user }: { user: UserAdmin }) {
  const end = useEndSessions();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        variant="light"
        color="red"
        size="compact-xs"
        onClick={() => setConfirming(true)}
        loading={end.isPending}
        aria-label={`Sign ${user.name} out everywhere`}
        data-testid={`user-end-sessions-${user.email}`}
      >
        Sign out everywhere
      </Button>
      {confirming && (
        <ConfirmDialog
          opened
          title={`Sign ${user.name} out everywhere?`}
          message={`${user.name} is signed out at once on every device and browser. They can sign in again with their password.`}
          confirmLabel="Sign out everywhere"
          cancelLabel="Cancel"
          danger
          loading={end.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            end.mutate(user.id, {
              onSuccess: () => {
                setConfirming(false);
                notifications.show({
                  color: 'green',
                  message: `${user.name} is signed out on every device.`,
                });
              },
              onError: (error) => {
                setConfirming(false);
                notifications.show({
                  color: 'red',
                  title: `${user.name}: not signed out`,
                  message: problemMessage(error),
                });
              },
            })
          }
        />
      )}
    </>
  );
}

function columnsFor(partyLookup: LookupSource): RecordColumn<UserAdmin>[] {
  return [
    { id: 'name', header: 'Name', width: 180, required: true, cell: (u) => u.name },
    { id: 'email', header: 'Email', width: 230, cell: (u) => u.email },
    { id: 'role', header: 'Role', width: 150, cell: (u) => <RoleCell user={u} /> },
    {
      id: 'party',
      header: 'Organisation',
      width: 220,
      cell: (u) => <PartyCell user={u} partyLookup={partyLookup} />,
    },
    { id: 'cwAccess', header: 'Warehouse', width: 100, cell: (u) => <FlagCell user={u} flag="cwAccess" /> },
    { id: 'active', header: 'Active', width: 90, cell: (u) => <FlagCell user={u} flag="active" /> },
    { id: 'lastLoginAt', header: 'Last sign-in', width: 150, cell: (u) => formatDateTime(u.lastLoginAt) },
    { id: 'sessions', header: 'Sessions', width: 170, cell: (u) => <SessionsCell user={u} /> },
    {
      id: 'createdAt',
      header: 'Created',
      width: 150,
      hiddenByDefault: true,
      cell: (u) => formatDateTime(u.createdAt),
    },
  ];
}

const filters: FilterDef[] = [
  {
    kind: 'select',
    key: 'role',
    label: 'Role',
    options: ROLE_OPTIONS.map((o) => ({ ...o, label: ROLE_LABELS[o.value] })),
  },
];

/** The admin's user list: search by name or email, filter by role, edit role, organisation and flags in place. */
export function userListConfig(partyLookup: LookupSource): ListConfig<UserAdmin> {
  return {
    id: 'admin-users',
    path: 'users',
    label: 'Users',
    plural: 'users',
    columns: columnsFor(partyLookup),
    filters,
    defaultSort: '',
    searchPlaceholder: 'Name or email',
    getRowId: (u) => u.id,
    getRowTestId: (u) => `row-${u.email}`,
    listKey: userKeys.list,
    fetchList: fetchUserList,
    exportable: false,
  };
}
