import type { ChatMessage, HubServerEvents, Presence } from '@fvg/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeHubConnection } from '../test/fake-hub-connection.ts';
import {
  HubClient,
  type HubClientOptions,
  HubClosedError,
  type HubStatus,
  HubStoppedError,
} from './hub-client.ts';

/** Lets the client's promise chains (connection factory, start, flush) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

interface Tracked<T> {
  state: 'pending' | 'fulfilled' | 'rejected';
  value: T | undefined;
  error: unknown;
}

function track<T>(promise: Promise<T>): Tracked<T> {
  const tracked: Tracked<T> = { state: 'pending', value: undefined, error: undefined };
  promise.then(
    (value) => {
      tracked.state = 'fulfilled';
      tracked.value = value;
    },
    (error: unknown) => {
      tracked.state = 'rejected';
      tracked.error = error;
    },
  );
  return tracked;
}

function setup(options: HubClientOptions & { autoStart?: boolean } = {}) {
  const connection = new FakeHubConnection({ autoStart: options.autoStart ?? false });
  const log = { warn: vi.fn(), error: vi.fn() };
  const createConnection = vi.fn(() => connection);
  const hub = new HubClient({
    createConnection,
    console: log,
    wakeTarget: null,
    restartDelayMs: 0,
    ...options,
  });
  const statuses: HubStatus[] = [];
  hub.status.subscribe((status) => statuses.push(status));
  return { hub, connection, log, createConnection, statuses };
}

const presence: Presence = { dossierId: 'D-1', users: [] };

afterEach(() => {
  vi.useRealTimers();
});

describe('HubClient: calls before start', () => {
  it('holds calls made before start() until the connection is up, then sends them in order', async () => {
    const { hub, connection, createConnection, statuses } = setup();
    connection.answer = (method, args) =>
      method === 'JoinDossier' ? { ...presence, dossierId: args[0] } : null;

    const join = track(hub.invoke('JoinDossier', 'D-1'));
    const read = track(hub.send('MarkRead', 'D-1', 'm-1'));
    await settle();
    // Nothing happens before start(): no connection, nothing sent, nothing settled.
    expect(createConnection).not.toHaveBeenCalled();
    expect(connection.sent).toEqual([]);
    expect([join.state, read.state]).toEqual(['pending', 'pending']);

    const started = track(hub.start());
    await settle();
    expect(connection.startCount).toBe(1);
    expect(hub.getStatus()).toBe('connecting');
    // A call made while connecting joins the end of the line.
    const message = track(hub.invoke('SendMessage', 'D-1', 'hello'));
    await settle();
    expect(connection.sent).toEqual([]);
    expect([join.state, read.state, message.state, started.state]).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);

    connection.resolveStart();
    await settle();
    expect(connection.sent.map((call) => `${call.kind}:${call.method}`)).toEqual([
      'invoke:JoinDossier',
      'send:MarkRead',
      'invoke:SendMessage',
    ]);
    expect(connection.sent[2]?.args).toEqual(['D-1', 'hello']);
    expect(join.value).toEqual({ dossierId: 'D-1', users: [] });
    expect([read.state, message.state, started.state]).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(statuses).toEqual(['connecting', 'connected']);
  });

  it('keeps the order when a call is made the instant the connection comes up', async () => {
    const { hub, connection } = setup();
    hub.start().catch(() => {});
    const first = track(hub.invoke('JoinDossier', 'D-1'));
    await settle();
    connection.resolveStart(); // the library is Connected now; the client has not seen it yet
    const second = track(hub.invoke('SendMessage', 'D-1', 'right away'));
    await settle();
    expect(connection.sent.map((call) => call.method)).toEqual(['JoinDossier', 'SendMessage']);
    expect([first.state, second.state]).toEqual(['fulfilled', 'fulfilled']);
  });

  it('sends directly once connected, and start() is idempotent', async () => {
    const { hub, connection, createConnection } = setup();
    const first = track(hub.start());
    const second = track(hub.start());
    await settle();
    connection.resolveStart();
    await settle();
    expect([first.state, second.state]).toEqual(['fulfilled', 'fulfilled']);
    await hub.start();
    expect(createConnection).toHaveBeenCalledTimes(1);
    expect(connection.startCount).toBe(1);

    await expect(hub.invoke('MarkRead', 'D-1', 'm-9')).resolves.toEqual({
      method: 'MarkRead',
      args: ['D-1', 'm-9'],
    });
  });

  it('passes a server error of an invocation to the caller', async () => {
    const { hub, connection } = setup({ autoStart: true });
    connection.answer = () => {
      throw new Error('An unexpected error occurred invoking SendMessage on the server.');
    };
    await hub.start();
    await expect(hub.invoke('SendMessage', 'D-1', 'hi')).rejects.toThrow(/invoking SendMessage/);
    expect(hub.getStatus()).toBe('connected');
  });
});

describe('HubClient: failed starts', () => {
  it('rejects the waiting calls when the start fails, and starts again on the next call', async () => {
    const { hub, connection, log, statuses } = setup();
    const started = track(hub.start());
    const join = track(hub.invoke('JoinDossier', 'D-1'));
    await settle();

    const failure = new Error('Failed to complete negotiation with the server: Error: Service Unavailable');
    connection.rejectStart(failure);
    await settle();
    expect(started.error).toBe(failure);
    expect(join.error).toBe(failure);
    expect(hub.getStatus()).toBe('offline');
    expect(log.warn).toHaveBeenCalledWith('[hub]', expect.stringContaining('could not connect'), failure);

    const retry = track(hub.invoke('JoinDossier', 'D-2'));
    await settle();
    expect(connection.startCount).toBe(2);
    expect(retry.state).toBe('pending');
    connection.resolveStart();
    await settle();
    expect(retry.state).toBe('fulfilled');
    expect(connection.sent.map((call) => call.args[0])).toEqual(['D-2']);
    expect(statuses).toEqual(['connecting', 'offline', 'connecting', 'connected']);
  });

  it('asks the connection factory again when it failed (say, the chunk did not load)', async () => {
    const connection = new FakeHubConnection({ autoStart: true });
    const createConnection = vi
      .fn<() => FakeHubConnection>()
      .mockImplementationOnce(() => {
        throw new TypeError('Failed to fetch dynamically imported module');
      })
      .mockImplementation(() => connection);
    const log = { warn: vi.fn(), error: vi.fn() };
    const hub = new HubClient({ createConnection, console: log, wakeTarget: null, restartDelayMs: 0 });

    await expect(hub.start()).rejects.toThrow(/dynamically imported/);
    expect(hub.getStatus()).toBe('offline');
    await expect(hub.invoke('JoinDossier', 'D-1')).resolves.toBeDefined();
    expect(createConnection).toHaveBeenCalledTimes(2);
    expect(hub.getStatus()).toBe('connected');
  });
});

describe('HubClient: reconnects', () => {
  it('holds a call made while reconnecting until onreconnected', async () => {
    const { hub, connection, statuses } = setup({ autoStart: true });
    await hub.start();
    connection.drop();
    expect(hub.getStatus()).toBe('reconnecting');

    const message = track(hub.invoke('SendMessage', 'D-1', 'still there?'));
    const read = track(hub.send('MarkRead', 'D-1', 'm-2'));
    const startWhileReconnecting = track(hub.start());
    await settle();
    expect(connection.sent).toEqual([]);
    expect(connection.startCount).toBe(1); // no competing start during the automatic reconnect
    expect([message.state, read.state, startWhileReconnecting.state]).toEqual([
      'pending',
      'pending',
      'pending',
    ]);

    connection.reconnect();
    await settle();
    expect(connection.sent.map((call) => call.method)).toEqual(['SendMessage', 'MarkRead']);
    expect([message.state, read.state, startWhileReconnecting.state]).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
  });

  it('rejects waiting calls when the reconnect gives up, then starts again on the next call', async () => {
    const { hub, connection, log } = setup({ autoStart: true });
    await hub.start();
    connection.drop();
    const message = track(hub.invoke('SendMessage', 'D-1', 'hello?'));
    await settle();

    connection.close(new Error('Server timeout elapsed without receiving a message from the server.'));
    await settle();
    expect(message.state).toBe('rejected');
    expect(message.error).toBeInstanceOf(HubClosedError);
    expect(hub.getStatus()).toBe('offline');
    expect(log.warn).toHaveBeenCalledWith('[hub]', expect.stringContaining('closed'), expect.any(Error));

    await expect(hub.invoke('JoinDossier', 'D-1')).resolves.toBeDefined();
    expect(connection.startCount).toBe(2);
    expect(hub.getStatus()).toBe('connected');
  });

  it('starts again when the browser comes back online or the window gets the focus', async () => {
    const wakeTarget = new EventTarget();
    const { hub, connection } = setup({ autoStart: true, wakeTarget });
    await hub.start();
    connection.drop();
    connection.close();
    await settle();
    expect(hub.getStatus()).toBe('offline');

    wakeTarget.dispatchEvent(new Event('online'));
    await settle();
    expect(connection.startCount).toBe(2);
    expect(hub.getStatus()).toBe('connected');

    // Focus while connected does nothing; after another give-up it starts again.
    wakeTarget.dispatchEvent(new Event('focus'));
    await settle();
    expect(connection.startCount).toBe(2);
    connection.drop();
    connection.close();
    wakeTarget.dispatchEvent(new Event('focus'));
    await settle();
    expect(connection.startCount).toBe(3);

    // Stopped (signed out): wake-ups are ignored.
    await hub.stop();
    wakeTarget.dispatchEvent(new Event('online'));
    await settle();
    expect(connection.startCount).toBe(3);
  });

  it('starts again every minute while the page is visible', async () => {
    vi.useFakeTimers();
    let visible = false;
    const { hub, connection } = setup({
      autoStart: true,
      restartDelayMs: 60_000,
      isPageVisible: () => visible,
    });
    await hub.start();
    connection.drop();
    connection.close();

    await vi.advanceTimersByTimeAsync(60_000);
    expect(connection.startCount).toBe(1); // hidden page: wait
    visible = true;
    await vi.advanceTimersByTimeAsync(59_999);
    expect(connection.startCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(connection.startCount).toBe(2);
    expect(hub.getStatus()).toBe('connected');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('retries a failed first start on the timer too, and not after stop()', async () => {
    vi.useFakeTimers();
    const { hub, connection } = setup({ restartDelayMs: 60_000, isPageVisible: () => true });
    hub.start().catch(() => {});
    await vi.advanceTimersByTimeAsync(0);
    connection.rejectStart();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(connection.startCount).toBe(2);
    connection.rejectStart();
    await vi.advanceTimersByTimeAsync(0);
    await hub.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('HubClient: stop', () => {
  it('rejects the waiting calls, and later calls wait for the next start()', async () => {
    const { hub, connection, log } = setup();
    const started = track(hub.start());
    const join = track(hub.invoke('JoinDossier', 'D-1'));
    await settle();

    await hub.stop();
    await settle();
    expect(join.error).toBeInstanceOf(HubStoppedError);
    expect(started.error).toBeInstanceOf(HubStoppedError);
    expect(hub.getStatus()).toBe('offline');
    expect(connection.stopCount).toBe(1);
    expect(log.warn).not.toHaveBeenCalled(); // a sign-out is no error

    const later = track(hub.invoke('JoinDossier', 'D-2'));
    await settle();
    expect(connection.startCount).toBe(1);
    expect(later.state).toBe('pending');

    hub.start().catch(() => {});
    await settle();
    connection.resolveStart();
    await settle();
    expect(later.state).toBe('fulfilled');
    expect(connection.sent.map((call) => call.args[0])).toEqual(['D-2']);
  });

  it('closes a live connection without treating it as a failure', async () => {
    const wakeTarget = new EventTarget();
    const { hub, connection, log, statuses } = setup({ autoStart: true, wakeTarget });
    await hub.start();
    await hub.stop();
    expect(connection.state).toBe('Disconnected');
    expect(statuses).toEqual(['connecting', 'connected', 'offline']);
    wakeTarget.dispatchEvent(new Event('online'));
    await settle();
    expect(connection.startCount).toBe(1);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('does not start a connection whose factory finished after stop()', async () => {
    const connection = new FakeHubConnection({ autoStart: true });
    let deliver: (value: FakeHubConnection) => void = () => {};
    const hub = new HubClient({
      createConnection: () => new Promise<FakeHubConnection>((resolve) => (deliver = resolve)),
      console: { warn: vi.fn(), error: vi.fn() },
      wakeTarget: null,
      restartDelayMs: 0,
    });
    const started = track(hub.start());
    await settle();
    await hub.stop();
    deliver(connection);
    await settle();
    expect(started.error).toBeInstanceOf(HubStoppedError);
    expect(connection.startCount).toBe(0);
    expect(hub.getStatus()).toBe('offline');
  });

  it('waits for a stop still closing the connection before starting again, and ignores its close', async () => {
    const { hub, connection, log } = setup({ autoStart: true });
    connection.manualStop = true;
    await hub.start();
    const stopped = track(hub.stop());
    expect(connection.state).toBe('Disconnecting');

    const join = track(hub.invoke('JoinDossier', 'D-1'));
    const restarted = track(hub.start());
    await settle();
    expect(connection.startCount).toBe(1); // not while Disconnecting: the library would refuse
    expect(hub.getStatus()).toBe('connecting');

    connection.finishStop(); // fires onclose of the old connection first
    await settle();
    expect(stopped.state).toBe('fulfilled');
    expect(connection.startCount).toBe(2);
    expect([join.state, restarted.state]).toEqual(['fulfilled', 'fulfilled']);
    expect(hub.getStatus()).toBe('connected');
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('survives stop() and start() during a pending start (React StrictMode effects), with one connection', async () => {
    const { hub, connection, createConnection } = setup();
    hub.start().catch(() => {});
    await settle();
    const stopping = hub.stop();
    const queued = track(hub.invoke('JoinDossier', 'D-1'));
    const restarted = track(hub.start());
    await stopping;
    await settle();
    expect(connection.startCount).toBe(2);
    connection.resolveStart();
    await settle();
    expect([queued.state, restarted.state]).toEqual(['fulfilled', 'fulfilled']);
    expect(createConnection).toHaveBeenCalledTimes(1);
    expect(hub.getStatus()).toBe('connected');
  });
});

describe('HubClient: events', () => {
  const message: ChatMessage = {
    id: 'm-1',
    dossierId: 'D-1',
    author: { id: 'u2', name: 'Bo', role: 'staff' },
    text: 'Container is on board',
    sentAt: '2026-01-05T10:00:00Z',
    readBy: [],
  };

  it('delivers events to handlers added before the connection existed, across reconnects', async () => {
    const { hub, connection } = setup({ autoStart: true });
    const received: ChatMessage[] = [];
    const other = vi.fn<HubServerEvents['ReceiveMessage']>();
    const off = hub.on('ReceiveMessage', (m) => received.push(m));
    hub.on('ReceiveMessage', other);
    await hub.start();
    expect(connection.handlerCount('ReceiveMessage')).toBe(1); // one dispatcher per event name

    connection.emit('ReceiveMessage', message);
    connection.drop();
    connection.reconnect();
    connection.emit('receivemessage', { ...message, id: 'm-2' });
    expect(received.map((m) => m.id)).toEqual(['m-1', 'm-2']);

    off();
    connection.emit('ReceiveMessage', { ...message, id: 'm-3' });
    expect(received).toHaveLength(2);
    expect(other).toHaveBeenCalledTimes(3);
  });

  it('wires handlers added after the start, and keeps going when one of them throws', async () => {
    const { hub, connection, log } = setup({ autoStart: true });
    await hub.start();
    const failing = new Error('boom');
    hub.on('Presence', () => {
      throw failing;
    });
    const seen = vi.fn();
    hub.on('Presence', seen);
    connection.emit('Presence', presence);
    expect(seen).toHaveBeenCalledWith(presence);
    expect(log.error).toHaveBeenCalledWith('[hub]', expect.stringContaining('Presence'), failing);
  });
});

describe('HubClient: onReconnected', () => {
  it('is not called for the connection the call was queued onto, and is after an automatic reconnect', async () => {
    const { hub, connection } = setup();
    const rejoin = vi.fn();
    hub.onReconnected(rejoin);
    hub.invoke('JoinDossier', 'D-1').catch(() => {});
    hub.start().catch(() => {});
    await settle();
    connection.resolveStart();
    await settle();
    expect(rejoin).not.toHaveBeenCalled();

    connection.drop();
    connection.reconnect();
    expect(rejoin).toHaveBeenCalledTimes(1);
    connection.drop();
    connection.reconnect();
    expect(rejoin).toHaveBeenCalledTimes(2);
  });

  it('is called when the first start failed (the queued call was rejected) and a later one succeeds', async () => {
    const { hub, connection } = setup();
    hub.start().catch(() => {});
    const join = track(hub.invoke('JoinDossier', 'D-1'));
    const rejoin = vi.fn();
    hub.onReconnected(rejoin);
    await settle();
    connection.rejectStart();
    await settle();
    expect(join.state).toBe('rejected');

    connection.autoStart = true;
    await hub.start();
    expect(rejoin).toHaveBeenCalledTimes(1);
  });

  it('is not called for a listener added while reconnecting, whose call waits for that reconnect', async () => {
    const { hub, connection } = setup({ autoStart: true });
    await hub.start();
    connection.drop();
    const rejoin = vi.fn();
    const join = track(hub.invoke('JoinDossier', 'D-1'));
    const off = hub.onReconnected(rejoin);
    connection.reconnect();
    await settle();
    expect(join.state).toBe('fulfilled');
    expect(rejoin).not.toHaveBeenCalled();

    off();
    connection.drop();
    connection.reconnect();
    expect(rejoin).not.toHaveBeenCalled();
  });

  it('runs after the waiting calls went out, and a failing listener only reaches the console', async () => {
    const { hub, connection, log } = setup({ autoStart: true });
    await hub.start();
    const order: string[] = [];
    hub.onReconnected(() => {
      throw new Error('listener failed');
    });
    hub.onReconnected(() => order.push(`rejoin after ${connection.sent.length} sent`));
    connection.drop();
    hub.send('MarkRead', 'D-1', 'm-1').catch(() => {});
    await settle();
    connection.reconnect();
    expect(order).toEqual(['rejoin after 1 sent']);
    expect(log.error).toHaveBeenCalledWith(
      '[hub]',
      expect.stringContaining('reconnect listener'),
      expect.any(Error),
    );
  });
});
