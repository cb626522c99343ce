import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link, useRouter, useSearch } from '@tanstack/react-router';
import { LoginForm } from '../features/auth/components/login-form.tsx';
import { safeRedirectTarget } from '../lib/redirect.ts';
import { HOME_PATH, pathFor } from '../lib/route-table.ts';

export default function LoginScreen() {
  const router = useRouter();
  const search = useSearch({ strict: false }) as { redirect?: string };

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Sign in
      </Title>
      <LoginForm
        onSignedIn={() => {
          // Back to where the guard stopped the user, or the dossiers list.
          router.history.replace(safeRedirectTarget(search.redirect) ?? HOME_PATH);
        }}
      />
      <Group justify="space-between" gap="xs">
        <Anchor component={Link} to={pathFor('password-forgot')} size="sm" data-testid="link-password-forgot">
          I forgot my password
        </Anchor>
        <Anchor component={Link} to={pathFor('welcome')} size="sm" data-testid="link-welcome">
          New to FVG?
        </Anchor>
      </Group>
    </Stack>
  );
}
