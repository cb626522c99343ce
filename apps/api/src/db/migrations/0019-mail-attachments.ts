import { type Kysely, sql } from 'kysely';

/**
 * Mail with attachments (issue 11: an offer's PDF to the customer contact, an invoice's PDF on
 * request). The outbox row names the attachments — `[{ fileName, contentType, documentId }]` — and the
 * `mail.send` job reads their bytes from the document store when it sends, so a queued mail holds no
 * copy of a file and a retry sends the same bytes the document keeps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table mail_outbox
      add column attachments jsonb not null default '[]'
        check (jsonb_typeof(attachments) = 'array')`.execute(db);
}
