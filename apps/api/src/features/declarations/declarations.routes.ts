import {
  DECLARATION_MESSAGE_KIND_LABELS,
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  type DeclarationListItem,
  declarationAmendSchema,
  declarationCancelSchema,
  declarationCreateSchema,
  declarationFieldVisibility,
  declarationListItemSchema,
  declarationListQuerySchema,
  declarationLodgeSchema,
  declarationMessageSchema,
  declarationSchema,
  declarationUpdateSchema,
  uuidSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExportColumn } from '../../records/export.ts';
import { historyResponse, listRoutes, problemResponses } from '../../records/routes.ts';
import type { DeclarationsService } from './declarations.service.ts';

/** A declaration is addressed by its id or its LRN. */
const params = z.object({ id: z.string().min(1).max(64) });

const columns: ExportColumn<DeclarationListItem>[] = [
  { header: 'LRN', value: (i) => i.lrn },
  { header: 'MRN', value: (i) => i.mrn },
  { header: 'Type', value: (i) => DECLARATION_TYPE_LABELS[i.type] },
  { header: 'Category', value: (i) => i.category },
  { header: 'Status', value: (i) => DECLARATION_STATUS_LABELS[i.status] },
  { header: 'Customer', value: (i) => i.customer.name },
  { header: 'Customer code', value: (i) => i.customer.code },
  { header: 'Dossier', value: (i) => i.dossier?.number },
  { header: 'Declarant', value: (i) => i.declarantName },
  { header: 'Customs value (EUR)', value: (i) => Number(i.customsValue) },
  { header: 'Duty and VAT (EUR)', value: (i) => (i.dutyAndVat === null ? null : Number(i.dutyAndVat)) },
  {
    header: 'Last message',
    value: (i) => (i.lastMessage ? DECLARATION_MESSAGE_KIND_LABELS[i.lastMessage.kind] : null),
  },
  { header: 'Last message at', value: (i) => i.lastMessage?.at, time: 'instant' },
  { header: 'Pending request', value: (i) => i.pendingRequest },
  { header: 'Exit confirmed', value: (i) => i.exitedAt, time: 'instant' },
  { header: 'Created', value: (i) => i.createdAt, time: 'instant' },
  { header: 'Updated', value: (i) => i.updatedAt, time: 'instant' },
];

export const declarationsRoutes: FastifyPluginAsyncZod<{ declarations: DeclarationsService }> = async (
  app,
  { declarations },
) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['declarations'];
  const one = { 200: declarationSchema, ...problemResponses, 422: problemResponses[409] };

  listRoutes(app, {
    path: '/declarations',
    tags,
    summary: 'Customs declarations the user may see (customers: their own, once lodged)',
    query: declarationListQuerySchema,
    item: declarationListItemSchema,
    read: declarations,
    columns,
    visibility: declarationFieldVisibility,
  });
  app.get(
    '/declarations/:id',
    { schema: { tags, params, response: { 200: declarationSchema, ...problemResponses } } },
    (request) => declarations.get(request.user, request.params.id),
  );
  app.post(
    '/declarations',
    {
      schema: {
        tags,
        summary:
          'Draft a declaration (staff): from a dossier (`dossierId`, prefilled), as a copy (`copyOf`) or from scratch (`customerId`)',
        body: declarationCreateSchema,
        response: { 201: declarationSchema, ...problemResponses, 422: problemResponses[409] },
      },
    },
    async (request, reply) => reply.status(201).send(await declarations.create(request.user, request.body)),
  );
  app.patch(
    '/declarations/:id',
    {
      schema: {
        tags,
        summary: 'Edit a draft; `items` replaces all items (ADR 0032)',
        params,
        body: declarationUpdateSchema,
        response: one,
      },
    },
    (request) => declarations.update(request.user, request.params.id, request.body),
  );
  app.delete(
    '/declarations/:id',
    { schema: { tags, summary: 'Delete a draft', params, response: { 204: z.null(), ...problemResponses } } },
    async (request, reply) => {
      await declarations.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/declarations/:id/lodge',
    {
      schema: {
        tags,
        summary: 'Lodge a draft through the customs gateway',
        description:
          'Refused with 422 and field errors (`items.2.netMassKg`, `declarant.eori`) when something lodging needs ' +
          'is missing; the answer (MRN, acceptance or rejection) arrives later as a message.',
        params,
        body: declarationLodgeSchema,
        response: one,
      },
    },
    (request) => declarations.lodge(request.user, request.params.id, request.body),
  );
  app.post(
    '/declarations/:id/amend',
    {
      schema: {
        tags,
        summary: 'Request an amendment of an accepted declaration (applied when the authority accepts it)',
        params,
        body: declarationAmendSchema,
        response: one,
      },
    },
    (request) => declarations.amend(request.user, request.params.id, request.body),
  );
  app.post(
    '/declarations/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Request the invalidation of a lodged declaration',
        params,
        body: declarationCancelSchema,
        response: one,
      },
    },
    (request) => declarations.cancel(request.user, request.params.id, request.body),
  );
  app.get(
    '/declarations/:id/messages',
    {
      schema: {
        tags,
        summary: 'The message log: what was sent to the authority and what it answered, oldest first',
        params,
        response: { 200: z.array(declarationMessageSchema), ...problemResponses },
      },
    },
    (request) => declarations.messages(request.user, request.params.id),
  );
  app.get(
    '/declarations/:id/messages/:messageId/xml',
    {
      schema: {
        tags,
        summary: "A message's NCTS XML as it was sent (a transit's IE015, CC015C), to download",
        params: params.extend({ messageId: uuidSchema }),
        response: { 200: z.any(), ...problemResponses },
      },
    },
    async (request, reply) => {
      const { lrn, xml } = await declarations.messageXml(
        request.user,
        request.params.id,
        request.params.messageId,
      );
      return reply
        .type('application/xml')
        .header('content-disposition', `attachment; filename="${lrn}-IE015.xml"`)
        .header('cache-control', 'private, no-store')
        .send(xml);
    },
  );
  app.get(
    '/declarations/:id/history',
    { schema: { tags, params, response: { 200: historyResponse, ...problemResponses } } },
    (request) => declarations.history(request.user, request.params.id),
  );
};
