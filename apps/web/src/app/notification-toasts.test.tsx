import { notifications } from '@mantine/notifications';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HubClient } from '../lib/hub-client.ts';
import { FakeHubConnection } from '../test/fake-hub-connection.ts';
import { renderRoute } from '../test/render-route.tsx';
import { HubProvider } from './hub-provider.tsx';
import { NotificationToasts, showsLink } from './notification-toasts.tsx';

const note = {
  id: 'm-1',
  title: 'New message on D-2026-000042',
  body: 'Where is my container?',
  link: '/dossiers/D-2026-000042?tab=chat',
  at: '2026-11-23T10:00:00.000Z',
};

describe('notification toasts', () => {
  it('knows when the screen already shows the linked record and tab', () => {
    expect(showsLink({ pathname: '/dossiers/D-2026-000042', searchStr: '?tab=chat' }, note.link)).toBe(true);
    expect(showsLink({ pathname: '/dossiers/D-2026-000042', searchStr: '' }, note.link)).toBe(false);
    expect(showsLink({ pathname: '/dossiers', searchStr: '' }, note.link)).toBe(false);
    expect(showsLink({ pathname: '/dossiers', searchStr: '' }, undefined)).toBe(false);
  });

  it('shows a hub Notification as a toast on another screen (no console error for a missing handler)', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const connection = new FakeHubConnection({ autoStart: true });
    const hub = new HubClient({
      createConnection: () => connection,
      console: { warn: vi.fn(), error: vi.fn() },
      wakeTarget: null,
      restartDelayMs: 0,
    });
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
