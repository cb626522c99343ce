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
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../features/auth/passwords.ts';
import { MAIL_MAX_ATTEMPTS } from '../features/mail/mailer.ts';
import { enqueue } from '../jobs/jobs.ts';
import { seedDemo } from '../seed/sign-ins.ts';
import {
  createTestDatabase,
  DEMO_PASSWORDS,
  startSmtpCatcher,
  type TestDatabase,
  waitUntil,
} from '../test/helpers.ts';

/**
 * Two API processes (`server.ts`, as an operator starts them) on two ports, one PostgreSQL database of
 * their own, one Redis and one SMTP receiver, behind nothing else: a token from one node works on the
 * other, hub messages and record changes cross, the job queue runs each job once across both, and a
 * node killed with SIGKILL under write load loses nothing it acknowledged while the other carries on.
 * The database is a fresh one on the test server (the external one when TEST_DATABASE_URL is set, as
 * in CI), dropped afterwards; Redis is REDIS_URL or a `redis-server` of this file on a free port.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const haveRedis = Boolean(process.env.REDIS_URL) || spawnSync('redis-server', ['--version']).status === 0;
let db: TestDatabase;
let redis: ChildProcess | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>> | undefined;
interface Node {
  name: string;
  child: ChildProcess;
  origin: string;
  log: string[];
  /** Settles when the process has ended (kept from the start, so a node already gone is not waited for). */
  exited: Promise<unknown>;
}
const nodes: Node[] = [];
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

/** One app node as an operator runs it: `server.ts` with its own port and the shared database, Redis and SMTP. */
async function startNode(name: string, redisUrl: string, smtpUrl: string): Promise<Node> {
  const port = await freePort();
  const log: string[] = [];
  // `node --import tsx`, not the tsx command: that one runs the server in a child process of its own,
  // which a SIGKILL of the command would not reach.
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      // The EHLO name tells the SMTP receiver which node sent a mail.
      SMTP_URL: `${smtpUrl}/?name=${name}`,
      JOBS_ENABLED: 'true',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').catch(() => undefined);
  child.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  return { name, child, origin: `http://127.0.0.1:${port}`, log, exited };
}

beforeAll(async () => {
  if (!haveRedis) return;
  db = await createTestDatabase();
  await seedDemo(db.db);
  smtp = await startSmtpCatcher();
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    redisUrl = `redis://127.0.0.1:${port}`;
  }
  for (const name of ['node-1', 'node-2']) nodes.push(await startNode(name, redisUrl, smtp.url));
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
    if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGTERM');
    const hard = setTimeout(() => n.child.kill('SIGKILL'), 15_000);
    await n.exited;
    clearTimeout(hard);
  }
  redis?.kill();
  await smtp?.close();
  await db?.drop();
}, 60_000);

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

  it('honours a token signed on node 1 on node 2, over HTTP and on the hub', async () => {
    const [n1, n2] = nodes as [Node, Node];
    const token = await signIn(n1.origin, DEMO_PASSWORDS.staff);
    const me = await fetch(`${n2.origin}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { Email: string }).Email).toBe(DEMO_PASSWORDS.staff[0]);
    const conn = await connect(n2.origin, token, HttpTransportType.WebSockets);
    expect(conn.state).toBe(HubConnectionState.Connected);
  });

  it('runs each job of a batch exactly once, spread over both nodes', async () => {
    const catcher = smtp as NonNullable<typeof smtp>;
    const addresses = Array.from({ length: 40 }, (_, i) => `batch-${i}@jobs.example`);
    // One commit queues the whole batch, so both nodes' workers are woken for it at once.
    await db.db.transaction().execute(async (trx) => {
      for (const to of addresses) {
        const { id } = await trx
          .insertInto('mail_outbox')
          .values({ to_address: to, subject: 'One of a batch', text_body: 'Sent once.', attachments: '[]' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await enqueue(trx, 'mail.send', { outboxId: id }, { maxAttempts: MAIL_MAX_ATTEMPTS });
      }
    });
    const waiting = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs
          where task_identifier = 'mail.send'`.execute(db.db)
      ).rows[0]?.n;
    await waitUntil('the batch to be sent', async () => (await waiting()) === 0, 30_000);
    const unsent = await db.db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('to_address', 'like', 'batch-%')
      .where('sent_at', 'is', null)
      .execute();
    expect(unsent).toEqual([]);
    for (const to of addresses) expect(catcher.to(to), to).toHaveLength(1);
    const senders = new Set(addresses.map((to) => catcher.to(to)[0]?.helo));
    expect([...senders].sort()).toEqual(['node-1', 'node-2']);
  }, 60_000);

  // Last: it kills node 2.
  it('loses nothing node 2 acknowledged when it is killed mid-request, and node 1 carries on', async () => {
    const [n1, n2] = nodes as [Node, Node];
    const token = await signIn(n1.origin, DEMO_PASSWORDS.staff);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const acmeId = (
      await db.db.selectFrom('parties').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow()
    ).id;
    const watcher = await connect(n1.origin, token, HttpTransportType.WebSockets);

    // Eight writers create dossiers on node 2 without pause; each carries its own reference.
    const acknowledged = new Map<string, { id: string; number: string } | undefined>();
    let inFlight = 0;
    let refused = 0;
    let stop = false;
    let failure: unknown;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const ref = `KILL-${w}-${i}`;
        inFlight++;
        try {
          const res = await fetch(`${n2.origin}/api/dossiers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              type: 'export',
              mode: 'road',
              customerId: acmeId,
              customerReference: ref,
            }),
            signal: AbortSignal.timeout(15_000),
          });
          if (res.status !== 201) throw new Error(`${res.status} ${await res.text()}`);
          acknowledged.set(ref, undefined); // the status line is the acknowledgement
          acknowledged.set(ref, (await res.json()) as { id: string; number: string });
        } catch (e) {
          if (stop) refused++;
          else {
            failure ??= e; // a refusal while node 2 is up is a failure of the test, not a cut request
            stop = true;
          }
        } finally {
          inFlight--;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    const deadline = Date.now() + 30_000;
    while (!(acknowledged.size >= 30 && inFlight > 0) && !failure) {
      if (Date.now() > deadline) throw new Error('not thirty acknowledged writes within 30 s');
      await new Promise((r) => setTimeout(r, 5));
    }
    if (failure) throw failure;
    stop = true;
    const inFlightAtKill = inFlight;
    n2.child.kill('SIGKILL');
    await Promise.all(writers);
    await n2.exited;
    expect(n2.child.signalCode).toBe('SIGKILL');
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0); // requests were cut, not finished

    // Every acknowledged create is there, whole, when read through node 1; whatever was cut is all or nothing.
    const stored = await db.db
      .selectFrom('dossiers')
      .select(['id', 'customer_reference'])
      .where('customer_reference', 'like', 'KILL-%')
      .execute();
    const byRef = new Map(stored.map((r) => [r.customer_reference, r.id]));
    for (const [ref, body] of acknowledged) {
      expect(byRef.get(ref), ref).toBeDefined();
      if (body) expect(byRef.get(ref)).toBe(body.id);
    }
    expect(stored.length - acknowledged.size).toBeLessThanOrEqual(inFlightAtKill);
    for (const { id, customer_reference } of stored) {
      const res = await fetch(`${n1.origin}/api/dossiers/${id}`, { headers });
      expect(res.status).toBe(200);
      const read = (await res.json()) as { customerReference: string; number: string };
      expect(read.customerReference).toBe(customer_reference);
      const body = acknowledged.get(customer_reference ?? '');
      if (body) expect(read.number).toBe(body.number);
    }

    // Node 1 keeps serving: it takes writes, and its hub still reports them.
    expect((await fetch(`${n1.origin}/api/health`)).status).toBe(200);
    const created = await fetch(`${n1.origin}/api/dossiers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        type: 'import',
        mode: 'sea',
        customerId: acmeId,
        customerReference: 'AFTER-KILL',
      }),
    });
    expect(created.status).toBe(201);
    const after = (await created.json()) as { id: string; version: number };
    const heard = next<{ id: string; action: string }>(
      watcher,
      'RecordChanged',
      (c) => c.id === after.id && c.action === 'updated',
    );
    const patched = await fetch(`${n1.origin}/api/dossiers/${after.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ version: after.version, cmrNumber: 'CMR-AFTER' }),
    });
    expect(patched.status).toBe(200);
    expect(await heard).toEqual({ kind: 'dossier', id: after.id, action: 'updated' });
  }, 90_000);
});
