import {
  DOSSIER_MODE_LABELS,
  OFFER_STATUS_LABELS,
  type SalesOfferListItem,
  salesOfferCreateSchema,
  salesOfferFieldVisibility,
  salesOfferListItemSchema,
  salesOfferListQuerySchema,
  salesOfferSchema,
  salesOfferTransitionSchema,
  salesOfferUpdateSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ExportColumn, sendExport } from '../../records/export.ts';
import {
  exportQuery,
  historyResponse,
  listRoutes,
  problemResponses,
  splitExportQuery,
} from '../../records/routes.ts';
import { scopeOf } from '../../records/scope.ts';
import type { SalesOffersService } from './sales-offers.service.ts';

/** An offer is addressed by its id or its number (`O-2026-000042`). */
const params = z.object({ id: z.string().min(1).max(64) });

const columns: ExportColumn<SalesOfferListItem>[] = [
  { header: 'Number', value: (o) => o.number },
  { header: 'Status', value: (o) => OFFER_STATUS_LABELS[o.status] },
  { header: 'Customer', value: (o) => o.customer.name },
  { header: 'Customer code', value: (o) => o.customer.code },
  { header: 'Contact', value: (o) => o.contactName },
  { header: 'Valid until', value: (o) => o.validUntil, time: 'day' },
  { header: 'Mode', value: (o) => DOSSIER_MODE_LABELS[o.mode] },
  { header: 'Origin', value: (o) => o.originLocode },
  { header: 'Destination', value: (o) => o.destinationLocode },
  { header: 'Net', value: (o) => o.totals.map((t) => `${t.net} ${t.currency}`).join('; ') },
  { header: 'Gross', value: (o) => o.totals.map((t) => `${t.gross} ${t.currency}`).join('; ') },
  { header: 'Dossier', value: (o) => o.dossier?.number },
  { header: 'Created', value: (o) => o.createdAt, time: 'instant' },
  { header: 'Updated', value: (o) => o.updatedAt, time: 'instant' },
];

export const salesOffersRoutes: FastifyPluginAsyncZod<{ offers: SalesOffersService }> = async (
  app,
  { offers },
) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['sales-offers'];

  listRoutes(app, {
    path: '/sales-offers',
    tags,
    summary:
      'Sales offers the user may see (a customer: their party’s, never drafts); `format=csv|xlsx` exports',
    query: salesOfferListQuerySchema,
    item: salesOfferListItemSchema,
    read: offers,
    columns,
    visibility: salesOfferFieldVisibility,
    exportAt: 'format',
  });
  app.get(
    '/sales-offers/export',
    {
      schema: {
        tags,
        summary: 'The whole filtered list as CSV or XLSX',
        // The whole list: no paging parameters (a cursor here would be accepted and mean nothing).
        querystring: salesOfferListQuerySchema
          .omit({ page: true, pageSize: true, cursor: true })
          .extend({ ...exportQuery.shape, format: exportQuery.shape.format.default('csv') }),
        response: problemResponses,
      },
    },
    async (request, reply) => {
      const { format, ...rest } = request.query;
      const { query, display } = splitExportQuery(rest, false);
      const all = offers.all(request.user, { ...(query as typeof rest), page: 1, pageSize: 50 });
      return sendExport(
        reply,
        format,
        'sales-offers',
        columns,
        all,
        { scope: scopeOf(request.user), visibility: salesOfferFieldVisibility },
        display,
      );
    },
  );
  app.get(
    '/sales-offers/:id',
    { schema: { tags, params, response: { 200: salesOfferSchema, ...problemResponses } } },
    (request) => offers.get(request.user, request.params.id),
  );
  app.post(
    '/sales-offers',
    {
      schema: {
        tags,
        summary: 'Create a draft offer (staff); its number is taken from the offer series',
        body: salesOfferCreateSchema,
        response: { 201: salesOfferSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await offers.create(request.user, request.body)),
  );
  app.patch(
    '/sales-offers/:id',
    {
      schema: {
        tags,
        summary: 'Edit a draft (staff); `lines` replaces every line',
        params,
        body: salesOfferUpdateSchema,
        response: { 200: salesOfferSchema, ...problemResponses },
      },
    },
    (request) => offers.update(request.user, request.params.id, request.body),
  );
  app.delete(
    '/sales-offers/:id',
    {
      schema: {
        tags,
        summary: 'Delete a draft (staff)',
        params,
        response: { 204: z.null(), ...problemResponses },
      },
    },
    async (request, reply) => {
      await offers.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/sales-offers/:id/transitions',
    {
      schema: {
        tags,
        summary: 'Send, accept, reject or cancel the offer',
        description:
          'Sending (staff) needs a line, a contact email and a valid-until not in the past, and mails the ' +
          'PDF. Accepting (staff or the customer) creates the booked dossier with every line as revenue, ' +
          'once; after valid-until the offer becomes expired and the answer is 409.',
        params,
        body: salesOfferTransitionSchema,
        response: { 200: salesOfferSchema, ...problemResponses },
      },
    },
    (request) => offers.transition(request.user, request.params.id, request.body),
  );
  app.get(
    '/sales-offers/:id/pdf',
    {
      schema: {
        tags,
        summary: 'The offer as a PDF, rendered now',
        params,
        response: problemResponses,
      },
    },
    async (request, reply) => {
      const { fileName, bytes } = await offers.pdf(request.user, request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(bytes as never);
    },
  );
  app.get(
    '/sales-offers/:id/history',
    { schema: { tags, params, response: { 200: historyResponse, ...problemResponses } } },
    (request) => offers.history(request.user, request.params.id),
  );
};
