import type { HubNotification } from '@fvg/contracts';
import { Anchor } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useMarkRead } from '../features/notifications/api/notifications-api.ts';
import { linkProps, toastIdOf } from '../features/notifications/components/notification-link.ts';
import { useHubEvent } from '../lib/hub-provider.tsx';
import { useT } from '../lib/i18n.ts';

/** Whether the screen at `here` (path and search) already shows what `link` points to. */
export function showsLink(
  here: { pathname: string; searchStr: string },
  link: string | null | undefined,
): boolean {
  if (!link) return false;
  const target = new URL(link, 'http://app.local');
  if (target.pathname !== here.pathname) return false;
  const tab = target.searchParams.get('tab');
  return !tab || new URLSearchParams(here.searchStr).get('tab') === tab;
}

/**
 * The hub's `Notification`s (a new chat message, a booking request) as toasts while the user is on
 * another screen; clicking one opens the record and marks the notification read. On the screen that
 * already shows the record there is no toast, and the notification counts as read. The bell in the
 * header (features/notifications) keeps the list.
 */
export function NotificationToasts() {
  const t = useT('shell');
  const location = useRouterState({ select: (s) => s.location });
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const here = useRef(location);
  useEffect(() => {
    here.current = location;
  }, [location]);
  useHubEvent('Notification', (n: HubNotification) => {
    if (showsLink(here.current, n.link)) {
      markRead.mutate(n.id);
      return;
    }
    const id = toastIdOf(n.id);
    const open = () => {
      markRead.mutate(n.id);
      notifications.hide(id);
      if (n.link) void navigate(linkProps(n.link));
    };
    notifications.show({
      id,
      title: n.title,
      // The toasts render outside the router (in the providers), so no router <Link> here: a plain
      // link whose click navigates through the router this component has.
      message: n.link ? (
        <>
          {n.body}{' '}
          <Anchor
            href={n.link}
            size="sm"
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
              event.preventDefault();
              // The toast's own click would open it a second time.
              event.stopPropagation();
              open();
            }}
            data-testid="toast-open"
          >
            {t('toast.open')}
          </Anchor>
        </>
      ) : (
        n.body
      ),
      autoClose: 8000,
      style: n.link ? { cursor: 'pointer' } : undefined,
      onClick: n.link ? open : undefined,
      'data-testid': 'notification-toast',
    } as Parameters<typeof notifications.show>[0]);
  });
  return null;
}
