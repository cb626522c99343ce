import {
  creditNoteCreateSchema,
  INVOICE_KIND_LABELS,
  INVOICE_STATUS_LABELS,
  invoiceIssueSchema,
  paymentCreateSchema,
  paymentDeleteSchema,
  type SalesInvoiceListItem,
  salesInvoiceCreateSchema,
  salesInvoiceFieldVisibility,
  salesInvoiceListItemSchema,
  salesInvoiceListQuerySchema,
  salesInvoiceSchema,
  salesInvoiceUpdateSchema,
  signedAmount,
  uuidSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExportColumn } from '../../records/export.ts';
import { historyResponse, listRoutes, problemResponses } from '../../records/routes.ts';
import type { InvoiceDocuments } from './sales-invoices.documents.ts';
import type { SalesInvoicesService } from './sales-invoices.service.ts';

/** An invoice is addressed by its id or its number (`I-2026-000042`). */
const params = z.object({ id: z.string().min(1).max(64) });
const paymentParams = params.extend({ paymentId: uuidSchema });

const columns: ExportColumn<SalesInvoiceListItem>[] = [
  { header: 'Number', value: (i) => i.number },
  { header: 'Kind', value: (i) => INVOICE_KIND_LABELS[i.kind] },
  { header: 'Status', value: (i) => INVOICE_STATUS_LABELS[i.status] },
  { header: 'Customer', value: (i) => i.customer.name },
  { header: 'Customer code', value: (i) => i.customer.code },
  { header: 'Dossier', value: (i) => i.dossier?.number },
  { header: 'Credits invoice', value: (i) => i.creditedInvoice?.number },
  { header: 'Issue date', value: (i) => i.issueDate, time: 'day' },
  { header: 'Due date', value: (i) => i.dueDate, time: 'day' },
  { header: 'Currency', value: (i) => i.currency },
  // Signed as the lists show them: a credit note's total and open amount are negative (issue 27 item 3).
  { header: 'Total', value: (i) => Number(signedAmount(i.kind, i.taxInclusiveAmount)) },
  { header: 'Paid', value: (i) => Number(i.paidAmount) },
  { header: 'Open', value: (i) => Number(signedAmount(i.kind, i.openAmount)) },
  { header: 'Overdue', value: (i) => (i.overdue ? 'yes' : 'no') },
  { header: 'Updated', value: (i) => i.updatedAt, time: 'instant' },
];

export const salesInvoicesRoutes: FastifyPluginAsyncZod<{
  invoices: SalesInvoicesService;
  documents: InvoiceDocuments;
}> = async (app, { invoices, documents }) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['sales-invoices'];
  const one = { 200: salesInvoiceSchema, ...problemResponses, 422: problemSchema422() };

  listRoutes(app, {
    path: '/sales-invoices',
    tags,
    summary: 'Sales invoices and credit notes the user may see (customers: their own issued ones)',
    query: salesInvoiceListQuerySchema,
    item: salesInvoiceListItemSchema,
    read: invoices,
    columns,
    visibility: salesInvoiceFieldVisibility,
  });
  app.get(
    '/sales-invoices/:id',
    { schema: { tags, params, response: { 200: salesInvoiceSchema, ...problemResponses } } },
    (request) => invoices.get(request.user, request.params.id),
  );
  app.post(
    '/sales-invoices',
    {
      schema: {
        tags,
        summary:
          'Draft an invoice (staff): `{ dossierId }` bills the dossier’s open revenue charges, or send `customerId` and `lines`',
        body: salesInvoiceCreateSchema,
        response: { 201: salesInvoiceSchema, ...problemResponses, 422: problemSchema422() },
      },
    },
    async (request, reply) => reply.status(201).send(await invoices.create(request.user, request.body)),
  );
  app.patch(
    '/sales-invoices/:id',
    {
      schema: {
        tags,
        summary: 'Edit a draft; `lines` replaces all lines',
        params,
        body: salesInvoiceUpdateSchema,
        response: one,
      },
    },
    (request) => invoices.update(request.user, request.params.id, request.body),
  );
  app.delete(
    '/sales-invoices/:id',
    { schema: { tags, summary: 'Delete a draft', params, response: { 204: z.null(), ...problemResponses } } },
    async (request, reply) => {
      await invoices.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/sales-invoices/:id/issue',
    {
      schema: {
        tags,
        summary: 'Issue a draft: the next number of its series, frozen from then on',
        description:
          'Refused with 422 and field errors (`lines.2.exemptionReason`, `buyer.vatNumber`) when the law or ' +
          'Peppol would refuse the document; then no number is taken.',
        params,
        body: invoiceIssueSchema,
        response: one,
      },
    },
    (request) => invoices.issue(request.user, request.params.id, request.body),
  );
  app.post(
    '/sales-invoices/:id/credit-notes',
    {
      schema: {
        tags,
        summary: 'Draft a credit note of an issued invoice: chosen lines and quantities, or all that is left',
        params,
        body: creditNoteCreateSchema,
        response: { 201: salesInvoiceSchema, ...problemResponses, 422: problemSchema422() },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await invoices.credit(request.user, request.params.id, request.body)),
  );
  app.post(
    '/sales-invoices/:id/payments',
    {
      schema: {
        tags,
        summary: 'Record a payment (not more than is open)',
        params,
        body: paymentCreateSchema,
        response: { 201: salesInvoiceSchema, ...problemResponses, 422: problemSchema422() },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await invoices.pay(request.user, request.params.id, request.body)),
  );
  app.delete(
    '/sales-invoices/:id/payments/:paymentId',
    {
      schema: {
        tags,
        summary: 'Remove the last payment, with a reason (the entry stays in the history)',
        params: paymentParams,
        body: paymentDeleteSchema,
        response: one,
      },
    },
    (request) =>
      invoices.removePayment(request.user, request.params.id, request.params.paymentId, request.body.reason),
  );
  app.get(
    '/sales-invoices/:id/pdf',
    {
      schema: {
        tags,
        summary: 'The PDF: as issued (stored), or a draft marked DRAFT',
        params,
        response: { 200: z.any(), ...problemResponses },
      },
    },
    async (request, reply) => {
      const invoice = await invoices.get(request.user, request.params.id);
      const pdf = await documents.pdf(invoice);
      const name = `${invoice.number ?? `draft-${invoice.id.slice(0, 8)}`}.pdf`;
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${name}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
  app.get(
    '/sales-invoices/:id/ubl',
    {
      schema: {
        tags,
        summary:
          'The UBL 2.1 Peppol BIS Billing 3.0 document (Invoice 380 or CreditNote 381) of an issued one',
        params,
        response: { 200: z.any(), ...problemResponses },
      },
    },
    async (request, reply) => {
      const invoice = await invoices.get(request.user, request.params.id);
      const xml = await documents.ubl(invoice);
      return reply
        .type('application/xml')
        .header('content-disposition', `attachment; filename="${invoice.number}.xml"`)
        .header('cache-control', 'private, no-store')
        .send(xml);
    },
  );
  app.get(
    '/sales-invoices/:id/history',
    { schema: { tags, params, response: { 200: historyResponse, ...problemResponses } } },
    (request) => invoices.history(request.user, request.params.id),
  );
};

function problemSchema422() {
  return problemResponses[409];
}
