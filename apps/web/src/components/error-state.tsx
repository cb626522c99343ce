import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isApiError, problemMessage } from '../lib/api-client.ts';
import { t as translate, useT } from '../lib/i18n.ts';
import { ProblemReference } from './problem-reference.tsx';

export interface ErrorStateProps {
  error?: unknown;
  title?: string;
  onRetry?: () => void;
}

function messageOf(error: unknown): string {
  if (isApiError(error)) return problemMessage(error);
  // A lazily loaded screen that no longer exists on the server: the app was updated meanwhile.
  if (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed/i.test(error.message)
  ) {
    return translate('shell:error.newVersion');
  }
  return translate('shell:error.generic');
}

/** The error state of a screen or a failed load, with a way to try again. */
export function ErrorState({ error, title, onRetry }: ErrorStateProps) {
  const t = useT('shell');
  return (
    <Alert
      color="red"
      variant="light"
      title={title ?? t('error.title')}
      icon={<IconAlertTriangle aria-hidden />}
      role="alert"
      data-testid="error-state"
    >
      <Stack gap="sm">
        <Stack gap={2}>
          <Text size="sm">{messageOf(error)}</Text>
          <ProblemReference error={error} />
        </Stack>
        <Group gap="xs">
          {onRetry && (
            <Button size="xs" variant="light" color="red" onClick={onRetry}>
              {t('common:retry')}
            </Button>
          )}
          <Button size="xs" variant="subtle" color="red" onClick={() => window.location.reload()}>
            {t('error.reloadPage')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
