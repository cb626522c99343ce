import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { type OpenDatabase, openDatabase } from '../db/open.ts';
import { testConfig, waitUntil } from '../test/helpers.ts';

/**
 * The job queue across a database death (issue 24 item 3, docs/adr/0053): mails queued, the embedded
 * postmaster SIGKILLed while the worker sends them, the app restarts it, and every mail is delivered
 * exactly once — none lost, none twice — with nothing left in the queue.
 */
let dir: string | undefined;
let database: OpenDatabase | undefined;
let app: App | undefined;
let smtp: SMTPServer | undefined;

afterAll(async () => {
  await app?.close();
  await database?.shutdown();
  if (smtp) await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A real SMTP receiver that takes 100 ms per mail, so the database dies while mails are going out. */
async function slowSmtp() {
  const delivered: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        setTimeout(() => {
          for (const r of session.envelope.rcptTo) delivered.push(r.address);
          callback();
        }, 100);
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return { server, delivered, url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}` };
}

describe('the job queue survives its database', () => {
  it('runs each queued job exactly once when the embedded PostgreSQL is killed mid-run and restarted', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fvg-jobs-outage-'));
    await chmod(dir, 0o755);
    const mail = await slowSmtp();
    smtp = mail.server;
    const config = testConfig({ dataDir: dir, jobsEnabled: true, jobsConcurrency: 2, smtpUrl: mail.url });
    const lines: string[] = [];
    const gaveUp: string[] = [];
    database = await openDatabase(
      config,
      (m) => lines.push(m),
      (reason) => gaveUp.push(reason),
    );
    app = await buildApp({
      config,
      db: database.db,
      pool: database.pool,
      status: database.status,
      logger: false,
    });
    await app.ready();

    const recipients = Array.from({ length: 40 }, (_, i) => `m${i}@outage.test`);
    for (const to of recipients)
      await app.services.mailer.queue({ to, subject: 'Outage', text: `for ${to}` }, database.db);

    await waitUntil('the first mails', () => mail.delivered.length >= 6, 30_000);
    const pid = Number((await readFile(path.join(dir, 'pg/postmaster.pid'), 'utf8')).split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    await waitUntil(
      'the restart',
      () => lines.some((l) => l.includes('the embedded PostgreSQL is back')),
      90_000,
    );

    await waitUntil('every mail', () => new Set(mail.delivered).size === recipients.length, 90_000);
    const db = database.db;
    await waitUntil(
      'an empty queue',
      async () =>
        (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs`.execute(db)).rows[0]
          ?.n === 0,
      30_000,
    );
    // Each exactly once, and every outbox row marked sent.
    expect([...mail.delivered].sort()).toEqual([...recipients].sort());
    const unsent = await db
      .selectFrom('mail_outbox')
      .select('to_address')
      .where('sent_at', 'is', null)
      .execute();
    expect(unsent).toEqual([]);
    expect(gaveUp).toEqual([]);
    expect(database.status.state).toBe('up');
  }, 180_000);
});
