import { createHash } from 'node:crypto';
import { eInvoiceProblems, type SalesInvoice } from '@fvg/contracts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { peppolBuyer } from '../../e-invoice/peppol-buyer.ts';
import { invoiceUbl } from '../../e-invoice/ubl.ts';
import { problems } from '../../http/problem.ts';
import type { Jobs } from '../../jobs/jobs.ts';
import { renderInvoicePdf } from '../../print/invoice-pdf.ts';
import { readCompany } from '../company/company.service.ts';
import { documentsRepository } from '../documents/documents.repository.ts';
import { FileMissingError, type FileStore, newStorageKey } from '../documents/storage.ts';
import type { SalesInvoicesService } from './sales-invoices.service.ts';

/** Far above any invoice PDF; the store wants a limit. */
const MAX_PDF_BYTES = 20 * 1024 * 1024;

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/**
 * The printed forms of an invoice. An issued one's PDF is rendered once (the `invoice.pdf` job) and
 * stored as a document of the invoice, so it never changes afterwards, even when the layout does;
 * a draft's is rendered on each request, marked as a draft.
 */
export function invoiceDocuments(db: Db, store: FileStore, invoices: SalesInvoicesService) {
  async function stored(invoiceId: string) {
    return db
      .selectFrom('documents')
      .select(['id', 'storage_key'])
      .where('record_type', '=', 'invoice')
      .where('record_id', '=', invoiceId)
      .orderBy('uploaded_at')
      .executeTakeFirst();
  }

  /** Renders and stores the PDF of an issued invoice, unless it has one (a retried job). */
  async function storePdf(invoiceId: string): Promise<void> {
    if (await stored(invoiceId)) return;
    const invoice = await invoices.asStaff(invoiceId);
    if (!invoice?.number) return;
    const pdf = await renderInvoicePdf(invoice, await readCompany(db));
    const namespace = await documentsRepository(db).namespace();
    const key = newStorageKey(namespace);
    const put = await store.put(key, [pdf], { maxBytes: MAX_PDF_BYTES });
    const meta = await db
      .selectFrom('sales_invoices')
      .select(['issued_by', 'dossier_id'])
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    await inTransaction(db, async (trx) => {
      // Serialises two renders of one invoice (a retry racing a slow first run): one row wins.
      await trx.selectFrom('sales_invoices').select('id').where('id', '=', invoiceId).forUpdate().execute();
      const again = await trx
        .selectFrom('documents')
        .select('id')
        .where('record_type', '=', 'invoice')
        .where('record_id', '=', invoiceId)
        .executeTakeFirst();
      if (again) return;
      await documentsRepository(trx).insert({
        record_type: 'invoice',
        record_id: invoiceId,
        dossier_id: meta.dossier_id,
        storage_key: key,
        file_name: `${invoice.number}.pdf`,
        content_type: 'application/pdf',
        size_bytes: put.size,
        sha256: put.sha256 || createHash('sha256').update(pdf).digest('hex'),
        // Filed as what it is (issue 27 item 3), never "Other".
        document_type: invoice.kind === 'credit_note' ? 'credit_note' : 'sales_invoice',
        visible_to_customer: true,
        // The user who issued it; null only when that user was deleted since (the column allows it).
        uploaded_by: meta.issued_by as string,
        updated_by: meta.issued_by as string,
      });
    });
  }

  return {
    storePdf,

    async pdf(invoice: SalesInvoice): Promise<Buffer> {
      const read = async (key: string) => {
        try {
          return await readAll(await store.get(key));
        } catch (e) {
          // A row whose file is gone (a restore without the files): render rather than fail.
          if (e instanceof FileMissingError) return undefined;
          throw e;
        }
      };
      if (invoice.number) {
        // Issued a moment ago and the job has not run yet: the same rendering, stored now.
        if (!(await stored(invoice.id))) await storePdf(invoice.id);
        const doc = await stored(invoice.id);
        const bytes = doc ? await read(doc.storage_key) : undefined;
        if (bytes) return bytes;
      }
      return renderInvoicePdf(invoice, await readCompany(db));
    },

    async ubl(invoice: SalesInvoice): Promise<string> {
      if (!invoice.number)
        throw problems.conflict('A draft has no e-invoice yet: issue it first.', [
          { field: 'id', message: 'Not issued' },
        ]);
      // An electronic address the customer's record gained after issuing is used (ADR 0043).
      const buyer = await peppolBuyer(db, invoice.buyer, invoice.customer.id);
      // Never a file the Peppol rules refuse (R010, R020): the invoice stands, its PDF is the document.
      const missing = eInvoiceProblems({ seller: invoice.seller, buyer });
      if (missing.length)
        throw problems.conflict(
          `${invoice.number} has no Peppol e-invoice: ${missing.map((m) => m.message).join('; ')}. The PDF is the invoice meanwhile.`,
          missing.map((m) => ({ field: m.field, message: m.message, code: m.code })),
        );
      return invoiceUbl({ ...invoice, buyer }, await readCompany(db));
    },

    register(jobs: Jobs) {
      jobs.register('invoice.pdf', ({ invoiceId }) => storePdf(invoiceId));
      jobs.register('invoices.mark-overdue', async () => {
        await invoices.markOverdue();
      });
      // Hourly: an invoice turns overdue at midnight, and its handler hears of it within the hour.
      jobs.schedule('invoices.mark-overdue', '7 * * * *');
    },
  };
}
export type InvoiceDocuments = ReturnType<typeof invoiceDocuments>;
