import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/database.ts';
import { enqueue, type JobContext, type Jobs } from '../../jobs/jobs.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /**
   * Records the mail in the outbox and queues its `mail.send` job. Pass the caller's transaction so the
   * mail exists only if what it announces commits; callers never wait on SMTP.
   */
  queue(mail: OutgoingMail, trx?: Db): Promise<void>;
  /** Resolves when no queued mail is waiting for its first run or running (tests; several nodes included). */
  flush(timeoutMs?: number): Promise<void>;
}

/** Attempts of one mail before it is given up: the retries back off exponentially (ADR 0027), ~3.5 h in all. */
export const MAIL_MAX_ATTEMPTS = 10;

/** The one line printed for a mail kept in the outbox: whom, what, and the links to open. */
export function outboxLine(mail: OutgoingMail): string {
  const links = mail.text.match(/https?:\/\/\S+/g);
  return `mail to ${mail.to}: ${mail.subject} — ${links ? links.join(' ') : 'the text is in mail_outbox'}`;
}

/**
 * Mail goes through the `mail_outbox` table and a `mail.send` job (ADR 0027). The job delivers it over
 * SMTP with `SMTP_URL` and marks it sent; an SMTP failure throws, so the queue retries it with backoff.
 * Without `SMTP_URL` (the embedded default) the job leaves it in the outbox and `print` shows its links
 * as a plain line, so a newcomer can open a reset or invitation link without a mail server.
 */
export function createMailer(
  db: Db,
  opts: { smtpUrl?: string; from: string; log: FastifyBaseLogger; print: (line: string) => void; jobs: Jobs },
): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;

  async function deliver(outboxId: string, ctx: JobContext): Promise<void> {
    const mail = await db.selectFrom('mail_outbox').selectAll().where('id', '=', outboxId).executeTakeFirst();
    // Sent already: a job that ran again after the mail went out (its node died before finishing).
    if (!mail || mail.sent_at) return;
    const outgoing = { to: mail.to_address, subject: mail.subject, text: mail.text_body };
    if (!transport) {
      opts.print(outboxLine(outgoing));
      opts.log.debug({ to: mail.to_address, subject: mail.subject }, 'mail kept in the outbox (no SMTP_URL)');
      return;
    }
    try {
      await transport.sendMail({ from: opts.from, ...outgoing });
    } catch (e) {
      opts.log.error(
        { err: e, mailId: mail.id, attempt: ctx.attempt, maxAttempts: ctx.maxAttempts },
        'mail delivery failed',
      );
      await db
        .updateTable('mail_outbox')
        .set({ error: String(e) })
        .where('id', '=', mail.id)
        .execute();
      throw e;
    }
    await db
      .updateTable('mail_outbox')
      .set({ sent_at: new Date(), error: null })
      .where('id', '=', mail.id)
      .execute();
  }
  opts.jobs.register('mail.send', (payload, ctx) => deliver(payload.outboxId, ctx));

  async function queueIn(trx: Db, mail: OutgoingMail): Promise<void> {
    const row = await trx
      .insertInto('mail_outbox')
      .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueue(trx, 'mail.send', { outboxId: row.id }, { maxAttempts: MAIL_MAX_ATTEMPTS });
  }

  return {
    async queue(mail, trx) {
      if (trx) await queueIn(trx, mail);
      else await db.transaction().execute((t) => queueIn(t, mail));
    },
    async flush(timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const waiting = await sql<{ n: number }>`
          select count(*)::int as n from graphile_worker.jobs
          where task_identifier = 'mail.send' and (attempts = 0 or locked_at is not null)`.execute(db);
        if ((waiting.rows[0]?.n ?? 0) === 0) return;
        if (Date.now() > deadline) throw new Error(`mail still queued after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
