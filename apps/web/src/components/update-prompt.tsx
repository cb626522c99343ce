import { Button, Group, Text } from '@mantine/core';
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
