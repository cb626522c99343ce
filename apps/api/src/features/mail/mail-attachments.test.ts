import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPANY, SCENARIOS } from '../../e-invoice/scenario-invoices.ts';
import { renderInvoicePdf } from '../../print/invoice-pdf.ts';
import { apiTest } from '../../test/api-test.ts';
import { waitUntil } from '../../test/helpers.ts';
import { LocalDiskStore, newStorageKey } from '../documents/storage.ts';

/*
 * A mail with a PDF attachment, end to end: the PDF is a stored document, the outbox row names it, the
 * mail.send job reads its bytes from the document store and a real SMTP receiver gets them intact.
 */

const setup = apiTest({ files: 'fvg-mail-attachments-', smtp: true, config: { jobsEnabled: true } });
const { db } = setup;

/** Stores bytes as an invoice's document, as the invoices area does with an issued invoice's PDF. */
async function storeDocument(bytes: Buffer, fileName: string): Promise<string> {
  const store = new LocalDiskStore(path.join(setup.dataDir, 'files'));
  const key = newStorageKey('documents');
  const put = await store.put(key, [bytes], { maxBytes: 10_000_000 });
  const row = await db.db
    .insertInto('documents')
    .values({
      record_type: 'invoice',
      record_id: randomUUID(),
      storage_key: key,
      file_name: fileName,
      content_type: 'application/pdf',
      size_bytes: put.size,
      sha256: put.sha256,
      document_type: 'invoice',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The MIME parts of a raw mail whose headers say it is an attachment, with their decoded bytes. */
function attachmentsOf(raw: string): { headers: string; bytes: Buffer }[] {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .map((part) => {
      const split = part.indexOf('\r\n\r\n');
      return { headers: part.slice(0, split), body: part.slice(split + 4) };
    })
    .filter((p) => /content-disposition:\s*attachment/i.test(p.headers))
    .map((p) => ({ headers: p.headers, bytes: Buffer.from(p.body.replace(/\s+/g, ''), 'base64') }));
}

describe('mail attachments', () => {
  it('sends a queued mail with an invoice PDF whose bytes arrive intact', async () => {
    const invoice = SCENARIOS['domestic-s'];
    if (!invoice) throw new Error('scenario missing');
    const pdf = await renderInvoicePdf(invoice, COMPANY);
    const documentId = await storeDocument(pdf, 'I-2026-000042.pdf');

    await setup.app.services.mailer.queue({
      to: 'ap@maasvlakte.test',
      subject: 'Invoice I-2026-000042',
      text: 'Please find our invoice attached.',
      attachments: [{ fileName: 'I-2026-000042.pdf', contentType: 'application/pdf', documentId }],
    });
    const mail = await setup.smtp.waitFor('ap@maasvlakte.test');
    await setup.app.services.mailer.flush();

    const files = attachmentsOf(mail.raw);
    expect(files).toHaveLength(1);
    expect(files[0]?.headers).toMatch(/content-type:\s*application\/pdf/i);
    expect(files[0]?.headers).toMatch(/filename="?I-2026-000042\.pdf"?/i);
    expect(files[0]?.bytes.equals(pdf)).toBe(true);
    expect(mail.raw).toContain('Please find our invoice attached.');

    const row = await db.db
      .selectFrom('mail_outbox')
      .select(['attachments', 'sent_at', 'error'])
      .where('to_address', '=', 'ap@maasvlakte.test')
      .executeTakeFirstOrThrow();
    expect(row.attachments).toEqual([
      { fileName: 'I-2026-000042.pdf', contentType: 'application/pdf', documentId },
    ]);
    expect(row.sent_at).not.toBeNull();
    expect(row.error).toBeNull();
  });

  it('refuses to queue an attachment that is no document, and queues nothing', async () => {
    await expect(
      setup.app.services.mailer.queue({
        to: 'nobody@maasvlakte.test',
        subject: 'Never',
        text: 'never',
        attachments: [{ fileName: 'x.pdf', contentType: 'application/pdf', documentId: randomUUID() }],
      }),
    ).rejects.toThrow(/No document .* to attach/);
    const rows = await db.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', 'nobody@maasvlakte.test')
      .execute();
    expect(rows).toEqual([]);
  });

  it('does not send a mail whose attached document was deleted before it went out, and says why', async () => {
    const documentId = await storeDocument(Buffer.from('%PDF-1.7 gone'), 'gone.pdf');
    // Deleted in the transaction that queues the mail: whenever the job runs, the document is gone.
    await db.db.transaction().execute(async (trx) => {
      await setup.app.services.mailer.queue(
        {
          to: 'gone@maasvlakte.test',
          subject: 'Gone',
          text: 'the attachment is deleted',
          attachments: [{ fileName: 'gone.pdf', contentType: 'application/pdf', documentId }],
        },
        trx,
      );
      await trx.deleteFrom('documents').where('id', '=', documentId).execute();
    });
    await waitUntil('the outbox error', async () => {
      const row = await db.db
        .selectFrom('mail_outbox')
        .select('error')
        .where('to_address', '=', 'gone@maasvlakte.test')
        .executeTakeFirst();
      return !!row?.error;
    });
    await setup.app.services.mailer.flush();
    const row = await db.db
      .selectFrom('mail_outbox')
      .select(['error', 'sent_at'])
      .where('to_address', '=', 'gone@maasvlakte.test')
      .executeTakeFirstOrThrow();
    expect(row.error).toContain(`The attached document ${documentId} no longer exists`);
    expect(row.sent_at).toBeNull();
    expect(setup.smtp.to('gone@maasvlakte.test')).toEqual([]);
  });
});
