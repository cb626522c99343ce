import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { PasswordForgotForm } from '../features/auth/components/password-forgot-form.tsx';
import { pathFor } from '../lib/route-table.ts';

export default function PasswordForgotScreen() {
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        I forgot my password
      </Title>
      <PasswordForgotForm />
      <Anchor component={Link} to={pathFor('login')} size="sm" data-testid="link-login">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
