import type { HubNotification } from '@fvg/contracts';
import { Anchor } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useHubEvent } from './hub-provider.tsx';

/** Whether the screen at `here` (path and search) already shows what `link` points to. */
export function showsLink(here: { pathname: string; searchStr: string }, link: string | undefined): boolean {
  if (!link) return false;
  const target = new URL(link, 'http://app.local');
  if (target.pathname !== here.pathname) return false;
  const tab = target.searchParams.get('tab');
  return !tab || new URLSearchParams(here.searchStr).get('tab') === tab;
}

/**
 * The hub's `Notification`s (a customer's chat message for staff, staff's answer for the customer)
 * as toasts with a link to the record, unless the screen already shows it. The notification centre
 * (a bell with a persisted list) is still to come.
 */
export function NotificationToasts() {
  const location = useRouterState({ select: (s) => s.location });
  const here = useRef(location);
  useEffect(() => {
    here.current = location;
  }, [location]);
  useHubEvent('Notification', (n: HubNotification) => {
    if (showsLink(here.current, n.link)) return;
    notifications.show({
      id: `hub-${n.id}`,
      title: n.title,
      message: n.link ? (
        <>
          {n.body}{' '}
          <Anchor component={Link} to={n.link} size="sm">
            Open
          </Anchor>
        </>
      ) : (
        n.body
      ),
      autoClose: 8000,
    });
  });
  return null;
}
