import { Button, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { HOME_PATH } from '../app/route-table.ts';

export interface NoAccessProps {
  /** Why there is no access; the customs warehouse by default. */
  message?: ReactNode;
  testId?: string;
}

const WAREHOUSE_MESSAGE =
  'Your account has no access to the customs warehouse, so its stock and shipments are not available to you. If you need them, ask your FVG contact to grant your account warehouse access.';

/** In place of a screen the user may not use (the warehouse without cw_access, admin screens). */
export function NoAccess({ message = WAREHOUSE_MESSAGE, testId = 'no-access' }: NoAccessProps) {
  return (
    <Stack gap="md" maw={560} data-testid={testId}>
      <IconLock size={40} stroke={1.5} aria-hidden />
      <Title order={1}>No access</Title>
      <Text>{message}</Text>
      <div>
        <Button component={Link} to={HOME_PATH} variant="light">
          Back to dossiers
        </Button>
      </div>
    </Stack>
  );
}
