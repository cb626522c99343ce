import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { type HubConnection, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { inject } from 'vitest';
import { type App, type AppDeps, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { connect, type DatabaseHandle } from '../db/database.ts';
import { minimalPdf } from '../features/documents/minimal-pdf.ts';

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own (cloned from the run's template): tests never share rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `fvg_test_${process.ppid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = connect(url.toString(), 5);
  return {
    ...handle,
    url: url.toString(),
    name,
    async drop() {
      await handle.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ LOG_LEVEL: 'silent' });
  return {
    ...base,
    publicUrl: 'http://fvg.test',
    jwtSecret: undefined,
    smtpUrl: undefined,
    webDist: '/nonexistent',
    // No job worker unless a test asks for one (mail tests do): it holds a connection of the small pool.
    jobsEnabled: false,
    // No nightly backup into the checkout's data folder from a test app that runs jobs at 02:00.
    backup: { ...base.backup, cron: undefined },
    ...overrides,
  };
}

export async function createTestApp(
  db: TestDatabase,
  overrides: Partial<Config> = {},
  deps: Pick<AppDeps, 'customsGateway'> = {},
): Promise<App> {
  const app = await buildApp({
    config: testConfig(overrides),
    db: db.db,
    pool: db.pool,
    logger: false,
    ...deps,
  });
  await app.ready();
  return app;
}

export interface CaughtMail {
  from: string;
  to: string[];
  raw: string;
  /** The name the sending client gave in its EHLO (nodemailer's `name`, e.g. `?name=node-1` in SMTP_URL). */
  helo: string;
}

/** A real SMTP receiver on a loopback port (a free one unless given) that keeps every mail it gets. */
export async function startSmtpCatcher(port = 0) {
  const mails: CaughtMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          helo: session.hostNameAppearsAs || '',
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    mails,
    /** Resolves with the first mail to `to`, waiting for it to arrive. */
    async waitFor(to: string, timeoutMs = 10_000): Promise<CaughtMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => m.to.includes(to));
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    /** Every mail to `to` so far. */
    to: (to: string) => mails.filter((m) => m.to.includes(to)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits (without a fixed sleep) until `check` holds, polling; fails with `what` after the timeout. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The text of a caught mail with quoted-printable soft line breaks and escapes undone. */
export function mailText(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Signs a seeded user in through the API and returns the Authorization header for later calls. */
export async function bearer(app: App, email: string, password: string): Promise<{ authorization: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/access_token',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${(res.json() as { Token: string }).Token}` };
}

export const DEMO_PASSWORDS = {
  admin: ['admin@fvg.local', 'admin-demo-2026'],
  staff: ['staff@fvg.local', 'staff-demo-2026'],
  acme: ['customer@acme.example', 'customer-demo-2026'],
  globex: ['customer@globex.example', 'customer-demo-2026'],
} as const;

/** Authorization headers of the four seeded demo users. */
export async function demoTokens(app: App) {
  const [admin, staff, acme, globex] = await Promise.all([
    bearer(app, ...DEMO_PASSWORDS.admin),
    bearer(app, ...DEMO_PASSWORDS.staff),
    bearer(app, ...DEMO_PASSWORDS.acme),
    bearer(app, ...DEMO_PASSWORDS.globex),
  ]);
  return { admin, staff, acme, globex };
}

export type Json = Record<string, unknown>;

/**
 * `call(method, '/dossiers', auth, payload)` against the app under `/api`: the status, the JSON body
 * (empty for non-JSON answers such as exports), the headers and the raw body.
 */
export function apiCaller(app: () => App) {
  return async (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    auth: { authorization: string } | undefined,
    payload?: Json,
  ) => {
    const res = await app().inject({
      method,
      url: `/api${url}`,
      headers: auth ?? {},
      ...(payload ? { payload } : {}),
    });
    const isJson = /json/.test(String(res.headers['content-type'] ?? ''));
    return {
      status: res.statusCode,
      body: isJson ? (res.json() as Json) : {},
      headers: res.headers,
      raw: res.body,
    };
  };
}

export interface FormFile {
  field?: string;
  filename: string;
  content: Buffer;
  contentType?: string;
}

/** A multipart/form-data body built by hand, so a test controls every byte (and can break it on purpose). */
export function multipartForm(fields: Record<string, string>, files: FormFile[]) {
  const boundary = `----fvg${randomBytes(8).toString('hex')}`;
  const quoted = (s: string) => s.replace(/["\\]/g, (c) => `\\${c}`);
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(f.field ?? 'files')}"; filename="${quoted(f.filename)}"\r\nContent-Type: ${f.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    boundary,
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * The entries of a zip archive (an XLSX export) as name → bytes, read from the central directory;
 * enough for the stored and deflated entries our exports write, no dependency needed.
 */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip archive: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error('zip central directory is corrupt');
    const method = zip.readUInt16LE(p + 10);
    const compressedSize = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLength).toString('utf8');
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The app on a loopback port (the official SignalR client needs a real socket); the hub's URL. */
export async function listenForHub(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/chat`;
}

/**
 * Connects to the hub as a signed-in user through the official client (`reconnect`: its retry delays,
 * as the web app has them); `stopAll` in afterAll closes every connection opened.
 */
export function hubClients(url: () => string, options: { reconnect?: number[] } = {}) {
  const open: HubConnection[] = [];
  return {
    async connect(auth: { authorization: string }): Promise<HubConnection> {
      const token = auth.authorization.slice('Bearer '.length);
      const builder = new HubConnectionBuilder().withUrl(url(), { accessTokenFactory: () => token });
      if (options.reconnect) builder.withAutomaticReconnect(options.reconnect);
      const conn = builder.configureLogging(LogLevel.None).build();
      await conn.start();
      open.push(conn);
      return conn;
    },
    stopAll: () => Promise.all(open.map((c) => c.stop())),
  };
}

export type RecordChange = { kind: string; id: string; action: string };

/** Every `RecordChanged` that reaches `conn` from now on, in order (a live list). */
export function recordChanges(conn: HubConnection): RecordChange[] {
  const changes: RecordChange[] = [];
  conn.on('RecordChanged', (c: RecordChange) => changes.push(c));
  return changes;
}

/**
 * Attaches a packing list (a one-page PDF, visible to the record's customer) to a record through
 * `POST /api/documents`: `as(auth)` sends it, so a test can try it as several users.
 */
export function packingList(app: App, recordType: string, recordId: string, filename = 'packing-list.pdf') {
  const upload = multipartForm(
    { recordType, recordId, documentType: 'packing_list', visibleToCustomer: 'true' },
    [{ filename, content: minimalPdf('Packing list'), contentType: 'application/pdf' }],
  );
  return {
    as: (auth: { authorization: string }) =>
      app.inject({
        method: 'POST',
        url: '/api/documents',
        headers: { ...auth, 'content-type': upload.contentType },
        payload: upload.payload,
      }),
  };
}

/** The next `event` on `conn` that `match`es; rejects after `timeoutMs`. */
export function nextEvent<T>(
  conn: HubConnection,
  event: string,
  match: (v: T) => boolean = () => true,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    const handler = (v: T) => {
      if (!match(v)) return;
      clearTimeout(timer);
      conn.off(event, handler);
      resolve(v);
    };
    conn.on(event, handler);
  });
}
