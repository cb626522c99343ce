import {
  bookingRequestSchema,
  chargesUpdateSchema,
  DOSSIER_MODE_LABELS,
  DOSSIER_STATUS_LABELS,
  DOSSIER_TYPE_LABELS,
  type DossierListItem,
  dossierCreateSchema,
  dossierFieldVisibility,
  dossierListQuerySchema,
  dossierListRowSchema,
  dossierSchema,
  dossierTransitionResultSchema,
  dossierTransitionSchema,
  dossierUpdateSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExportColumn } from '../../records/export.ts';
import { historyResponse, listRoutes, problemResponses } from '../../records/routes.ts';
import type { DossiersService } from './dossiers.service.ts';

/** A dossier is addressed by its id or its number (`D-2026-000123`), as the route `/dossiers/{dossierId}` is. */
const params = z.object({ id: z.string().min(1).max(64) });

const columns: ExportColumn<DossierListItem>[] = [
  { header: 'Number', value: (d) => d.number },
  { header: 'Status', value: (d) => DOSSIER_STATUS_LABELS[d.status] },
  { header: 'Type', value: (d) => DOSSIER_TYPE_LABELS[d.type] },
  { header: 'Mode', value: (d) => DOSSIER_MODE_LABELS[d.mode] },
  { header: 'Customer', value: (d) => d.customer.name },
  { header: 'Customer code', value: (d) => d.customer.code },
  { header: 'Origin', value: (d) => d.originLocode },
  { header: 'Destination', value: (d) => d.destinationLocode },
  { header: 'ETD', value: (d) => d.etd, time: 'day' },
  { header: 'ETA', value: (d) => d.eta, time: 'day' },
  { header: 'Customer reference', value: (d) => d.customerReference },
  { header: 'Master BL/AWB', value: (d) => d.masterBl },
  { header: 'Containers', value: (d) => d.containerCount },
  { header: 'Profit (EUR)', field: 'profit', value: (d) => (d.profit === null ? null : Number(d.profit)) },
  { header: 'Handler', value: (d) => d.handler?.name },
  { header: 'Updated', value: (d) => d.updatedAt, time: 'instant' },
];

export const dossiersRoutes: FastifyPluginAsyncZod<{ dossiers: DossiersService }> = async (
  app,
  { dossiers },
) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['dossiers'];

  listRoutes(app, {
    path: '/dossiers',
    tags,
    summary: 'Dossiers the user may see; `format=csv|xlsx` streams the whole filtered list',
    query: dossierListQuerySchema,
    item: dossierListRowSchema,
    read: dossiers,
    columns,
    visibility: dossierFieldVisibility,
    exportAt: 'format',
  });
  app.get(
    '/dossiers/:id',
    { schema: { tags, params, response: { 200: dossierSchema, ...problemResponses } } },
    (request) => dossiers.get(request.user, request.params.id),
  );
  app.post(
    '/dossiers',
    {
      schema: {
        tags,
        summary: 'Create a dossier (staff)',
        body: dossierCreateSchema,
        response: { 201: dossierSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await dossiers.create(request.user, request.body)),
  );
  app.post(
    '/dossiers/bookings',
    {
      schema: {
        tags,
        summary: 'A customer books a transport: a dossier in status requested',
        body: bookingRequestSchema,
        response: { 201: dossierSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await dossiers.book(request.user, request.body)),
  );
  app.patch(
    '/dossiers/:id',
    {
      schema: {
        tags,
        params,
        body: dossierUpdateSchema,
        response: { 200: dossierSchema, ...problemResponses },
      },
    },
    (request) => dossiers.update(request.user, request.params.id, request.body),
  );
  app.post(
    '/dossiers/:id/transitions',
    {
      schema: {
        tags,
        summary: 'Move the dossier to another status',
        description:
          'A move that states a fact asks for it: `handlerId` to confirm a booking (booked), `atd` to mark ' +
          'it departed (in_transit), `ata` to mark it arrived; not in the future, an arrival not before ' +
          'the departure. A fact far before the plan (ETD/ETA) is accepted with a `warnings` entry.',
        params,
        body: dossierTransitionSchema,
        response: { 200: dossierTransitionResultSchema, ...problemResponses },
      },
    },
    (request) => dossiers.transition(request.user, request.params.id, request.body),
  );
  app.put(
    '/dossiers/:id/charges',
    {
      schema: {
        tags,
        summary: 'Replace the job-costing lines',
        params,
        body: chargesUpdateSchema,
        response: { 200: dossierSchema, ...problemResponses },
      },
    },
    (request) => dossiers.setCharges(request.user, request.params.id, request.body),
  );
  app.delete(
    '/dossiers/:id',
    { schema: { tags, params, response: { 204: z.null(), ...problemResponses } } },
    async (request, reply) => {
      await dossiers.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/dossiers/:id/history',
    { schema: { tags, params, response: { 200: historyResponse, ...problemResponses } } },
    (request) => dossiers.history(request.user, request.params.id),
  );
};
