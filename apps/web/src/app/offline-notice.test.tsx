import { onlineManager, useQuery } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from '../lib/api-client.ts';
import { reportDatabaseBack, reportServerReached } from '../lib/connection.ts';
import { HubProvider } from '../lib/hub-provider.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { fakeHub } from '../test/fake-hub-connection.ts';
import { renderWithProviders } from '../test/render.tsx';
import { OfflineNotice } from './offline-notice.tsx';

const OFFLINE_TEXT = 'You are offline — changes are not saved; we retry when the connection is back.';

/** A screen's load: fails while `answers.ok` is false, then answers. */
function LoadProbe({ answers }: { answers: { ok: boolean; calls: number } }) {
  const result = useQuery({
    queryKey: ['probe'],
    queryFn: async () => {
      answers.calls += 1;
      if (!answers.ok) throw new TypeError('Failed to fetch');
      return 'loaded';
    },
    retry: false,
  });
  return <output data-testid="probe">{result.isError ? 'error' : (result.data ?? 'pending')}</output>;
}

/** The notice (and a screen's load, given its answers) over a connected hub. */
async function showNotice(answers?: { ok: boolean; calls: number }) {
  const { hub, connection } = fakeHub({ autoStart: true });
  renderWithProviders(
    <HubProvider userId="u1" client={hub}>
      <OfflineNotice />
      {answers && <LoadProbe answers={answers} />}
    </HubProvider>,
  );
  await waitFor(() => expect(hub.status.get()).toBe('connected'));
  return { connection };
}

function setBrowserOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  reportServerReached();
  reportDatabaseBack();
});

describe('OfflineNotice', () => {
  it('says so while the browser is offline, and runs the loads that failed again when it is back', async () => {
    const answers = { ok: false, calls: 0 };
    await showNotice(answers);
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('error'));

    setBrowserOnline(false);
    expect(screen.getByTestId('offline-notice').textContent).toBe(OFFLINE_TEXT);
    expect(screen.getByTestId('offline-notice').getAttribute('role')).toBe('status');

    answers.ok = true;
    setBrowserOnline(true);
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('loaded'));
    expect(answers.calls).toBe(2);
  });

  it('shows when a request gets no answer though the browser is online, and goes when the hub reconnects', async () => {
    const { connection } = await showNotice();
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await act(async () => {
      await expect(apiRequest('dossiers')).rejects.toMatchObject({ status: 0 });
    });
    expect(screen.getByTestId('offline-notice').textContent).toBe(OFFLINE_TEXT);

    act(() => connection.drop());
    expect(screen.getByTestId('offline-notice')).toBeTruthy();
    act(() => connection.reconnect());
    await waitFor(() => expect(screen.queryByTestId('offline-notice')).toBeNull());
  });

  it('believes the browser when it is back online after requests failed, and runs the failed loads again', async () => {
    const answers = { ok: false, calls: 0 };
    await showNotice(answers);
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('error'));
    setBrowserOnline(false);
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await act(async () => {
      await apiRequest('dossiers').catch(() => {});
    });
    answers.ok = true;
    setBrowserOnline(true);
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('probe').textContent).toBe('loaded'));
  });

  it('goes when the server answers again', async () => {
    await showNotice();
    vi.stubGlobal('fetch', vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')));
    await act(async () => {
      await apiRequest('dossiers').catch(() => {});
    });
    expect(screen.getByTestId('offline-notice')).toBeTruthy();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{}', { status: 200 })));
    await act(async () => {
      await apiRequest('dossiers');
    });
    expect(screen.queryByTestId('offline-notice')).toBeNull();
  });
});

describe('OfflineNotice while the server has lost its database', () => {
  const LOST_TEXT = 'The server lost its database; retrying… Changes made now are not saved.';
  const unavailable = () =>
    new Response(
      JSON.stringify({
        type: '/problems/database-unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: 'The server lost its connection to its database and is reconnecting.',
      }),
      { status: 503, headers: { 'content-type': 'application/problem+json', 'retry-after': '5' } },
    );

  it('shows when the hub says the database is down, and goes when it says it is back', async () => {
    const { connection } = await showNotice();
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    act(() => connection.emit('ServiceStatus', { database: 'down' }));
    expect(screen.getByTestId('offline-notice').textContent).toBe(LOST_TEXT);
    act(() => connection.emit('ServiceStatus', { database: 'up' }));
    expect(screen.queryByTestId('offline-notice')).toBeNull();
  });

  it('shows when a request is answered 503 database-unavailable, not for another 503, and goes with the next answer', async () => {
    await showNotice();
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('', { status: 503 })));
    await act(async () => {
      await expect(apiRequest('dossiers')).rejects.toMatchObject({ status: 503 });
    });
    expect(screen.queryByTestId('offline-notice')).toBeNull();

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(unavailable()));
    await act(async () => {
      await expect(apiRequest('dossiers')).rejects.toMatchObject({
        status: 503,
        retryAfterSeconds: 5,
      });
    });
    expect(screen.getByTestId('offline-notice').textContent).toBe(LOST_TEXT);

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{}', { status: 200 })));
    await act(async () => {
      await apiRequest('dossiers');
    });
    expect(screen.queryByTestId('offline-notice')).toBeNull();
  });
});

describe('the app’s query client', () => {
  it('fails a load made while offline (its screen shows "Try again") instead of pausing it', async () => {
    const queryClient = createQueryClient();
    onlineManager.setOnline(false);
    try {
      await expect(
        queryClient.fetchQuery({
          queryKey: ['offline-load'],
          queryFn: () => Promise.reject(new TypeError('Failed to fetch')),
          retry: false,
        }),
      ).rejects.toThrow('Failed to fetch');
    } finally {
      onlineManager.setOnline(true);
    }
  });
});
