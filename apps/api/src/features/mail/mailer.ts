import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import { retryWhileUnavailable } from '../../db/availability.ts';
import type { Db } from '../../db/database.ts';
import type { MailAttachmentRow } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { enqueue, type JobContext, type Jobs } from '../../jobs/jobs.ts';
import type { FileStore } from '../documents/storage.ts';

/** A file sent with a mail: a stored document (its bytes), under the name and type the mail gives it. */
export type MailAttachment = MailAttachmentRow;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** Documents to attach; their bytes are read from the document store when the mail is sent. */
  attachments?: MailAttachment[];
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
  const files = mail.attachments?.length
    ? ` (attached: ${mail.attachments.map((a) => a.fileName).join(', ')})`
    : '';
  return `mail to ${mail.to}: ${mail.subject} — ${links ? links.join(' ') : 'the text is in mail_outbox'}${files}`;
}

/** An attachment whose document is gone: retrying cannot bring it back, so the mail is not sent. */
class MissingAttachmentError extends Error {}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * Mail goes through the `mail_outbox` table and a `mail.send` job (ADR 0027). The job delivers it over
 * SMTP with `SMTP_URL` and marks it sent; an SMTP failure throws, so the queue retries it with backoff.
 * Without `SMTP_URL` (the embedded default) the job leaves it in the outbox and `print` shows its links
 * as a plain line, so a newcomer can open a reset or invitation link without a mail server.
 */
export function createMailer(
  db: Db,
  opts: {
    smtpUrl?: string;
    from: string;
    log: FastifyBaseLogger;
    print: (line: string) => void;
    jobs: Jobs;
    /** Where attached documents' bytes are read from (the documents area's store). */
    store: FileStore;
  },
): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;

  /** The attachments with their bytes, from each document's current file. */
  async function attachmentsOf(list: MailAttachment[]) {
    if (list.length === 0) return [];
    const rows = await db
      .selectFrom('documents')
      .select(['id', 'storage_key'])
      .where(
        'id',
        'in',
        list.map((a) => a.documentId),
      )
      .execute();
    const keys = new Map(rows.map((r) => [r.id, r.storage_key]));
    return Promise.all(
      list.map(async (a) => {
        const key = keys.get(a.documentId);
        if (!key) throw new MissingAttachmentError(`The attached document ${a.documentId} no longer exists`);
        return {
          filename: a.fileName,
          contentType: a.contentType,
          content: await readAll(await opts.store.get(key)),
        };
      }),
    );
  }

  async function deliver(outboxId: string, ctx: JobContext): Promise<void> {
    const mail = await db.selectFrom('mail_outbox').selectAll().where('id', '=', outboxId).executeTakeFirst();
    // Sent already: a job that ran again after the mail went out (its node died before finishing).
    if (!mail || mail.sent_at) return;
    const outgoing = {
      to: mail.to_address,
      subject: mail.subject,
      text: mail.text_body,
      attachments: mail.attachments,
    };
    if (!transport) {
      opts.print(outboxLine(outgoing));
      opts.log.debug({ to: mail.to_address, subject: mail.subject }, 'mail kept in the outbox (no SMTP_URL)');
      return;
    }
    try {
      await transport.sendMail({
        from: opts.from,
        ...outgoing,
        attachments: await attachmentsOf(mail.attachments),
      });
    } catch (e) {
      if (e instanceof MissingAttachmentError) {
        // Given up at once: the mail would go without what it announces, and no retry brings it back.
        opts.log.error({ mailId: mail.id, err: e }, 'mail not sent: an attachment is missing');
        await db.updateTable('mail_outbox').set({ error: e.message }).where('id', '=', mail.id).execute();
        return;
      }
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
    // The mail is out: marking it sent must outlast a database outage, or the job's retry sends it again.
    const sentAt = new Date();
    await retryWhileUnavailable(() =>
      db.updateTable('mail_outbox').set({ sent_at: sentAt, error: null }).where('id', '=', mail.id).execute(),
    );
  }
  opts.jobs.register('mail.send', (payload, ctx) => deliver(payload.outboxId, ctx));

  async function queueIn(trx: Db, mail: OutgoingMail): Promise<void> {
    const attachments = (mail.attachments ?? []).map(({ fileName, contentType, documentId }) => ({
      fileName,
      contentType,
      documentId,
    }));
    if (attachments.length) {
      // A caller's mistake shows here, in its own transaction, not hours later in a job's retries.
      const found = await trx
        .selectFrom('documents')
        .select('id')
        .where(
          'id',
          'in',
          attachments.map((a) => a.documentId),
        )
        .execute();
      const missing = attachments.filter((a) => !found.some((f) => f.id === a.documentId));
      if (missing.length)
        throw new Error(`No document ${missing.map((a) => a.documentId).join(', ')} to attach`);
    }
    const row = await trx
      .insertInto('mail_outbox')
      .values({
        to_address: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        attachments: JSON.stringify(attachments),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueue(trx, 'mail.send', { outboxId: row.id }, { maxAttempts: MAIL_MAX_ATTEMPTS });
  }

  return {
    async queue(mail, trx) {
      await inTransaction(trx ?? db, (t) => queueIn(t, mail));
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
