import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useT } from '../lib/i18n.ts';

/** The body of the "new version" notification. */
export function UpdatePrompt({ onReload }: { onReload: () => void }) {
  const t = useT('shell');
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" data-testid="sw-update">
      <Text size="sm">{t('update.available')}</Text>
      <Button size="xs" variant="light" onClick={onReload} data-testid="sw-update-reload">
        {t('update.reload')}
      </Button>
    </Group>
  );
}

export const UPDATE_NOTIFICATION_ID = 'service-worker-update';

/** The app's update prompt: a notification "A new version is available — Reload" that stays until used. */
export function showUpdateNotification(apply: () => void): void {
  notifications.show({
    id: UPDATE_NOTIFICATION_ID,
    autoClose: false,
    withCloseButton: true,
    message: <UpdatePrompt onReload={apply} />,
  });
}
