import type { HubNotification } from '@fvg/contracts';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { theme } from '../components/theme.ts';
import { HubProvider } from '../lib/hub-provider.tsx';
import { fakeHub } from '../test/fake-hub-connection.ts';
import { jsonResponse, renderRoute } from '../test/render-route.tsx';
import { NotificationToasts, showsLink } from './notification-toasts.tsx';

const note: HubNotification = {
  id: 'm-1',
  kind: 'chat-message',
  title: 'New message on D-2026-000042',
  body: 'Carla Customer: Where is my container?',
  link: '/dossiers/D-2026-000042?tab=chat',
  createdAt: '2026-11-23T10:00:00.000Z',
  readAt: null,
};

/** The app's hub over a fake connection, the toasts at `url`, and the API answering reads. */
async function start(url: string) {
  const fetchMock = vi.fn(async () => jsonResponse({ unread: 0 }));
  vi.stubGlobal('fetch', fetchMock);
  const { hub, connection } = fakeHub({ autoStart: true });
  const view = await renderRoute(
    <HubProvider userId="u1" client={hub}>
      <NotificationToasts />
    </HubProvider>,
    { path: new URL(url, 'http://x').pathname, url },
  );
  await waitFor(() => expect(hub.getStatus()).toBe('connected'));
  const reads = () =>
    fetchMock.mock.calls.map((call) => String((call as unknown[])[0]).replace(/^.*\/api\//, ''));
  return { ...view, connection, reads };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('notification toasts', () => {
  it('knows when the screen already shows the linked record and tab', () => {
    expect(showsLink({ pathname: '/dossiers/D-2026-000042', searchStr: '?tab=chat' }, note.link)).toBe(true);
    expect(showsLink({ pathname: '/dossiers/D-2026-000042', searchStr: '' }, note.link)).toBe(false);
    expect(showsLink({ pathname: '/dossiers', searchStr: '' }, note.link)).toBe(false);
    expect(showsLink({ pathname: '/dossiers', searchStr: '' }, null)).toBe(false);
  });

  it('clicking the toast opens the record on its tab and marks the notification read', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const { connection, reads, router } = await start('/planning/list');
    act(() => connection.emit('Notification', note));
    await waitFor(() => expect(shown).toHaveBeenCalled());
    const toast = shown.mock.calls[0]?.[0] as { onClick?: () => void };
    expect(reads()).toEqual([]);
    act(() => toast.onClick?.());
    await waitFor(() => expect(reads()).toEqual(['notifications/m-1/read']));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dossiers/D-2026-000042'));
    expect(router.state.location.search).toEqual({ tab: 'chat' });
  });

  it('the toast renders outside the router (as the app mounts its toasts) and its Open link works', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const { connection, reads, router } = await start('/planning/list');
    act(() => connection.emit('Notification', note));
    await waitFor(() => expect(shown).toHaveBeenCalled());
    const { message } = (shown.mock.calls[0]?.[0] ?? {}) as { message?: ReactNode };
    render(<MantineProvider theme={theme}>{message}</MantineProvider>);
    const open = screen.getByTestId('toast-open');
    expect(open.getAttribute('href')).toBe('/dossiers/D-2026-000042?tab=chat');
    fireEvent.click(open);
    await waitFor(() => expect(reads()).toEqual(['notifications/m-1/read']));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dossiers/D-2026-000042'));
  });

  it('on the screen that shows the record: no toast, and the notification counts as read', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const { connection, reads } = await start('/dossiers/D-2026-000042?tab=chat');
    act(() => connection.emit('Notification', note));
    await waitFor(() => expect(reads()).toEqual(['notifications/m-1/read']));
    expect(shown).not.toHaveBeenCalled();
  });

  it('shows a hub Notification as a toast on another screen (no console error for a missing handler)', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const { hub, connection } = fakeHub({ autoStart: true });
    await renderRoute(
      <HubProvider userId="u1" client={hub}>
        <NotificationToasts />
      </HubProvider>,
      { path: '/planning/list', url: '/planning/list' },
    );
    await waitFor(() => expect(hub.getStatus()).toBe('connected'));
    act(() => connection.emit('Notification', note));
    await waitFor(() =>
      expect(shown).toHaveBeenCalledWith(expect.objectContaining({ id: 'hub-m-1', title: note.title })),
    );
  });
});
