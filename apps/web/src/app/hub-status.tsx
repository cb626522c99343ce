import { Box, Popover, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { HubStatus } from '../lib/hub-client.ts';
import { useHubStatus } from '../lib/hub-provider.tsx';
import { useT } from '../lib/i18n.ts';

const HUB_STATUS_COLOR: Record<HubStatus, string> = {
  connected: 'green.6',
  connecting: 'yellow.5',
  reconnecting: 'yellow.5',
  offline: 'gray.5',
};

/**
 * The header's dot for the real-time connection: green, yellow while (re)connecting, gray offline,
 * with the status as a tooltip on hover and keyboard focus.
 *
 * The tooltip is built on Popover (in the first load anyway: a list's column chooser uses it), not
 * Mantine's Tooltip, which only list screens load.
 */
export function HubStatusDot() {
  const t = useT('shell');
  const status = useHubStatus();
  const text = t(`hub.${status}`);
  const [opened, tooltip] = useDisclosure(false);
  return (
    <Popover
      opened={opened}
      onClose={tooltip.close}
      position="bottom"
      withArrow
      shadow="sm"
      offset={6}
      withRoles={false}
    >
      <Popover.Target>
        <Box
          component="span"
          role="img"
          aria-label={text}
          tabIndex={0}
          data-testid="hub-status"
          data-status={status}
          bg={HUB_STATUS_COLOR[status]}
          w={10}
          h={10}
          style={{ borderRadius: '50%', display: 'inline-block', flex: 'none' }}
          onMouseEnter={tooltip.open}
          onMouseLeave={tooltip.close}
          onFocus={tooltip.open}
          onBlur={tooltip.close}
        />
      </Popover.Target>
      <Popover.Dropdown role="tooltip" px="xs" py={4} style={{ pointerEvents: 'none' }}>
        <Text size="xs">{text}</Text>
      </Popover.Dropdown>
    </Popover>
  );
}
