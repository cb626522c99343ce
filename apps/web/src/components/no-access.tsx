import { Button, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useT } from '../lib/i18n.ts';
import { HOME_PATH } from '../lib/route-table.ts';

export interface NoAccessProps {
  /** Why there is no access; the customs warehouse by default. */
  message?: ReactNode;
  testId?: string;
}

/** In place of a screen the user may not use (the warehouse without cw_access, admin screens). */
export function NoAccess({ message, testId = 'no-access' }: NoAccessProps) {
  const t = useT('shell');
  return (
    <Stack gap="md" maw={560} data-testid={testId}>
      <IconLock size={40} stroke={1.5} aria-hidden />
      <Title order={1}>{t('noAccess.title')}</Title>
      <Text>{message ?? t('noAccess.warehouse')}</Text>
      <div>
        <Button component={Link} to={HOME_PATH} variant="light">
          {t('noAccess.back')}
        </Button>
      </div>
    </Stack>
  );
}
