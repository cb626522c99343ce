import { Alert, Badge, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { ErrorState } from '../components/error-state.tsx';
import { DEFAULT_NUMBER_FORMAT, formatMoney } from '../lib/format.ts';
import { hasCwAccess, useMe } from '../lib/session.ts';

const ROLE_LABELS: Record<string, string> = { admin: 'Administrator', staff: 'Staff', customer: 'Customer' };

export default function ProfileScreen() {
  const me = useMe();

  return (
    <Stack gap="lg" maw={720} data-testid="profile">
      <Title order={1}>Profile</Title>
      {me.isError ? (
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      ) : !me.data ? (
        <Stack gap="sm" data-testid="profile-loading">
          <Skeleton height={24} />
          <Skeleton height={24} />
          <Skeleton height={24} />
        </Stack>
      ) : (
        <Table variant="vertical" withTableBorder layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={200}>Name</Table.Th>
              <Table.Td data-testid="profile-name">{me.data.name}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Td data-testid="profile-email">{me.data.Email}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Role</Table.Th>
              <Table.Td data-testid="profile-role">{ROLE_LABELS[me.data.role] ?? me.data.role}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Organisation</Table.Th>
              <Table.Td data-testid="profile-party">
                {me.data.party ? `${me.data.party.name} (${me.data.party.code})` : '—'}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Customs warehouse</Table.Th>
              <Table.Td data-testid="profile-cw-access">
                {hasCwAccess(me.data) ? (
                  <Badge color="teal" variant="light">
                    Access
                  </Badge>
                ) : (
                  <Badge color="gray" variant="light">
                    No access
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Number format</Table.Th>
              <Table.Td data-testid="profile-number-format">
                {DEFAULT_NUMBER_FORMAT.currency}, e.g. {formatMoney(1234567.89)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
      <Alert
        variant="light"
        icon={<IconInfoCircle aria-hidden />}
        title="Coming soon"
        data-testid="profile-coming"
      >
        <Text size="sm">
          Changing your password and choosing your number format (currency, decimal and thousands separators)
          arrive in a later release. Until then, use “I forgot my password” on the sign-in screen to change
          your password.
        </Text>
      </Alert>
    </Stack>
  );
}
