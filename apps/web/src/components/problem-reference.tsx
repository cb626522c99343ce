import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { isApiError, problemMessage } from '../lib/api-client.ts';
import { useT } from '../lib/i18n.ts';

/**
 * The server's id of a failed request, small under the message ("Reference: …"): what a user quotes
 * or shows in a screenshot, and what finds the request's log lines. Nothing for other errors.
 */
export function ProblemReference({ error }: { error: unknown }) {
  const t = useT('shell');
  const id = isApiError(error) ? error.requestId : undefined;
  if (!id) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="problem-reference" style={{ userSelect: 'all' }}>
      {t('error.reference', { id })}
    </Text>
  );
}

/** The error toast of a failed call: the problem in words, its reference under it. */
export function showProblemToast(title: string, error: unknown) {
  notifications.show({
    color: 'red',
    title,
    message: (
      <>
        {problemMessage(error)}
        <ProblemReference error={error} />
      </>
    ),
  });
}
