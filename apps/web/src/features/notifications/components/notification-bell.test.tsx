import type { NotificationPage, NotificationRecord } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HubProvider } from '../../../lib/hub-provider.tsx';
import { fakeHub } from '../../../test/fake-hub-connection.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { NotificationBell } from './notification-bell.tsx';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const chat: NotificationRecord = {
  id: '7b0f4d1e-0000-4000-8000-000000000001',
  kind: 'chat-message',
  title: 'New message on D-2026-000042',
  body: 'Carla Customer: Where is my container?',
  link: '/dossiers/D-2026-000042?tab=chat',
  createdAt: minutesAgo(5),
  readAt: null,
};
const booking: NotificationRecord = {
  id: '7b0f4d1e-0000-4000-8000-000000000002',
  kind: 'booking-requested',
  title: 'Booking request D-2026-000041',
  body: 'Acme Trading B.V. asks to book an air import (CNSHA → NLAMS).',
  link: '/dossiers/D-2026-000041',
  createdAt: minutesAgo(3 * 60),
  readAt: minutesAgo(60),
};

interface Stub {
  page: NotificationPage | 'error';
}

function stubApi(stub: Stub) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (init?.method === 'POST' && url.includes('/notifications/read-all'))
      return jsonResponse({ unread: 0 });
    if (init?.method === 'POST' && /\/notifications\/[^/]+\/read$/.test(url))
      return jsonResponse({ unread: 0 });
    if (url.includes('/notifications')) {
      if (stub.page === 'error')
        return jsonResponse({ type: 'about:blank', title: 'Internal error', status: 503 }, 503);
      return jsonResponse(stub.page);
    }
    return jsonResponse({}, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function start(stub: Stub) {
  const fetchMock = stubApi(stub);
  const { hub, connection } = fakeHub({ autoStart: true });
  const view = await renderRoute(
    <HubProvider userId="u1" client={hub}>
      <NotificationBell />
    </HubProvider>,
    { path: '/planning/list', url: '/planning/list' },
  );
  await waitFor(() => expect(hub.getStatus()).toBe('connected'));
  return { ...view, fetchMock, connection };
}

const bell = () => screen.getByTestId('notification-bell');
const posts = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([url, init]) => [String(url).replace(/^.*\/api\//, ''), init?.body ?? null]);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('NotificationBell', () => {
  it('shows the unread count, and the list with titles, bodies, times in words, links and unread marks', async () => {
    await start({ page: { items: [chat, booking], unread: 1, next: null } });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    expect(screen.getByTestId('notification-count').textContent).toContain('1');

    const hidden = vi.spyOn(notifications, 'hide');
    fireEvent.click(bell());
    // The toasts of what the list shows go (they would cover it).
    expect(hidden.mock.calls.map(([id]) => id)).toEqual([`hub-${chat.id}`, `hub-${booking.id}`]);
    const list = await screen.findByTestId('notification-list');
    const items = within(list).getAllByTestId('notification-item');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining('New message on D-2026-000042'),
      expect.stringContaining('Booking request D-2026-000041'),
    ]);
    expect(items[0]?.textContent).toContain('Carla Customer: Where is my container?');
    expect(items[0]?.textContent).toContain('5 min ago');
    expect(items[1]?.textContent).toContain('3 h ago');
    expect(items[0]?.getAttribute('data-unread')).toBe('true');
    expect(items[1]?.hasAttribute('data-unread')).toBe(false);
    expect(items[0]?.getAttribute('href')).toBe('/dossiers/D-2026-000042?tab=chat');
    expect(items[1]?.getAttribute('href')).toBe('/dossiers/D-2026-000041');
  });

  it('marks all read up to the newest one shown; the badge goes', async () => {
    const { fetchMock } = await start({ page: { items: [chat, booking], unread: 1, next: null } });
    fireEvent.click(bell());
    fireEvent.click(await screen.findByTestId('notifications-mark-all'));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications'));
    expect(posts(fetchMock)).toEqual([['notifications/read-all', JSON.stringify({ upTo: chat.id })]]);
    expect(screen.getAllByTestId('notification-item').some((i) => i.hasAttribute('data-unread'))).toBe(false);
    expect((screen.getByTestId('notifications-mark-all') as HTMLButtonElement).disabled).toBe(true);
  });

  it('opening one goes to its record (tab included) and marks it read', async () => {
    const { fetchMock, router } = await start({ page: { items: [chat], unread: 1, next: null } });
    fireEvent.click(bell());
    fireEvent.click(await screen.findByTestId('notification-item'));
    await waitFor(() => expect(posts(fetchMock)).toEqual([[`notifications/${chat.id}/read`, null]]));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dossiers/D-2026-000042'));
    expect(router.state.location.search).toEqual({ tab: 'chat' });
  });

  it('a notification arriving through the hub raises the count and tops the list', async () => {
    const { connection } = await start({ page: { items: [booking], unread: 0, next: null } });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications'));
    act(() => connection.emit('Notification', chat));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    // The same one twice (a retry) counts once.
    act(() => connection.emit('Notification', chat));
    fireEvent.click(bell());
    const items = await screen.findAllByTestId('notification-item');
    expect(items.map((i) => i.textContent?.includes(chat.title))).toEqual([true, false]);
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread');
  });

  it('says so when there are none, and offers a retry when the list cannot load', async () => {
    await start({ page: { items: [], unread: 0, next: null } });
    fireEvent.click(bell());
    expect((await screen.findByTestId('notifications-empty')).textContent).toContain('No notifications yet');
    expect((screen.getByTestId('notifications-mark-all') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    const stub: Stub = { page: 'error' };
    const { fetchMock } = await start(stub);
    fireEvent.click(bell());
    const error = await screen.findByTestId('notifications-error');
    expect(error.textContent).toContain('could not be loaded');
    stub.page = { items: [chat], unread: 1, next: null };
    fireEvent.click(within(error).getByRole('button', { name: 'Try again', hidden: true }));
    expect(await screen.findByTestId('notification-item')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/notifications?')).length).toBe(2);
  });
});
