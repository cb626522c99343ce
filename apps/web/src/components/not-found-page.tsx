import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { HOME_PATH } from '../app/route-table.ts';

/** Any path that is not a route of the app. */
export function NotFoundPage() {
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" gap="md" maw={480} ta="center" data-testid="not-found">
        <Text fz={64} fw={700} c="dimmed" aria-hidden>
          404
        </Text>
        <Title order={1}>Page not found</Title>
        <Text c="dimmed">
          The address you opened does not lead to a page of FVG. It may have been mistyped or moved.
        </Text>
        <Button component={Link} to={HOME_PATH} data-testid="not-found-home">
          Go to the home page
        </Button>
      </Stack>
    </Center>
  );
}
