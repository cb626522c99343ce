import type { Presence } from '@fvg/contracts';
import { act, fireEvent, renderHook, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { HubClient } from '../lib/hub-client.ts';
import { HubProvider, useHub, useHubEvent } from '../lib/hub-provider.tsx';
import { logout, sessionKeys, setToken } from '../lib/session.ts';
import { fakeHub } from '../test/fake-hub-connection.ts';
import { renderWithProviders } from '../test/render.tsx';
import { HubStatusDot } from './hub-status.tsx';

function PresenceProbe() {
  const [presence, setPresence] = useState<Presence | null>(null);
  useHubEvent('Presence', setPresence);
  return (
    <output data-testid="presence">{presence ? presence.users.map((u) => u.name).join(',') : 'none'}</output>
  );
}

/** The shell before and after `me` has loaded. */
function SignInHarness({ hub }: { hub: HubClient }) {
  const [userId, setUserId] = useState<string | undefined>(undefined);
  return (
    <HubProvider userId={userId} client={hub}>
      <button type="button" onClick={() => setUserId('u1')}>
        me loaded
      </button>
      <HubStatusDot />
    </HubProvider>
  );
}

describe('HubProvider', () => {
  it('waits for the user before starting, then shows the status as it changes', async () => {
    const { hub, connection } = fakeHub();
    renderWithProviders(<SignInHarness hub={hub} />);
    const dot = screen.getByTestId('hub-status');
    expect(dot.getAttribute('data-status')).toBe('offline');
    expect(connection.startCount).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'me loaded' }));
    await waitFor(() =>
      expect(screen.getByTestId('hub-status').getAttribute('data-status')).toBe('connecting'),
    );
    await act(async () => connection.resolveStart());
    expect(screen.getByTestId('hub-status').getAttribute('data-status')).toBe('connected');
    act(() => connection.drop());
    expect(screen.getByTestId('hub-status').getAttribute('data-status')).toBe('reconnecting');
    expect(screen.getByTestId('hub-status').getAttribute('aria-label')).toBe('Live updates: reconnecting…');
    act(() => connection.close());
    expect(screen.getByTestId('hub-status').getAttribute('data-status')).toBe('offline');
  });

  it('shows the status text in a tooltip', async () => {
    const { hub } = fakeHub({ autoStart: true });
    renderWithProviders(
      <HubProvider userId="u1" client={hub}>
        <HubStatusDot />
      </HubProvider>,
    );
    await waitFor(() =>
      expect(screen.getByTestId('hub-status').getAttribute('data-status')).toBe('connected'),
    );
    fireEvent.mouseEnter(screen.getByTestId('hub-status'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Live updates: connected');
  });

  it('stops the hub on logout() and on unmount', async () => {
    setToken('tok');
    const { hub, connection } = fakeHub({ autoStart: true });
    const { unmount } = renderWithProviders(
      <HubProvider userId="u1" client={hub}>
        <HubStatusDot />
      </HubProvider>,
    );
    await waitFor(() => expect(hub.getStatus()).toBe('connected'));
    act(() => logout());
    expect(connection.state).toBe('Disconnected');
    expect(screen.getByTestId('hub-status').getAttribute('data-status')).toBe('offline');
    unmount();
    expect(connection.stopCount).toBeGreaterThanOrEqual(1);
    // The unmounted provider no longer listens: a later logout does nothing to this hub.
    const stops = connection.stopCount;
    logout();
    expect(connection.stopCount).toBe(stops);
  });

  it('feeds RecordChanged of the signed-in user into the query cache', async () => {
    const { hub, connection } = fakeHub({ autoStart: true });
    const { queryClient } = renderWithProviders(
      <HubProvider userId="u1" client={hub}>
        <HubStatusDot />
      </HubProvider>,
    );
    queryClient.setQueryData(sessionKeys.me(), { id: 'u1' });
    await waitFor(() => expect(hub.getStatus()).toBe('connected'));
    connection.emit('RecordChanged', { kind: 'user', id: 'u1', action: 'updated' });
    await waitFor(() => expect(queryClient.getQueryState(sessionKeys.me())?.isInvalidated).toBe(true));
  });

  it('delivers server events to useHubEvent handlers while mounted', async () => {
    const { hub, connection } = fakeHub({ autoStart: true });
    const { unmount } = renderWithProviders(
      <HubProvider userId="u1" client={hub}>
        <PresenceProbe />
      </HubProvider>,
    );
    await waitFor(() => expect(hub.getStatus()).toBe('connected'));
    act(() =>
      connection.emit('Presence', { dossierId: 'D-1', users: [{ id: 'u2', name: 'Bo', role: 'staff' }] }),
    );
    expect(screen.getByTestId('presence').textContent).toBe('Bo');
    unmount();
    expect(() => connection.emit('Presence', { dossierId: 'D-1', users: [] })).not.toThrow();
  });

  it('signs out when the server closed the hub and `me` answers 401; not after a network drop', async () => {
    let meStatus = 200;
    const fetchMock = vi.fn(async () =>
      meStatus === 200
        ? new Response(
            JSON.stringify({ id: 'u1', Email: 'a@b.c', name: 'A', role: 'staff', party: null, access: {} }),
            {
              status: 200,
              headers: { 'content-type': 'application/json' },
            },
          )
        : new Response(
            JSON.stringify({ type: '/problems/unauthorized', title: 'Unauthorized', status: 401 }),
            {
              status: 401,
              headers: { 'content-type': 'application/problem+json' },
            },
          ),
    );
    vi.stubGlobal('fetch', fetchMock);
    setToken('header.payload.signature');
    const ended = vi.fn();
    const { hub, connection } = fakeHub({ autoStart: true });
    renderWithProviders(
      <HubProvider userId="u1" client={hub} onSessionEnded={ended}>
        <HubStatusDot />
      </HubProvider>,
    );
    await waitFor(() => expect(hub.getStatus()).toBe('connected'));
    // A close while `me` still works (the network, a restart): nothing but a later retry.
    act(() => connection.close(new Error('WebSocket closed with status code: 1006')));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    // Let the `me` answer be handled before saying nothing happened.
    await act(async () => {
      await fetchMock.mock.results[0]?.value;
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(ended).not.toHaveBeenCalled();

    await act(async () => {
      await hub.start();
    });
    await waitFor(() => expect(hub.getStatus()).toBe('connected'));
    meStatus = 401;
    act(() => connection.close(new Error('Server returned an error on close: Your session has ended.')));
    await waitFor(() => expect(ended).toHaveBeenCalledTimes(1));
    vi.unstubAllGlobals();
  });

  it('useHub() outside the provider says where the provider is', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useHub())).toThrow(/HubProvider/);
  });
});
