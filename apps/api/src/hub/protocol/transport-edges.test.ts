import { HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RS } from './records.ts';
import { startTestHubServer } from './test-hub.ts';

/** Transport rules the official client never breaks, checked with raw HTTP and WebSocket requests. */
type Server = Awaited<ReturnType<typeof startTestHubServer>>;
let server: Server;
const auth = { authorization: 'Bearer good-eve' };

beforeAll(async () => {
  server = await startTestHubServer({
    keepAliveIntervalMs: 200,
    clientTimeoutMs: 600,
    handshakeTimeoutMs: 500,
    negotiateTimeoutMs: 500,
    longPollTimeoutMs: 400,
    longPollDisconnectTimeoutMs: 500,
    maxMessageSize: 1024,
  });
});
afterAll(() => server.app.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function negotiate(): Promise<{
  connectionId: string;
  connectionToken: string;
  availableTransports: { transport: string }[];
}> {
  const res = await fetch(`${server.url}/negotiate?negotiateVersion=1`, { method: 'POST', headers: auth });
  expect(res.status).toBe(200);
  return res.json() as never;
}

function openWs(query: string): Promise<{ ws: WebSocket; messages: string[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}?${query}`, { headers: auth });
    const messages: string[] = [];
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('message', (d) => messages.push(d.toString()));
    ws.on('open', () => resolve({ ws, messages, closed }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

describe('negotiate', () => {
  it('answers version 1 with a public id, a separate URL-safe token and the transports in order', async () => {
    const n = await negotiate();
    expect(n).toMatchObject({ negotiateVersion: 1 });
    expect(n.connectionToken).not.toBe(n.connectionId);
    expect(n.connectionToken).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(n.availableTransports.map((t) => t.transport)).toEqual([
      'WebSockets',
      'ServerSentEvents',
      'LongPolling',
    ]);
    expect(n).not.toHaveProperty('useStatefulReconnect');
  });

  it('answers version 0 without a connection token when the client asks for no version', async () => {
    const res = await fetch(`${server.url}/negotiate`, { method: 'POST', headers: auth });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.negotiateVersion).toBe(0);
    expect(body).not.toHaveProperty('connectionToken');
  });
});

describe('connection ids', () => {
  it('answers 400 without an id, 404 for an unknown id, on GET, POST and DELETE', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      expect((await fetch(server.url, { method, headers: auth })).status, method).toBe(400);
      expect((await fetch(`${server.url}?id=unknown`, { method, headers: auth })).status, method).toBe(404);
    }
  });

  it('answers 401 for a request with an id but without a token', async () => {
    const { connectionToken } = await negotiate();
    expect((await fetch(`${server.url}?id=${connectionToken}`)).status).toBe(401);
  });

  it('answers 409 to a second event stream and 400 to a change of transport', async () => {
    const { connectionToken } = await negotiate();
    const abort = new AbortController();
    const first = await fetch(`${server.url}?id=${connectionToken}`, {
      headers: { ...auth, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const second = await fetch(`${server.url}?id=${connectionToken}`, {
      headers: { ...auth, accept: 'text/event-stream' },
    });
    expect(second.status).toBe(409);
    const poll = await fetch(`${server.url}?id=${connectionToken}`, { headers: auth });
    expect(poll.status).toBe(400);
    await expect(openWs(`id=${connectionToken}`)).rejects.toThrow('HTTP 400');
    abort.abort();
  });

  it('forgets a negotiated connection that is never used', async () => {
    const { connectionToken } = await negotiate();
    await sleep(1300);
    expect((await fetch(`${server.url}?id=${connectionToken}`, { headers: auth })).status).toBe(404);
  });
});

describe('long polling', () => {
  it('answers the first poll at once, holds later ones until the poll timeout, and 204 after DELETE', async () => {
    const { connectionToken } = await negotiate();
    const url = `${server.url}?id=${connectionToken}`;
    const first = await fetch(url, { headers: auth });
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('');
    const send = await fetch(url, {
      method: 'POST',
      headers: auth,
      body: `{"protocol":"json","version":1}${RS}`,
    });
    expect(send.status).toBe(200);
    const handshake = await fetch(url, { headers: auth });
    const records = (await handshake.text()).split(RS);
    expect(records[0]).toBe('{}'); // then the test hub's Welcome event, in the same poll
    expect(JSON.parse(records[1] as string)).toMatchObject({ type: 1, target: 'Welcome' });

    const started = Date.now();
    const held = await fetch(url, { headers: auth });
    expect(held.status).toBe(200);
    expect(await held.text()).toBe(''); // no pings on long polling
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);

    const pending = fetch(url, { headers: auth });
    await sleep(50);
    expect((await fetch(url, { method: 'DELETE', headers: auth })).status).toBe(202);
    expect((await pending).status).toBe(204);
    expect((await fetch(url, { headers: auth })).status).toBe(204);
  });

  it('hands a closed connection’s Close to the next poll even when the token no longer authenticates', async () => {
    // The session ended between two polls (deactivation, expiry): without its Close the client would
    // only see a 401 and reconnect.
    const { connectionToken } = await negotiate();
    const url = `${server.url}?id=${connectionToken}`;
    await fetch(url, { headers: auth });
    await fetch(url, { method: 'POST', headers: auth, body: `{"protocol":"json","version":1}${RS}` });
    await (await fetch(url, { headers: auth })).text();
    await fetch(url, {
      method: 'POST',
      headers: auth,
      body: `${JSON.stringify({ type: 1, target: 'CloseMe', arguments: [false] })}${RS}`,
    });
    await sleep(100); // the hub closes 10 ms after the call, with no poll pending
    const last = await fetch(url); // no token
    expect(last.status).toBe(200);
    expect(JSON.parse((await last.text()).split(RS)[0] as string)).toEqual({
      type: 7,
      error: 'Closed by the server for the test.',
    });
    expect((await fetch(url, { method: 'POST', body: `{"type":6}${RS}` })).status).toBe(401);
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(202);
  });

  it('ends a pending poll with 204 when a newer poll replaces it', async () => {
    const { connectionToken } = await negotiate();
    const url = `${server.url}?id=${connectionToken}`;
    await fetch(url, { headers: auth });
    await fetch(url, { method: 'POST', headers: auth, body: `{"protocol":"json","version":1}${RS}` });
    await (await fetch(url, { headers: auth })).text();
    const older = fetch(url, { headers: auth });
    await sleep(50);
    const newer = fetch(url, { headers: auth });
    expect((await older).status).toBe(204);
    expect((await newer).status).toBe(200);
  });

  it('disposes a connection whose client stopped polling', async () => {
    const { connectionToken } = await negotiate();
    const url = `${server.url}?id=${connectionToken}`;
    await fetch(url, { headers: auth });
    await fetch(url, { method: 'POST', headers: auth, body: `{"protocol":"json","version":1}${RS}` });
    await sleep(1500 + 5000); // the disconnect timeout, then the grace for late polls
    expect((await fetch(url, { method: 'POST', headers: auth, body: `{"type":6}${RS}` })).status).toBe(404);
  }, 15_000);
});

describe('WebSockets', () => {
  it('answers a bad handshake with an error record and closes', async () => {
    const { ws, messages, closed } = await openWs('');
    ws.send(`{"protocol":"messagepack","version":1}${RS}`);
    await closed;
    expect(messages.join('')).toBe(`{"error":"The protocol 'messagepack' is not supported."}${RS}`);
  });

  it('closes a connection that sends no handshake in time', async () => {
    const { closed } = await openWs('');
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('pings an idle client and drops one that went silent after pinging', async () => {
    const { ws, messages, closed } = await openWs('');
    ws.send(`{"protocol":"json","version":1}${RS}`);
    ws.send(`{"type":6}${RS}`);
    const code = await closed;
    const records = messages.join('').split(RS).filter(Boolean);
    expect(records[0]).toBe('{}');
    expect(records).toContain('{"type":6}');
    expect(records.at(-1)).toBe(
      '{"type":7,"error":"Server timeout elapsed without receiving a message from the client.","allowReconnect":true}',
    );
    expect(code).toBe(1000);
  });

  it('closes with a clear error when a message exceeds the maximum size', async () => {
    const conn = new HubConnectionBuilder()
      .withUrl(server.url, { accessTokenFactory: () => 'good-eve' })
      .configureLogging(LogLevel.None)
      .build();
    const closed = new Promise<Error | undefined>((resolve) => conn.onclose(resolve));
    await conn.start();
    conn.invoke('Echo', 'x'.repeat(2000)).catch(() => {});
    const error = await closed;
    expect(error?.message).toMatch(/exceeds the maximum message size of 1024 bytes/);
  });

  it('closes on a malformed record with a protocol error', async () => {
    const { ws, messages, closed } = await openWs('');
    ws.send(`{"protocol":"json","version":1}${RS}`);
    ws.send(`{"type":1,"arguments":[]}${RS}`);
    await closed;
    expect(messages.join('')).toContain("Missing required property 'target'.");
  });
});
