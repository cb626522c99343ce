import Fastify from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { apiTest } from '../test/api-test.ts';
import { createTestApp, mailText, startSmtpCatcher, waitUntil } from '../test/helpers.ts';
import { createJobs } from './jobs.ts';

const setup = apiTest({ smtp: true, app: false });
const { db } = setup;

const resetRequest = (app: App, email: string, ip: string) =>
  app.inject({ method: 'POST', url: '/api/auth/pwd/link', payload: { email }, remoteAddress: ip });

async function addUser(email: string) {
  await db.db
    .insertInto('users')
    .values({ email, name: email, role: 'staff', password_hash: null })
    .execute();
}

const waitingJobs = async () =>
  (
    await sql<{
      n: number;
    }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail.send'`.execute(db.db)
  ).rows[0]?.n;

describe('mail through the job queue', () => {
  it('a reset request produces exactly one mail, sent by the worker', async () => {
    const app = await createTestApp(db, { smtpUrl: setup.smtp.url, jobsEnabled: true });
    try {
      await addUser('one@jobs.test');
      expect((await resetRequest(app, 'one@jobs.test', '10.60.0.1')).statusCode).toBe(200);
      await app.services.auth.settle();
      const mail = await setup.smtp.waitFor('one@jobs.test');
      expect(mailText(mail.raw)).toMatch(/guest\/password\/reset\?token=/);
      await app.services.mailer.flush();
      expect(setup.smtp.to('one@jobs.test')).toHaveLength(1);
      const row = await db.db
        .selectFrom('mail_outbox')
        .select(['sent_at', 'error'])
        .where('to_address', '=', 'one@jobs.test')
        .executeTakeFirstOrThrow();
      expect(row.sent_at).not.toBeNull();
      expect(row.error).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('SMTP down: the job fails, is retried with backoff, and delivers once SMTP is back', async () => {
    // A port that nothing listens on until the catcher comes back on it.
    const later = await startSmtpCatcher();
    const port = later.port;
    await later.close();
    const app = await createTestApp(db, { smtpUrl: `smtp://127.0.0.1:${port}`, jobsEnabled: true });
    let back: Awaited<ReturnType<typeof startSmtpCatcher>> | undefined;
    try {
      await addUser('down@jobs.test');
      await resetRequest(app, 'down@jobs.test', '10.60.0.2');
      await app.services.auth.settle();
      // The first attempt failed and left its reason on the outbox row; the job waits for its retry.
      await waitUntil('the failed first attempt', async () => {
        const row = await db.db
          .selectFrom('mail_outbox')
          .select('error')
          .where('to_address', '=', 'down@jobs.test')
          .executeTakeFirst();
        if (!row?.error) return false;
        // The worker records the failure on its job just after the outbox row: wait for both (an
        // external server under load showed the job's last_error still null in between).
        const failed = await sql<{ n: number }>`
          select count(*)::int as n from graphile_worker.jobs
          where task_identifier = 'mail.send' and last_error is not null`.execute(db.db);
        return (failed.rows[0]?.n ?? 0) > 0;
      });
      const job = await sql<{ attempts: number; run_at: Date; last_error: string | null }>`
        select attempts, run_at, last_error from graphile_worker.jobs where task_identifier = 'mail.send'`.execute(
        db.db,
      );
      expect(job.rows).toHaveLength(1);
      expect(job.rows[0]?.attempts).toBe(1);
      expect(job.rows[0]?.last_error).toMatch(/ECONNREFUSED/);
      back = await startSmtpCatcher(port);
      await back.waitFor('down@jobs.test', 20_000);
      await waitUntil('the job to be done', async () => (await waitingJobs()) === 0);
      expect(back.to('down@jobs.test')).toHaveLength(1);
      const row = await db.db
        .selectFrom('mail_outbox')
        .select(['sent_at', 'error'])
        .where('to_address', '=', 'down@jobs.test')
        .executeTakeFirstOrThrow();
      expect(row.sent_at).not.toBeNull();
      expect(row.error).toBeNull();
    } finally {
      await app.close();
      await back?.close();
    }
  });

  it('a mail queued in a transaction that rolls back never exists, so never runs', async () => {
    const app = await createTestApp(db, { smtpUrl: setup.smtp.url, jobsEnabled: true });
    try {
      await expect(
        db.db.transaction().execute(async (trx) => {
          await app.services.mailer.queue({ to: 'rolled@jobs.test', subject: 'Never', text: 'never' }, trx);
          throw new Error('the fact did not commit');
        }),
      ).rejects.toThrow('the fact did not commit');
      // A mail queued after it goes out; the rolled-back one left neither a job nor an outbox row.
      await app.services.mailer.queue({ to: 'committed@jobs.test', subject: 'Yes', text: 'yes' });
      await setup.smtp.waitFor('committed@jobs.test');
      await app.services.mailer.flush();
      expect(setup.smtp.to('rolled@jobs.test')).toEqual([]);
      expect(
        await db.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('to_address', '=', 'rolled@jobs.test')
          .execute(),
      ).toEqual([]);
      expect(await waitingJobs()).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('restart in the middle: queued on a node that stops, delivered once by the next one', async () => {
    // The first instance takes the request but runs no worker and stops before the mail goes out.
    const first = await createTestApp(db, { smtpUrl: setup.smtp.url, jobsEnabled: false });
    await addUser('restart@jobs.test');
    await resetRequest(first, 'restart@jobs.test', '10.60.0.3');
    await first.services.auth.settle();
    await first.close();
    expect(await waitingJobs()).toBe(1);
    expect(setup.smtp.to('restart@jobs.test')).toEqual([]);

    const second = await createTestApp(db, { smtpUrl: setup.smtp.url, jobsEnabled: true });
    try {
      await setup.smtp.waitFor('restart@jobs.test');
      await second.services.mailer.flush();
      expect(setup.smtp.to('restart@jobs.test')).toHaveLength(1);
      expect(await waitingJobs()).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('restart while failing: a node whose SMTP is down stops; the next one delivers once', async () => {
    const dead = await startSmtpCatcher();
    const deadPort = dead.port;
    await dead.close();
    const first = await createTestApp(db, { smtpUrl: `smtp://127.0.0.1:${deadPort}`, jobsEnabled: true });
    await addUser('failing@jobs.test');
    await resetRequest(first, 'failing@jobs.test', '10.60.0.4');
    await first.services.auth.settle();
    await waitUntil('a failed attempt', async () => {
      const r = await sql<{ attempts: number }>`
        select attempts from graphile_worker.jobs where task_identifier = 'mail.send'`.execute(db.db);
      return (r.rows[0]?.attempts ?? 0) >= 1;
    });
    await first.close();

    // The retry is due later (backoff); the next node picks it up then and delivers it once.
    const second = await createTestApp(db, { smtpUrl: setup.smtp.url, jobsEnabled: true });
    try {
      await setup.smtp.waitFor('failing@jobs.test', 20_000);
      await waitUntil('the job to be done', async () => (await waitingJobs()) === 0);
      expect(setup.smtp.to('failing@jobs.test')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('two nodes on one database: every mail is sent exactly once', async () => {
    const a = await createTestApp(db, { smtpUrl: setup.smtp.url, jobsEnabled: true, jobsConcurrency: 2 });
    const b = await createTestApp(db, { smtpUrl: setup.smtp.url, jobsEnabled: true, jobsConcurrency: 2 });
    try {
      const to = Array.from({ length: 12 }, (_, i) => `node${i}@jobs.test`);
      // Queued through both nodes, half each, while both workers are taking jobs.
      await Promise.all(
        to.map((address, i) =>
          (i % 2 ? a : b).services.mailer.queue({ to: address, subject: 'Twice?', text: 'once' }),
        ),
      );
      for (const address of to) await setup.smtp.waitFor(address);
      await a.services.mailer.flush();
      for (const address of to) expect(setup.smtp.to(address)).toHaveLength(1);
      expect(await waitingJobs()).toBe(0);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('schedules', () => {
  it('takes a registered job on a 5-field cron pattern and refuses a malformed one', () => {
    const jobs = createJobs({ pool: undefined, concurrency: 1, log: Fastify({ logger: false }).log });
    jobs.schedule('offers.expire', '*/5 * * * *');
    expect(jobs.crontab).toBe('*/5 * * * * offers.expire');
    expect(() => jobs.schedule('offers.expire', 'every five minutes')).toThrow();
    // A job that needs a payload cannot be scheduled: the compiler says so (typecheck runs this file).
    // @ts-expect-error mail.send needs its outboxId, which no schedule gives
    expect(() => jobs.schedule('mail.send', '0 * * * *')).not.toThrow();
  });
});
