import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisBackplane } from './redis-backplane.ts';
import { startTestHubServer } from './test-hub.ts';

/**
 * Two hub servers joined by a real Redis server: messages to all, to a group and to a user reach
 * connections on the other node. Uses REDIS_URL when set, else starts `redis-server` on a free port.
 */
type Server = Awaited<ReturnType<typeof startTestHubServer>>;
/** CI installs redis-server; a developer machine without it (and without REDIS_URL) skips, visibly. */
const haveRedis = Boolean(process.env.REDIS_URL) || spawnSync('redis-server', ['--version']).status === 0;
let redis: ChildProcess | undefined;
let redisUrl: string;
let nodes: Server[] = [];

async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

beforeAll(async () => {
  if (!haveRedis) return;
  if (process.env.REDIS_URL) {
    redisUrl = process.env.REDIS_URL;
  } else {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    redisUrl = `redis://127.0.0.1:${port}`;
    for (let i = 0; i < 50; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      });
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const channel = `fvg-test-${process.pid}-${Date.now()}`;
  nodes = await Promise.all(
    [1, 2].map(() =>
      startTestHubServer(
        {},
        createRedisBackplane(redisUrl, channel, () => {}),
      ),
    ),
  );
});

afterAll(async () => {
  for (const n of nodes) await n.app.close();
  redis?.kill();
});

function connect(node: Server, user: string, transport: HttpTransportType): Promise<HubConnection> {
  const conn = new HubConnectionBuilder()
    .withUrl(node.url, { transport, accessTokenFactory: () => `good-${user}` })
    .configureLogging(LogLevel.None)
    .build();
  return conn.start().then(() => conn);
}

function next<T extends unknown[]>(conn: HubConnection, event: string): Promise<T> {
  return new Promise((resolve) => conn.on(event, (...args: unknown[]) => resolve(args as T)));
}

describe.skipIf(!haveRedis)('Redis backplane across two nodes (needs redis-server or REDIS_URL)', () => {
  it('delivers to all, to a group and to a user held by the other node', async () => {
    const [n1, n2] = nodes as [Server, Server];
    const sender = await connect(n1, 'sender', HttpTransportType.WebSockets);
    const receiver = await connect(n2, 'receiver', HttpTransportType.ServerSentEvents);
    await receiver.invoke('Join', 'dossier:42');

    const all = next<[string]>(receiver, 'Broadcast');
    await sender.invoke('Broadcast', 'hello all');
    expect(await all).toEqual(['hello all']);

    const group = next<[string, string]>(receiver, 'GroupMessage');
    await sender.invoke('SendToGroup', 'dossier:42', 'hello group');
    expect(await group).toEqual(['dossier:42', 'hello group']);

    const user = next<[string]>(receiver, 'UserMessage');
    await sender.invoke('SendToUser', 'receiver', 'hello user');
    expect(await user).toEqual(['hello user']);

    // A group the receiver did not join gets it nothing.
    let stray = false;
    receiver.on('GroupMessage', (g: string) => {
      if (g === 'dossier:43') stray = true;
    });
    await sender.invoke('SendToGroup', 'dossier:43', 'not for you');
    await new Promise((r) => setTimeout(r, 200));
    expect(stray).toBe(false);

    await sender.stop();
    await receiver.stop();
  });
});
