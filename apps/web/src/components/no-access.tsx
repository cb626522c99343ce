import { Button, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { HOME_PATH } from '../app/route-table.ts';

/** In place of a warehouse screen for a user without the cw_access flag. */
export function NoAccess() {
  return (
    <Stack gap="md" maw={560} data-testid="no-access">
      <IconLock size={40} stroke={1.5} aria-hidden />
      <Title order={1}>No access</Title>
      <Text>
        Your account has no access to the customs warehouse, so its stock and shipments are not available to
        you. If you need them, ask your FVG contact to grant your account warehouse access.
      </Text>
      <div>
        <Button component={Link} to={HOME_PATH} variant="light">
          Back to dossiers
        </Button>
      </div>
    </Stack>
  );
}
