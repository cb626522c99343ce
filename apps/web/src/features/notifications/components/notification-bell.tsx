import { ActionIcon, Indicator } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBell } from '@tabler/icons-react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useHubEvent } from '../../../lib/hub-provider.tsx';
import { lazyNamed, useLoadOnIntent } from '../../../lib/lazy-component.ts';
import {
  addArrived,
  applyReadElsewhere,
  flattenNotifications,
  notificationsOptions,
  unreadOf,
} from '../api/notifications-api.ts';
import { toastIdOf } from './notification-link.ts';

const LazyNotificationPopover = lazyNamed(() => import('./notification-popover.tsx'), 'NotificationPopover');

/**
 * The header's notification centre: a bell with the unread count, and on click the list
 * (notification-popover.tsx, loaded when the bell is first pointed at, focused or clicked). New ones
 * arrive through the hub while the app is open; reads in another tab update the count here.
 */
export function NotificationBell() {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const list = useLoadOnIntent(LazyNotificationPopover);
  const feed = useInfiniteQuery(notificationsOptions());
  useHubEvent('Notification', (n) => addArrived(queryClient, n));
  useHubEvent('NotificationsRead', (read) => applyReadElsewhere(queryClient, read));

  const unread = unreadOf(feed.data);
  const toggle = (next: boolean) => {
    // The list shows what the toasts said: they go, and stop covering it.
    if (next) for (const n of flattenNotifications(feed.data)) notifications.hide(toastIdOf(n.id));
    if (next) list.want();
    setOpened(next);
  };

  const target = (
    <ActionIcon
      {...list.intent}
      variant="subtle"
      color="gray"
      size="lg"
      onClick={() => toggle(!opened)}
      aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
      aria-expanded={opened}
      data-testid="notification-bell"
    >
      <Indicator
        label={unread > 99 ? '99+' : unread}
        size={16}
        color="red"
        disabled={unread === 0}
        offset={2}
        data-testid="notification-count"
      >
        <IconBell size={20} stroke={1.5} aria-hidden />
      </Indicator>
    </ActionIcon>
  );
  if (!list.active) return target;
  return (
    <Suspense fallback={target}>
      <LazyNotificationPopover opened={opened} onChange={toggle} target={target} />
    </Suspense>
  );
}
