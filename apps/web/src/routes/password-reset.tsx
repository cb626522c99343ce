import { Alert, Anchor, Button, Stack, Title } from '@mantine/core';
import { Link, useSearch } from '@tanstack/react-router';
import { PasswordResetForm } from '../features/auth/components/password-reset-form.tsx';
import { pathFor } from '../lib/route-table.ts';

export default function PasswordResetScreen() {
  const { token } = useSearch({ strict: false }) as { token?: string };
  const askAgain = (
    <Anchor component={Link} to={pathFor('password-forgot')} size="sm" data-testid="link-password-forgot">
      Ask for a new link
    </Anchor>
  );

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Reset my password
      </Title>
      {token ? (
        <PasswordResetForm
          token={token}
          afterSuccess={
            <Button component={Link} to={pathFor('login')} data-testid="link-login">
              Sign in
            </Button>
          }
          afterError={askAgain}
        />
      ) : (
        <Stack gap="xs">
          <Alert color="red" variant="light" role="alert" data-testid="password-reset-no-token">
            This link is incomplete. Open the link from the email again, or ask for a new one.
          </Alert>
          {askAgain}
        </Stack>
      )}
      <Anchor component={Link} to={pathFor('login')} size="sm">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
