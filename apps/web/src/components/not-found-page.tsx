import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useT } from '../lib/i18n.ts';
import { HOME_PATH } from '../lib/route-table.ts';

/** Any path that is not a route of the app. */
export function NotFoundPage() {
  const t = useT('shell');
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" gap="md" maw={480} ta="center" data-testid="not-found">
        <Text fz={64} fw={700} c="dimmed" aria-hidden>
          404
        </Text>
        <Title order={1}>{t('notFound.title')}</Title>
        <Text c="dimmed">{t('notFound.text')}</Text>
        <Button component={Link} to={HOME_PATH} data-testid="not-found-home">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
