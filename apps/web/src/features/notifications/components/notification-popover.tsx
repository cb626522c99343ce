import type { NotificationRecord } from '@fvg/contracts';
import {
  Box,
  Button,
  Divider,
  Group,
  Popover,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactElement, ReactNode } from 'react';
import { formatDateTime, formatRelativeTime } from '../../../lib/format-date.ts';
import {
  flattenNotifications,
  notificationsOptions,
  unreadOf,
  useMarkAllRead,
  useMarkRead,
} from '../api/notifications-api.ts';
import { linkProps } from './notification-link.ts';
import classes from './notification-list.module.css';

function NotificationItem({ n, onOpen }: { n: NotificationRecord; onOpen: (n: NotificationRecord) => void }) {
  const unread = !n.readAt;
  const content = (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <Box className={classes.dot} data-unread={unread || undefined} aria-hidden />
      <Stack gap={2} className={classes.text}>
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Text size="sm" fw={unread ? 600 : 400} truncate>
            {unread && <VisuallyHidden>Unread: </VisuallyHidden>}
            {n.title}
          </Text>
          <Text size="xs" c="dimmed" className={classes.time} title={formatDateTime(n.createdAt)}>
            {formatRelativeTime(n.createdAt)}
          </Text>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2}>
          {n.body}
        </Text>
      </Stack>
    </Group>
  );
  const common = {
    className: classes.item,
    'data-unread': unread || undefined,
    'data-testid': 'notification-item',
    onClick: () => onOpen(n),
  };
  return n.link ? (
    <UnstyledButton component={Link} {...linkProps(n.link)} {...common}>
      {content}
    </UnstyledButton>
  ) : (
    <UnstyledButton {...common}>{content}</UnstyledButton>
  );
}

/**
 * The notification centre's list (newest first, unread ones marked, each linking to its record;
 * opening one marks it read) in its popover on the bell: loaded when a user reaches for the bell
 * (notification-bell.tsx renders `target`, the same button, until then; ADR 0023).
 */
export function NotificationPopover({
  opened,
  onChange,
  target,
}: {
  opened: boolean;
  onChange: (opened: boolean) => void;
  target: ReactElement;
}) {
  const feed = useInfiniteQuery(notificationsOptions());
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();
  const unread = unreadOf(feed.data);
  const items = flattenNotifications(feed.data);
  const open = (n: NotificationRecord) => {
    if (!n.readAt) markRead.mutate(n.id);
    onChange(false);
  };

  let body: ReactNode;
  if (feed.isPending)
    body = (
      <Stack gap="sm" p="md" data-testid="notifications-loading" aria-label="Loading notifications">
        <Skeleton height={14} width="60%" />
        <Skeleton height={12} />
        <Skeleton height={14} width="50%" />
        <Skeleton height={12} />
      </Stack>
    );
  else if (feed.isError)
    body = (
      <Stack gap="xs" p="md" align="flex-start" data-testid="notifications-error">
        <Text size="sm">Your notifications could not be loaded.</Text>
        <Button size="xs" variant="light" onClick={() => void feed.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  else if (items.length === 0)
    body = (
      <Text size="sm" c="dimmed" p="md" data-testid="notifications-empty">
        No notifications yet. New chat messages and booking requests show up here.
      </Text>
    );
  else
    body = (
      <ScrollArea.Autosize mah={420} type="auto">
        <Stack gap={0} component="ul" className={classes.list} aria-label="Notifications">
          {items.map((n) => (
            <li key={n.id}>
              <NotificationItem n={n} onOpen={open} />
            </li>
          ))}
        </Stack>
        {feed.hasNextPage && (
          <Group justify="center" p="xs">
            <Button
              size="xs"
              variant="subtle"
              loading={feed.isFetchingNextPage}
              onClick={() => void feed.fetchNextPage()}
            >
              Show older
            </Button>
          </Group>
        )}
      </ScrollArea.Autosize>
    );

  return (
    <Popover
      opened={opened}
      onChange={onChange}
      position="bottom-end"
      width={380}
      shadow="md"
      withinPortal
      trapFocus
      returnFocus
    >
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown p={0} aria-label="Notifications" data-testid="notification-list">
        <Group justify="space-between" px="md" py="xs" wrap="nowrap">
          {/* Where the focus lands on opening, as on a dialog's title; Tab goes on to the list. */}
          <Text component="h2" fw={600} size="sm" m={0} tabIndex={-1} data-autofocus>
            Notifications
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={unread === 0}
            loading={markAllRead.isPending}
            onClick={() => markAllRead.mutate(items[0]?.id)}
            data-testid="notifications-mark-all"
          >
            Mark all read
          </Button>
        </Group>
        <Divider />
        {body}
      </Popover.Dropdown>
    </Popover>
  );
}
