import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
} from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../db/seed.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { createTestDatabase, DEMO_PASSWORDS, type TestDatabase } from '../test/helpers.ts';

/**
 * Two API processes on different ports, one PostgreSQL, one Redis: a message sent through node 1
 * reaches a client connected to node 2, and so do record changes and presence.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const haveRedis = Boolean(process.env.REDIS_URL) || spawnSync('redis-server', ['--version']).status === 0;
let db: TestDatabase;
let redis: ChildProcess | undefined;
const nodes: { child: ChildProcess; origin: string; log: string[] }[] = [];
const open: HubConnection[] = [];

async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms`);
}

beforeAll(async () => {
  if (!haveRedis) return;
  db = await createTestDatabase();
  await seedDemo(db.db);
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    redisUrl = `redis://127.0.0.1:${port}`;
  }
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const log: string[] = [];
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/api/src/server.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: db.url,
        REDIS_URL: redisUrl,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        WEB_DIST: '/nonexistent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
    nodes.push({ child, origin: `http://127.0.0.1:${port}`, log });
  }
  for (const n of nodes) {
    await waitFor(async () => (await fetch(`${n.origin}/api/health`)).ok, `API node ${n.origin}`).catch(
      (e: Error) => {
        throw new Error(`${e.message}\n${n.log.join('')}`);
      },
    );
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(open.map((c) => c.stop().catch(() => {})));
  for (const n of nodes) {
    n.child.kill('SIGTERM');
    await once(n.child, 'exit').catch(() => {});
  }
  redis?.kill();
  await db?.drop();
});

async function signIn(origin: string, [email, password]: readonly [string, string]): Promise<string> {
  const res = await fetch(`${origin}/api/auth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await res.json()) as { Token: string }).Token;
}

async function connect(origin: string, token: string, transport: HttpTransportType): Promise<HubConnection> {
  const conn = new HubConnectionBuilder()
    .withUrl(`${origin}/api/chat`, { transport, accessTokenFactory: () => token })
    .configureLogging(LogLevel.None)
    .build();
  await conn.start();
  open.push(conn);
  return conn;
}

function next<T>(conn: HubConnection, event: string, match: (v: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event}`)), 10_000);
    conn.on(event, (v: T) => {
      if (!match(v)) return;
      clearTimeout(timer);
      resolve(v);
    });
  });
}

describe.skipIf(!haveRedis)('several API nodes behind one Redis (needs redis-server or REDIS_URL)', () => {
  it('delivers chat, presence and record changes from node 1 to a client on node 2', async () => {
    const [n1, n2] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const staffToken = await signIn(n1.origin, DEMO_PASSWORDS.staff);
    const customerToken = await signIn(n2.origin, DEMO_PASSWORDS.acme); // tokens work on every node
    const acmeId = (
      await db.db.selectFrom('parties').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow()
    ).id;
    const created = await fetch(`${n1.origin}/api/dossiers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}` },
      body: JSON.stringify({ type: 'export', mode: 'road', customerId: acmeId }),
    });
    const dossier = (await created.json()) as { id: string; version: number };

    const customer = await connect(n2.origin, customerToken, HttpTransportType.ServerSentEvents);
    await customer.invoke('JoinDossier', dossier.id);
    const staff = await connect(n1.origin, staffToken, HttpTransportType.WebSockets);
    const presence = next<{ users: { name: string }[] }>(customer, 'Presence', (p) => p.users.length === 2);
    await staff.invoke('JoinDossier', dossier.id);
    expect((await presence).users.map((u) => u.name)).toEqual(['Carla Customer', 'Sam Staff']);

    const message = next<{ text: string }>(customer, 'ReceiveMessage');
    await staff.invoke('SendMessage', dossier.id, 'Sent through node 1');
    expect((await message).text).toBe('Sent through node 1');

    const change = next<{ id: string }>(customer, 'RecordChanged', (c) => c.id === dossier.id);
    const patched = await fetch(`${n1.origin}/api/dossiers/${dossier.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${staffToken}` },
      body: JSON.stringify({ version: dossier.version, cmrNumber: 'CMR-1' }),
    });
    expect(patched.status).toBe(200);
    expect(await change).toEqual({ kind: 'dossier', id: dossier.id, action: 'updated' });
  }, 60_000);

  it.each([
    ['WebSockets', HttpTransportType.WebSockets],
    ['ServerSentEvents', HttpTransportType.ServerSentEvents],
    ['LongPolling', HttpTransportType.LongPolling],
  ] as const)(
    'deactivation through node 1 closes a %s connection held by node 2',
    async (name, transport) => {
      const [n1, n2] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
      const email = `scale-out-${name.toLowerCase()}@acme.example`;
      const password = 'Plover-quartz-harbour-71';
      const { id } = await db.db
        .insertInto('users')
        .values({
          email,
          name: `Scale-out ${name}`,
          role: 'staff',
          party_id: null,
          cw_access: false,
          password_hash: await hashPassword(password),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const conn = await connect(n2.origin, await signIn(n2.origin, [email, password]), transport);
      let reconnecting = false;
      conn.onreconnecting(() => {
        reconnecting = true;
      });
      const closed = new Promise<Error | undefined>((resolve) => conn.onclose(resolve));
      const adminToken = await signIn(n1.origin, DEMO_PASSWORDS.admin);
      const res = await fetch(`${n1.origin}/api/users/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
        body: JSON.stringify({ active: false }),
      });
      expect(res.status).toBe(200);
      const error = await Promise.race([
        closed,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('not closed within 10 s')), 10_000),
        ),
      ]);
      expect(error?.message).toContain('Your session has ended. Sign in again.');
      expect(conn.state).toBe(HubConnectionState.Disconnected);
      expect(reconnecting).toBe(false);
    },
    30_000,
  );

  it('a dossier given to another customer through node 1 leaves the old party’s customer on node 2 out of its room', async () => {
    const [n1, n2] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const staffToken = await signIn(n1.origin, DEMO_PASSWORDS.staff);
    const partyId = async (code: string) =>
      (await db.db.selectFrom('parties').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
    const staffHeaders = { 'content-type': 'application/json', authorization: `Bearer ${staffToken}` };
    const created = await fetch(`${n1.origin}/api/dossiers`, {
      method: 'POST',
      headers: staffHeaders,
      body: JSON.stringify({ type: 'import', mode: 'air', customerId: await partyId('ACME') }),
    });
    const dossier = (await created.json()) as { id: string; version: number };
    const otherDossier = (await (
      await fetch(`${n1.origin}/api/dossiers`, {
        method: 'POST',
        headers: staffHeaders,
        body: JSON.stringify({ type: 'import', mode: 'air', customerId: await partyId('ACME') }),
      })
    ).json()) as { id: string };

    const old = await connect(
      n2.origin,
      await signIn(n2.origin, DEMO_PASSWORDS.acme),
      HttpTransportType.LongPolling,
    );
    await old.invoke('JoinDossier', dossier.id);
    const heardByOld: string[] = [];
    old.on('ReceiveMessage', (m: { text: string }) => heardByOld.push(m.text));
    const staff = await connect(n1.origin, staffToken, HttpTransportType.WebSockets);
    await staff.invoke('JoinDossier', dossier.id);

    // Node 2 announces the room without the old customer once it has taken it out.
    const left = next<{ dossierId: string; users: { name: string }[] }>(
      staff,
      'Presence',
      (p) => p.dossierId === dossier.id && p.users.every((u) => u.name !== 'Carla Customer'),
    );
    const patched = await fetch(`${n1.origin}/api/dossiers/${dossier.id}`, {
      method: 'PATCH',
      headers: staffHeaders,
      body: JSON.stringify({ version: dossier.version, customerId: await partyId('GLOBEX') }),
    });
    expect(patched.status).toBe(200);
    await left;

    const fresh = await connect(
      n2.origin,
      await signIn(n2.origin, DEMO_PASSWORDS.globex),
      HttpTransportType.WebSockets,
    );
    await fresh.invoke('JoinDossier', dossier.id);
    const heard = next<{ text: string }>(fresh, 'ReceiveMessage', (m) => m.text === 'after the change');
    await staff.invoke('SendMessage', dossier.id, 'after the change');
    await heard;
    // Node 2 delivered it; a reply on the old customer's own connection comes after anything sent before.
    await old.invoke('JoinDossier', otherDossier.id);
    expect(heardByOld).toEqual([]);
    expect(old.state).toBe(HubConnectionState.Connected);
    await expect(old.invoke('JoinDossier', dossier.id)).rejects.toThrow('This dossier does not exist.');
  }, 60_000);
  it('a sign-out and an administrator’s end of all sessions on node 1 close the connections on node 2 at once', async () => {
    const [n1, n2] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const email = `leaver-${Date.now()}@fvg.test`;
    const password = 'Orchard-Signal-Basalt-82';
    const { id } = await db.db
      .insertInto('users')
      .values({ email, name: 'Sam Sessions', role: 'staff', password_hash: await hashPassword(password) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const first = await signIn(n1.origin, [email, password]);
    const second = await signIn(n1.origin, [email, password]);
    const closedOf = (conn: HubConnection) =>
      new Promise<Error | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(new Error('still open after 8 s')), 8_000);
        conn.onclose((e) => {
          clearTimeout(timer);
          resolve(e);
        });
      });
    const a = await connect(n2.origin, first, HttpTransportType.WebSockets);
    const b = await connect(n2.origin, second, HttpTransportType.LongPolling);
    const aClosed = closedOf(a);
    const me = (origin: string, token: string) =>
      fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

    const out = await fetch(`${n1.origin}/api/auth/sign-out`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first}` },
    });
    expect(out.status).toBe(204);
    // Well within the nodes' periodic re-check (30 s): the close crossed the backplane.
    expect((await aClosed)?.message).toContain('Your session has ended.');
    expect(await me(n2.origin, first)).toBe(401);
    expect(await me(n2.origin, second)).toBe(200);
    expect(b.state).toBe(HubConnectionState.Connected);

    const bClosed = closedOf(b);
    const admin = await signIn(n1.origin, DEMO_PASSWORDS.admin);
    const ended = await fetch(`${n1.origin}/api/users/${id}/end-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(ended.status).toBe(204);
    expect((await bClosed)?.message).toContain('Your session has ended.');
    expect(await me(n2.origin, second)).toBe(401);
  }, 60_000);
});
