import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
} from '@microsoft/signalr';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { authRepository } from '../features/auth/auth.repository.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { createTokenSigner, newOpaqueToken } from '../features/auth/tokens.ts';
import { seedDemo } from '../seed/sign-ins.ts';
import { bearer, createTestDatabase, demoTokens, type TestDatabase, testConfig } from '../test/helpers.ts';

/**
 * Sessions on the hub end with the user's standing: deactivation, a password reset, a changed role and
 * token expiry close the open connections on every transport, through the official client; a call that
 * slips in before the close is refused by the per-call re-check. Bad arguments are answered, not logged.
 */
const JWT_SECRET = 'hub-sessions-test-secret-hub-sessions-test-secret';
const PASSWORD = 'Plover-quartz-harbour-71';
const TRANSPORTS = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['ServerSentEvents', HttpTransportType.ServerSentEvents],
  ['LongPolling', HttpTransportType.LongPolling],
] as const;

let db: TestDatabase;
let app: App;
let url: string;
let admin: { authorization: string };
let staffAuth: { authorization: string };
let parties: Record<string, string>;
let acmeDossier: { id: string; number: string };
let globexDossier: { id: string; number: string };
/** Every log line of the app, parsed. */
const logs: { level: number; msg?: string; err?: { stack?: string } }[] = [];
const open: HubConnection[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  app = await buildApp({
    config: testConfig({ jwtSecret: JWT_SECRET }),
    db: db.db,
    logger: { level: 'debug', stream },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/chat`;
  const tokens = await demoTokens(app);
  admin = tokens.admin;
  staffAuth = tokens.staff;
  parties = Object.fromEntries(
    (await db.db.selectFrom('parties').select(['id', 'code']).execute()).map((p) => [p.code, p.id]),
  );
  const create = async (code: string) =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/dossiers',
        headers: tokens.staff,
        payload: { type: 'import', mode: 'sea', customerId: parties[code] },
      })
    ).json() as { id: string; number: string };
  acmeDossier = await create('ACME');
  globexDossier = await create('GLOBEX');
});

afterAll(async () => {
  await Promise.all(open.map((c) => c.stop().catch(() => {})));
  // The clients' HTTP pools may leave a socket connected with no request on it yet, which only the
  // server's headers timeout (a minute) would end: the test drops every socket at once.
  const closed = app.close();
  app.server.closeAllConnections();
  await closed;
  await db.drop();
});

let userCount = 0;
/** A fresh user of its own, so that deactivating it touches no other test. */
async function newUser(role: 'customer' | 'staff' = 'customer', party = 'ACME') {
  const email = `session-${++userCount}@${party.toLowerCase()}.example`;
  const { id } = await db.db
    .insertInto('users')
    .values({
      email,
      name: `Session User ${userCount}`,
      role,
      party_id: role === 'customer' ? (parties[party] as string) : null,
      cw_access: false,
      password_hash: await hashPassword(PASSWORD),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const auth = await bearer(app, email, PASSWORD);
  return { id, email, auth, token: auth.authorization.slice('Bearer '.length) };
}

interface Watched {
  conn: HubConnection;
  /** Settles with the client's close error (or undefined) once the connection is closed for good. */
  closed: Promise<Error | undefined>;
  reconnecting: () => boolean;
  /** Why the client started reconnecting, if it did. */
  reconnectCause: () => Error | undefined;
}

async function connect(token: string, transport: HttpTransportType, at = url): Promise<Watched> {
  const conn = new HubConnectionBuilder()
    .withUrl(at, { transport, accessTokenFactory: () => token })
    // Reconnects are on, as in the web app: an ended session must stop the client anyway.
    .withAutomaticReconnect([0, 100, 200])
    .configureLogging(process.env.HUBDEBUG ? LogLevel.Trace : LogLevel.None)
    .build();
  let reconnecting = false;
  let reconnectCause: Error | undefined;
  conn.onreconnecting((error) => {
    reconnecting = true;
    reconnectCause = error;
  });
  const closed = new Promise<Error | undefined>((resolve) => conn.onclose(resolve));
  await conn.start();
  open.push(conn);
  return { conn, closed, reconnecting: () => reconnecting, reconnectCause: () => reconnectCause };
}

function within<T>(promise: Promise<T>, what: string, ms = 8000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms),
    ),
  ]);
}

/** Connections of the user this node still holds open. */
function serverConnections(userId: string, node: App = app): number {
  let n = 0;
  for (const c of node.services.hub.connections()) if (c.userId === userId && !c.closed) n++;
  return n;
}

async function expectEnded(w: Watched, userId: string, message: string) {
  const error = await within(w.closed, 'the close');
  expect(error?.message).toContain(message);
  expect(w.conn.state).toBe(HubConnectionState.Disconnected);
  expect(w.reconnecting()).toBe(false);
  expect(serverConnections(userId)).toBe(0);
}

const deactivate = (id: string) =>
  app.inject({ method: 'PATCH', url: `/api/users/${id}`, headers: admin, payload: { active: false } });

describe('an ended session closes the open connections', () => {
  it.each(TRANSPORTS)(
    'deactivation closes a %s connection, and the client does not reconnect',
    async (_, transport) => {
      const user = await newUser();
      const w = await connect(user.token, transport);
      await w.conn.invoke('JoinDossier', acmeDossier.id);
      expect(serverConnections(user.id)).toBe(1);
      expect((await deactivate(user.id)).statusCode).toBe(200);
      await expectEnded(w, user.id, 'Your session has ended. Sign in again.');
      // The dossier's presence no longer lists the deactivated user.
      const staff = await connect((await newUser('staff')).token, HttpTransportType.WebSockets);
      const joined = (await staff.conn.invoke('JoinDossier', acmeDossier.id)) as { users: { id: string }[] };
      expect(joined.users.map((u) => u.id)).not.toContain(user.id);
    },
  );

  it('a password reset closes the connection (Server-Sent Events)', async () => {
    const user = await newUser();
    const w = await connect(user.token, HttpTransportType.ServerSentEvents);
    const { token, hash } = newOpaqueToken();
    await authRepository(db.db).insertResetToken(user.id, hash, 30);
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/pwd/reset',
      payload: { token, password: 'Kestrel-meadow-lantern-38' },
    });
    expect(reset.statusCode).toBe(200);
    await expectEnded(w, user.id, 'Your session has ended. Sign in again.');
  });

  it.each([TRANSPORTS[0], TRANSPORTS[2]])(
    'a token that expires closes the %s connection at its expiry',
    async (_, transport) => {
      const user = await newUser();
      // A token of the app’s own secret that lives five seconds.
      const token = await createTokenSigner(JWT_SECRET, 5 / 3600).sign({
        sub: user.id,
        email: user.email,
        role: 'customer',
        party: parties.ACME as string,
        cw_access: false,
      });
      const w = await connect(token, transport);
      await w.conn.invoke('JoinDossier', acmeDossier.id);
      await expectEnded(w, user.id, 'Your session has expired. Sign in again.');
    },
  );

  it('a call that races the deactivation is refused and stores nothing', async () => {
    const user = await newUser();
    const w = await connect(user.token, HttpTransportType.WebSockets);
    await w.conn.invoke('JoinDossier', acmeDossier.id); // after the handshake's own check
    // Deactivated behind the service's back: no revocation reaches the hub, only the per-call re-check.
    await db.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
    await expect(w.conn.invoke('SendMessage', acmeDossier.id, 'sent after deactivation')).rejects.toThrow(
      'Your session has ended. Sign in again.',
    );
    await expectEnded(w, user.id, 'Your session has ended. Sign in again.');
    const stored = await db.db
      .selectFrom('chat_messages')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('text', '=', 'sent after deactivation')
      .executeTakeFirstOrThrow();
    expect(stored.n).toBe(0);
  });

  it('a changed role closes the connection with reconnect allowed; the new connection has the new rights', async () => {
    const user = await newUser('staff');
    const w = await connect(user.token, HttpTransportType.WebSockets);
    await w.conn.invoke('JoinDossier', globexDossier.id);
    const reconnected = new Promise<void>((resolve) => w.conn.onreconnected(() => resolve()));
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: admin,
      payload: { role: 'customer', partyId: parties.ACME },
    });
    expect(res.statusCode).toBe(200);
    await within(reconnected, 'the reconnect');
    expect(w.reconnectCause()?.message).toContain('Your access rights have changed. Connect again.');
    // Now a customer of ACME: GLOBEX's dossier is out of reach, ACME's is not.
    await expect(w.conn.invoke('JoinDossier', globexDossier.id)).rejects.toThrow(
      'This dossier does not exist.',
    );
    await expect(w.conn.invoke('JoinDossier', acmeDossier.id)).resolves.toMatchObject({
      dossierId: acmeDossier.id,
    });
  });

  it('a call after a party change behind the service’s back is refused, not run with the old party', async () => {
    const user = await newUser();
    const w = await connect(user.token, HttpTransportType.LongPolling);
    await w.conn.invoke('JoinDossier', acmeDossier.id); // after the handshake's own check
    await db.db.updateTable('users').set({ party_id: parties.GLOBEX }).where('id', '=', user.id).execute();
    await expect(w.conn.invoke('JoinDossier', acmeDossier.id)).rejects.toThrow(
      'Your access rights have changed.',
    );
  });
});

describe('sign-out and sessions ended by an administrator (ADR 0052)', () => {
  const get = (url: string, auth: { authorization: string }) => app.inject({ url, headers: auth });
  const signOut = (auth: { authorization: string }) =>
    app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: auth });

  it('sign-out ends that token everywhere and closes its connection; the user’s other token and connection stay', async () => {
    const user = await newUser();
    const other = await bearer(app, user.email, PASSWORD);
    const ending = await connect(user.token, HttpTransportType.WebSockets);
    const staying = await connect(other.authorization.slice('Bearer '.length), HttpTransportType.LongPolling);
    await ending.conn.invoke('JoinDossier', acmeDossier.id);
    expect(serverConnections(user.id)).toBe(2);

    expect((await signOut(user.auth)).statusCode).toBe(204);
    const error = await within(ending.closed, 'the close');
    expect(error?.message).toContain('Your session has ended. Sign in again.');
    expect(ending.reconnecting()).toBe(false);
    for (const url of ['/api/me', '/api/dossiers', `/api/dossiers/${acmeDossier.id}`]) {
      const res = await get(url, user.auth);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().detail, url).toBe('You have signed out. Sign in again.');
    }
    expect((await signOut(user.auth)).statusCode).toBe(401);
    // A new connection with the ended token is refused at negotiation.
    await expect(connect(user.token, HttpTransportType.WebSockets)).rejects.toThrow();

    expect((await get('/api/me', other)).statusCode).toBe(200);
    expect(staying.conn.state).toBe(HubConnectionState.Connected);
    await expect(staying.conn.invoke('JoinDossier', acmeDossier.id)).resolves.toMatchObject({
      dossierId: acmeDossier.id,
    });
    expect(serverConnections(user.id)).toBe(1);
    // The hub's batch re-check agrees, token by token.
    const verdicts = await app.services.auth.authenticateMany([
      user.token,
      other.authorization.slice('Bearer '.length),
    ]);
    expect(verdicts[0]).toMatchObject({ status: 401 });
    expect(verdicts[1]).toMatchObject({ id: user.id });
  });

  it('an administrator ends every session of a user: all tokens refused, all connections closed, a new sign-in works', async () => {
    const user = await newUser('staff');
    const second = await bearer(app, user.email, PASSWORD);
    const a = await connect(user.token, HttpTransportType.WebSockets);
    const b = await connect(second.authorization.slice('Bearer '.length), HttpTransportType.ServerSentEvents);
    const bystander = await newUser('staff');

    const end = (id: string, auth: { authorization: string }) =>
      app.inject({ method: 'POST', url: `/api/users/${id}/end-sessions`, headers: auth });
    expect((await end(user.id, staffAuth)).statusCode).toBe(403);
    expect((await end('00000000-0000-4000-8000-000000000000', admin)).statusCode).toBe(404);
    expect(serverConnections(user.id)).toBe(2);

    expect((await end(user.id, admin)).statusCode).toBe(204);
    for (const w of [a, b]) await expectEnded(w, user.id, 'Your session has ended. Sign in again.');
    for (const auth of [user.auth, second]) {
      const res = await get('/api/me', auth);
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toBe('An administrator ended your session. Sign in again.');
    }
    expect((await get('/api/me', bystander.auth)).statusCode).toBe(200);
    const again = await bearer(app, user.email, PASSWORD);
    expect((await get('/api/me', again)).statusCode).toBe(200);
    const history = await db.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('record_id', '=', user.id)
      .where('action', '=', 'sessions-ended')
      .execute();
    expect(history).toHaveLength(1);
  });
});

describe('hub method arguments', () => {
  it('answers malformed arguments with a clear error completion, logs no failure, and the connection stays usable', async () => {
    const user = await newUser();
    const w = await connect(user.token, HttpTransportType.WebSockets);
    const from = logs.length;
    await expect(w.conn.invoke('MarkRead', acmeDossier.id, 'not-a-uuid')).rejects.toThrow(
      'Invalid messageId for MarkRead: A message id is a UUID.',
    );
    await expect(w.conn.invoke('MarkRead', acmeDossier.id, null)).rejects.toThrow(
      'Invalid messageId for MarkRead',
    );
    await expect(w.conn.invoke('JoinDossier', 42)).rejects.toThrow('Invalid dossierId for JoinDossier');
    await expect(w.conn.invoke('JoinDossier', 'D-2026\u0000')).rejects.toThrow(
      'Invalid dossierId for JoinDossier: Not a dossier id or number.',
    );
    await expect(w.conn.invoke('SendMessage', acmeDossier.id)).rejects.toThrow(
      'SendMessage takes 2 arguments (dossierId, text), not 1.',
    );
    await expect(w.conn.invoke('SendMessage', acmeDossier.id, '  ')).rejects.toThrow(
      'A message cannot be empty',
    );
    await expect(w.conn.invoke('SendMessage', acmeDossier.id, 'a\u0000b')).rejects.toThrow(
      'Invalid text for SendMessage: A message cannot contain NUL characters.',
    );

    expect(w.conn.state).toBe(HubConnectionState.Connected);
    const sent = (await w.conn.invoke('SendMessage', acmeDossier.id, 'still here')) as { id: string };
    await expect(w.conn.invoke('MarkRead', acmeDossier.id, sent.id)).resolves.toBeUndefined();
    expect(w.reconnecting()).toBe(false);
    const failures = logs.slice(from).filter((l) => l.level >= 50 || l.err?.stack);
    expect(failures).toEqual([]);
  });
});

describe('the periodic re-check of every open connection', () => {
  /** A second node on the same database that re-checks its connections every 300 ms. */
  let quick: App;
  let quickUrl: string;

  beforeAll(async () => {
    quick = await buildApp({
      config: testConfig({ jwtSecret: JWT_SECRET, hubRecheckMs: 300 }),
      db: db.db,
      logger: false,
    });
    await quick.listen({ port: 0, host: '127.0.0.1' });
    quickUrl = `http://127.0.0.1:${(quick.server.address() as AddressInfo).port}/api/chat`;
  });

  afterAll(async () => {
    const closed = quick.close();
    quick.server.closeAllConnections();
    await closed;
  });

  it.each(TRANSPORTS)(
    'closes a %s connection that only listens once its user is deactivated behind the service’s back',
    async (_, transport) => {
      const user = await newUser();
      const w = await connect(user.token, transport, quickUrl);
      await w.conn.invoke('JoinDossier', acmeDossier.id);
      // No revocation reaches the hub and the client calls nothing more: only the periodic re-check can.
      await db.db.updateTable('users').set({ active: false }).where('id', '=', user.id).execute();
      const error = await within(w.closed, 'the close');
      expect(error?.message).toContain('Your session has ended. Sign in again.');
      expect(w.reconnecting()).toBe(false);
      expect(serverConnections(user.id, quick)).toBe(0);
    },
  );

  it('closes a listening connection whose token was signed out on another node (no backplane between them)', async () => {
    const user = await newUser();
    const w = await connect(user.token, HttpTransportType.ServerSentEvents, quickUrl);
    expect(
      (await app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: user.auth })).statusCode,
    ).toBe(204);
    const error = await within(w.closed, 'the close');
    expect(error?.message).toContain('Your session has ended. Sign in again.');
    expect(serverConnections(user.id, quick)).toBe(0);
  });

  it('closes a listening connection whose party changed behind the service’s back, with reconnect allowed', async () => {
    const user = await newUser();
    const w = await connect(user.token, HttpTransportType.WebSockets, quickUrl);
    const reconnected = new Promise<void>((resolve) => w.conn.onreconnected(() => resolve()));
    await db.db.updateTable('users').set({ party_id: parties.GLOBEX }).where('id', '=', user.id).execute();
    await within(reconnected, 'the reconnect');
    expect(w.reconnectCause()?.message).toContain('Your access rights have changed. Connect again.');
    // The new connection has the new party's rights.
    await expect(w.conn.invoke('JoinDossier', acmeDossier.id)).rejects.toThrow(
      'This dossier does not exist.',
    );
    await expect(w.conn.invoke('JoinDossier', globexDossier.id)).resolves.toMatchObject({
      dossierId: globexDossier.id,
    });
  });

  it('leaves a connection whose user still stands open and receiving across re-checks', async () => {
    const user = await newUser();
    const other = await newUser();
    const w = await connect(user.token, HttpTransportType.WebSockets, quickUrl);
    await w.conn.invoke('JoinDossier', acmeDossier.id);
    // Another user of the same node deactivated: the round that closes it leaves this one alone.
    const gone = await connect(other.token, HttpTransportType.WebSockets, quickUrl);
    await db.db.updateTable('users').set({ active: false }).where('id', '=', other.id).execute();
    await within(gone.closed, 'the other user’s close');
    const received = new Promise<{ text: string }>((resolve) => w.conn.on('ReceiveMessage', resolve));
    const sender = await connect((await newUser()).token, HttpTransportType.WebSockets, quickUrl);
    await sender.conn.invoke('SendMessage', acmeDossier.id, 'still listening');
    expect((await within(received, 'the message')).text).toBe('still listening');
    expect(w.conn.state).toBe(HubConnectionState.Connected);
    expect(w.reconnecting()).toBe(false);
  });
});

describe('a dossier given to another customer', () => {
  it('takes the old party’s customers out of its room; the new party’s customers join', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/dossiers',
      headers: staffAuth,
      payload: { type: 'import', mode: 'sea', customerId: parties.ACME },
    });
    const dossier = created.json() as { id: string; version: number };
    const oldCustomer = await newUser('customer', 'ACME');
    const newCustomer = await newUser('customer', 'GLOBEX');
    const staffUser = await newUser('staff');
    const old = await connect(oldCustomer.token, HttpTransportType.WebSockets);
    const staff = await connect(staffUser.token, HttpTransportType.ServerSentEvents);
    await old.conn.invoke('JoinDossier', dossier.id);
    await staff.conn.invoke('JoinDossier', dossier.id);
    const heardByOld: string[] = [];
    old.conn.on('ReceiveMessage', (m: { text: string }) => heardByOld.push(m.text));
    const presenceOld: string[][] = [];
    old.conn.on('Presence', (p: { users: { id: string }[] }) => presenceOld.push(p.users.map((u) => u.id)));
    await staff.conn.invoke('SendMessage', dossier.id, 'before the change');
    await within(
      (async () => {
        while (!heardByOld.includes('before the change')) await new Promise((r) => setTimeout(r, 20));
      })(),
      'the message before the change',
    );
    const changed = new Promise<{ id: string }>((resolve) =>
      old.conn.on('RecordChanged', (c: { id: string }) => c.id === dossier.id && resolve(c)),
    );

    const patched = await app.inject({
      method: 'PATCH',
      url: `/api/dossiers/${dossier.id}`,
      headers: staffAuth,
      payload: { version: dossier.version, customerId: parties.GLOBEX },
    });
    expect(patched.statusCode).toBe(200);
    // The old party hears that the dossier changed (its lists refresh), with nothing more in it.
    expect(await within(changed, 'the RecordChanged')).toEqual({
      kind: 'dossier',
      id: dossier.id,
      action: 'updated',
    });

    const fresh = await connect(newCustomer.token, HttpTransportType.LongPolling);
    const joined = (await fresh.conn.invoke('JoinDossier', dossier.id)) as { users: { id: string }[] };
    expect(joined.users.map((u) => u.id).sort()).toEqual([newCustomer.id, staffUser.id].sort());
    const heardByNew: string[] = [];
    fresh.conn.on('ReceiveMessage', (m: { text: string }) => heardByNew.push(m.text));
    await staff.conn.invoke('SendMessage', dossier.id, 'after the change');
    await fresh.conn.invoke('SendMessage', dossier.id, 'the new customer writes');
    await within(
      (async () => {
        while (!heardByNew.includes('the new customer writes')) await new Promise((r) => setTimeout(r, 20));
      })(),
      'the new customer’s messages',
    );
    expect(heardByNew).toEqual(['after the change', 'the new customer writes']);
    // A later message to the old customer's own connection arrives after anything sent before it.
    await old.conn.invoke('JoinDossier', acmeDossier.id);
    expect(heardByOld).toEqual(['before the change']);
    // Presence it was sent after the change came before its removal, never the new customer's.
    expect(presenceOld.flat()).not.toContain(newCustomer.id);
    // Its connection stays (its session did not end), but the dossier is out of its reach.
    expect(old.conn.state).toBe(HubConnectionState.Connected);
    await expect(old.conn.invoke('JoinDossier', dossier.id)).rejects.toThrow('This dossier does not exist.');
    await expect(old.conn.invoke('SendMessage', dossier.id, 'not mine any more')).rejects.toThrow(
      'This dossier does not exist.',
    );
  });
});
