import { Badge, Card, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { ErrorState } from '../components/error-state.tsx';
import { FormatsForm } from '../features/profile/components/formats-form.tsx';
import { NameForm } from '../features/profile/components/name-form.tsx';
import { PasswordForm } from '../features/profile/components/password-form.tsx';
import { useFormatPreferences } from '../lib/format.ts';
import { useT } from '../lib/i18n.ts';
import { hasCwAccess, useMe } from '../lib/session.ts';

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export default function ProfileScreen() {
  const t = useT('profile');
  const me = useMe();
  useFormatPreferences();

  return (
    <Stack gap="lg" maw={880} data-testid="profile">
      <Title order={1}>{t('title')}</Title>
      {me.isError ? (
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      ) : !me.data ? (
        <Stack gap="sm" data-testid="profile-loading">
          <Skeleton height={24} />
          <Skeleton height={24} />
          <Skeleton height={24} />
        </Stack>
      ) : (
        <>
          <Section title={t('account.title')} testId="profile-account">
            <Stack gap="md">
              <NameForm name={me.data.name} />
              <Table variant="vertical" withTableBorder layout="fixed">
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={200}>{t('account.email')}</Table.Th>
                    <Table.Td data-testid="profile-email">{me.data.Email}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('account.role')}</Table.Th>
                    <Table.Td data-testid="profile-role">{t(`role.${me.data.role}`)}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('account.organisation')}</Table.Th>
                    <Table.Td data-testid="profile-party">
                      {me.data.party ? `${me.data.party.name} (${me.data.party.code})` : '—'}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('account.warehouse')}</Table.Th>
                    <Table.Td data-testid="profile-cw-access">
                      {hasCwAccess(me.data) ? (
                        <Badge color="teal" variant="light">
                          {t('account.access')}
                        </Badge>
                      ) : (
                        <Badge color="gray" variant="light">
                          {t('account.noAccess')}
                        </Badge>
                      )}
                    </Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Stack>
          </Section>
          <Section title={t('formats.title')} testId="profile-formats">
            <Text size="sm" c="dimmed" mb="md">
              {t('formats.hint')}
            </Text>
            <FormatsForm preferences={me.data.preferences} />
          </Section>
          <Section title={t('password.title')} testId="profile-password">
            <PasswordForm />
          </Section>
        </>
      )}
    </Stack>
  );
}
