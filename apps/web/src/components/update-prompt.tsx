import { Button, Group, Text } from '@mantine/core';

/** The body of the "new version" notification. */
export function UpdatePrompt({ onReload }: { onReload: () => void }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" data-testid="sw-update">
      <Text size="sm">A new version is available</Text>
      <Button size="xs" variant="light" onClick={onReload} data-testid="sw-update-reload">
        Reload
      </Button>
    </Group>
  );
}
