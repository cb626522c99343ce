import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/database.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Records the mail in the outbox; delivery happens after, so callers never wait on SMTP. */
  queue(mail: OutgoingMail): Promise<void>;
  /** Delivers what is waiting (over SMTP when configured). Resolves when the current batch is done. */
  flush(): Promise<void>;
}

/** The one line printed for a mail kept in the outbox: whom, what, and the links to open. */
export function outboxLine(mail: OutgoingMail): string {
  const links = mail.text.match(/https?:\/\/\S+/g);
  return `mail to ${mail.to}: ${mail.subject} — ${links ? links.join(' ') : 'the text is in mail_outbox'}`;
}

/**
 * Mail goes through the `mail_outbox` table: with `SMTP_URL` it is then delivered over SMTP and marked
 * sent; without it (the embedded default) it stays in the outbox and `print` shows its links as a plain
 * line, so a newcomer can open a reset or invitation link without a mail server.
 */
export function createMailer(
  db: Db,
  opts: { smtpUrl?: string; from: string; log: FastifyBaseLogger; print: (line: string) => void },
): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined;
  let chain: Promise<void> = Promise.resolve();

  async function deliver(): Promise<void> {
    if (!transport) return;
    const pending = await db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('sent_at', 'is', null)
      .where('error', 'is', null)
      .orderBy('created_at')
      .limit(50)
      .execute();
    for (const mail of pending) {
      try {
        await transport.sendMail({
          from: opts.from,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body,
        });
        await db.updateTable('mail_outbox').set({ sent_at: new Date() }).where('id', '=', mail.id).execute();
      } catch (e) {
        opts.log.error({ err: e, mailId: mail.id }, 'mail delivery failed');
        await db
          .updateTable('mail_outbox')
          .set({ error: String(e) })
          .where('id', '=', mail.id)
          .execute();
      }
    }
  }

  const mailer: Mailer = {
    async queue(mail) {
      await db
        .insertInto('mail_outbox')
        .values({ to_address: mail.to, subject: mail.subject, text_body: mail.text })
        .execute();
      if (!transport) {
        opts.print(outboxLine(mail));
        opts.log.debug({ to: mail.to, subject: mail.subject }, 'mail kept in the outbox (no SMTP_URL)');
      }
      void mailer.flush().catch((e) => opts.log.error({ err: e }, 'mail flush failed'));
    },
    flush() {
      // One delivery run at a time: a call during a run is chained after it.
      const run = chain.then(deliver);
      chain = run.catch(() => {});
      return run;
    },
  };
  return mailer;
}
