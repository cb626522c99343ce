import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
  Subject,
} from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelled, startTestHubServer } from './test-hub.ts';

/**
 * The official client (@microsoft/signalr) against our protocol server on a loopback port, once per
 * transport and once with skipNegotiation.
 */
type Server = Awaited<ReturnType<typeof startTestHubServer>>;
let server: Server;

beforeAll(async () => {
  server = await startTestHubServer({
    keepAliveIntervalMs: 300,
    clientTimeoutMs: 1500,
    longPollTimeoutMs: 700,
  });
});
afterAll(async () => {
  await server.app.close();
});

const variants = [
  { name: 'WebSockets', transport: HttpTransportType.WebSockets, skipNegotiation: false },
  { name: 'WebSockets with skipNegotiation', transport: HttpTransportType.WebSockets, skipNegotiation: true },
  { name: 'ServerSentEvents', transport: HttpTransportType.ServerSentEvents, skipNegotiation: false },
  { name: 'LongPolling', transport: HttpTransportType.LongPolling, skipNegotiation: false },
] as const;

function build(v: (typeof variants)[number], user = 'alice', reconnect = false): HubConnection {
  let builder = new HubConnectionBuilder()
    .withUrl(server.url, {
      transport: v.transport,
      skipNegotiation: v.skipNegotiation,
      accessTokenFactory: () => `good-${user}`,
    })
    .configureLogging(LogLevel.None)
    .withServerTimeout(1500)
    .withKeepAliveInterval(300);
  if (reconnect) builder = builder.withAutomaticReconnect([0, 100, 200]);
  return builder.build();
}

function next<T extends unknown[]>(conn: HubConnection, event: string): Promise<T> {
  return new Promise((resolve) => {
    const handler = (...args: unknown[]) => {
      conn.off(event, handler);
      resolve(args as T);
    };
    conn.on(event, handler);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(variants)('$name', (v) => {
  it('connects, handshakes and gets a connection id and a first server event', async () => {
    const conn = build(v);
    const welcome = next<[string]>(conn, 'Welcome');
    await conn.start();
    expect(conn.state).toBe(HubConnectionState.Connected);
    const [idSeenByServer] = await welcome;
    if (v.skipNegotiation) expect(conn.connectionId).toBeNull();
    else expect(conn.connectionId).toBe(idSeenByServer);
    await conn.stop();
    expect(conn.state).toBe(HubConnectionState.Disconnected);
  });

  it('invokes with a result, without one, with a hub error, with an unexpected error, and an unknown method', async () => {
    const conn = build(v);
    await conn.start();
    expect(await conn.invoke('Add', 2, 40)).toBe(42);
    expect(await conn.invoke('echo', 'case-insensitive')).toBe('case-insensitive');
    expect(await conn.invoke('Nothing')).toBeUndefined(); // a void method completes without a result
    await expect(conn.invoke('Fail')).rejects.toThrow('Deliberate failure');
    const crash = await conn.invoke('Crash').catch((e: Error) => e.message);
    expect(crash).toContain("An unexpected error occurred invoking 'Crash' on the server.");
    expect(crash).not.toContain('secret');
    await expect(conn.invoke('NoSuchMethod')).rejects.toThrow("Unknown hub method 'NoSuchMethod'");
    await conn.stop();
  });

  it('keeps newlines and the record separator inside messages intact', async () => {
    const conn = build(v);
    await conn.start();
    const tricky = 'line one\nline two\r\n\u001e after separator \u001e\n"quoted" data: x';
    expect(await conn.invoke('Echo', tricky)).toBe(tricky);
    await conn.stop();
  });

  it('sends fire-and-forget and receives server-to-client events, to the caller, a group, a user and all', async () => {
    const conn = build(v, 'bob');
    await conn.start();
    const notified = next<[string]>(conn, 'Notified');
    await conn.send('Notify', 'hello');
    expect(await notified).toEqual(['hello']);

    await conn.invoke('Join', 'room-1');
    const groupMsg = next<[string, string]>(conn, 'GroupMessage');
    await conn.invoke('SendToGroup', 'room-1', 'to the room');
    expect(await groupMsg).toEqual(['room-1', 'to the room']);

    const userMsg = next<[string]>(conn, 'UserMessage');
    await conn.invoke('SendToUser', 'bob', 'just for bob');
    expect(await userMsg).toEqual(['just for bob']);

    const all = next<[string]>(conn, 'Broadcast');
    await conn.invoke('Broadcast', 'everyone');
    expect(await all).toEqual(['everyone']);
    await conn.stop();
  });

  it('answers a server-to-client invocation that waits for the client result', async () => {
    const conn = build(v);
    conn.on('Answer', (q: string) => `answer to ${q}`);
    await conn.start();
    expect(await conn.invoke('AskClient', 'life')).toBe('answer to life');
    await conn.stop();
  });

  it('streams from server to client, and cancels a stream', async () => {
    const conn = build(v);
    await conn.start();
    const items: number[] = [];
    await new Promise<void>((resolve, reject) => {
      conn
        .stream<number>('Counter', 5, 5)
        .subscribe({ next: (i) => items.push(i), complete: resolve, error: reject });
    });
    expect(items).toEqual([0, 1, 2, 3, 4]);

    const before = cancelled.count;
    const got: number[] = [];
    const sub = conn
      .stream<number>('Endless')
      .subscribe({ next: (i) => got.push(i), complete: () => {}, error: () => {} });
    while (got.length < 3) await sleep(20);
    sub.dispose();
    await sleep(200);
    expect(cancelled.count).toBe(before + 1);
    const settled = got.length;
    await sleep(150);
    expect(got.length).toBe(settled); // nothing after the cancel
    await expect(conn.invoke('Add', 1, 1)).resolves.toBe(2); // the connection lives on
    await conn.stop();
  });

  it('uploads a client stream to the server', async () => {
    const conn = build(v);
    await conn.start();
    const subject = new Subject<number>();
    const result = conn.invoke('Sum', subject);
    for (const n of [1, 2, 3, 4]) {
      subject.next(n);
      await sleep(5);
    }
    subject.complete();
    expect(await result).toBe(10);
    await conn.stop();
  });

  it('is closed by the server without reconnecting when allowReconnect is not set', async () => {
    const conn = build(v, 'carol', true);
    await conn.start();
    let reconnecting = false;
    conn.onreconnecting(() => {
      reconnecting = true;
    });
    const closed = new Promise<Error | undefined>((resolve) => conn.onclose(resolve));
    await conn.invoke('CloseMe', false);
    const error = await closed;
    expect(error?.message).toContain('Closed by the server for the test.');
    expect(reconnecting).toBe(false);
    expect(conn.state).toBe(HubConnectionState.Disconnected);
  });

  it('reconnects after a server close with allowReconnect: new connection id, groups rejoined', async () => {
    const conn = build(v, 'dave', true);
    conn.onreconnected(async () => {
      await conn.invoke('Join', 'room-r');
    });
    await conn.start();
    await conn.invoke('Join', 'room-r');
    const firstWelcome = next<[string]>(conn, 'Welcome');
    const reconnected = new Promise<string | undefined>((resolve) => conn.onreconnected(resolve));
    await conn.invoke('CloseMe', true);
    const newId = await reconnected;
    const [secondServerId] = await firstWelcome;
    expect(conn.state).toBe(HubConnectionState.Connected);
    if (!v.skipNegotiation) expect(newId).toBe(secondServerId);
    expect(server.hub.lifetime.connection(secondServerId)).toBeDefined();
    await sleep(50);
    const msg = next<[string, string]>(conn, 'GroupMessage');
    await conn.invoke('SendToGroup', 'room-r', 'after reconnect');
    expect(await msg).toEqual(['room-r', 'after reconnect']);
    await conn.stop();
  });

  it('stays connected while idle, kept alive by pings, well past the timeouts', async () => {
    const conn = build(v);
    let closedWith: unknown = 'open';
    conn.onclose((e) => {
      closedWith = e;
    });
    await conn.start();
    const id = conn.connectionId;
    await sleep(4500); // three times the 1.5 s server and client timeouts
    expect(closedWith).toBe('open');
    expect(conn.state).toBe(HubConnectionState.Connected);
    expect(conn.connectionId).toBe(id);
    expect(await conn.invoke('Add', 20, 25)).toBe(45);
    await conn.stop();
  }, 15_000);
});

describe('authentication', () => {
  it('rejects a negotiate without a valid token with 401', async () => {
    const none = await fetch(`${server.url}/negotiate?negotiateVersion=1`, { method: 'POST' });
    expect(none.status).toBe(401);
    const bad = await fetch(`${server.url}/negotiate?negotiateVersion=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer bad-token' },
    });
    expect(bad.status).toBe(401);
    const conn = new HubConnectionBuilder()
      .withUrl(server.url, { accessTokenFactory: () => 'bad-token' })
      .configureLogging(LogLevel.None)
      .build();
    await expect(conn.start()).rejects.toThrow(/401/);
  });

  it('rejects a WebSocket with skipNegotiation and a bad token', async () => {
    const conn = new HubConnectionBuilder()
      .withUrl(server.url, {
        transport: HttpTransportType.WebSockets,
        skipNegotiation: true,
        accessTokenFactory: () => 'nope',
      })
      .configureLogging(LogLevel.None)
      .build();
    await expect(conn.start()).rejects.toThrow();
  });
});
