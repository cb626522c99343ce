import {
  planningQuerySchema,
  planningSchema,
  TRANSPORT_MODE_LABELS,
  TRANSPORT_STATUS_LABELS,
  type Transport,
  transportCreateSchema,
  transportFieldVisibility,
  transportListQuerySchema,
  transportSchema,
  transportTransitionSchema,
  transportUpdateSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ExportColumn } from '../../records/export.ts';
import { historyResponse, idParams, listRoutes, problemResponses } from '../../records/routes.ts';
import type { TransportsService } from './transports.service.ts';

const columns: ExportColumn<Transport>[] = [
  { header: 'Dossier', value: (t) => t.dossier.number },
  { header: 'Leg', value: (t) => t.sequence },
  { header: 'Status', value: (t) => TRANSPORT_STATUS_LABELS[t.status] },
  { header: 'Mode', value: (t) => TRANSPORT_MODE_LABELS[t.mode] },
  { header: 'Carrier', value: (t) => t.carrier?.name },
  { header: 'Vehicle', value: (t) => t.truckPlate ?? t.vesselName ?? t.flightNumber },
  { header: 'Pickup', value: (t) => t.pickupLocode },
  { header: 'Pickup from', value: (t) => t.pickupFrom, time: 'instant' },
  { header: 'Pickup to', value: (t) => t.pickupTo, time: 'instant' },
  { header: 'Delivery', value: (t) => t.deliveryLocode },
  { header: 'Delivery from', value: (t) => t.deliveryFrom, time: 'instant' },
  { header: 'Delivery to', value: (t) => t.deliveryTo, time: 'instant' },
  { header: 'Driver', value: (t) => t.driverName, field: 'driverName' },
  { header: 'Driver phone', value: (t) => t.driverPhone, field: 'driverPhone' },
  { header: 'Containers', value: (t) => t.containers.join(' ') },
  { header: 'Remark for the customer', value: (t) => t.customerRemark },
  { header: 'Internal notes', value: (t) => t.notes, field: 'notes' },
];

export const transportsRoutes: FastifyPluginAsyncZod<{ transports: TransportsService }> = async (
  app,
  { transports },
) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['transports'];
  listRoutes(app, {
    path: '/transports',
    tags,
    summary: 'Transport legs the user may see; `format=csv|xlsx` exports the filtered list',
    query: transportListQuerySchema,
    item: transportSchema,
    read: transports,
    columns,
    visibility: transportFieldVisibility,
    exportAt: 'format',
  });
  app.get(
    '/planning',
    {
      schema: {
        tags,
        summary:
          'Transports touching a date range, in time order a page at a time (total on every page), with missing carriers, passed pickups and vehicle overlaps flagged',
        querystring: planningQuerySchema,
        response: { 200: planningSchema, ...problemResponses },
      },
    },
    (request) => transports.planning(request.user, request.query),
  );
  app.get(
    '/transports/:id',
    { schema: { tags, params: idParams, response: { 200: transportSchema, ...problemResponses } } },
    (request) => transports.get(request.user, request.params.id),
  );
  app.post(
    '/transports',
    {
      schema: {
        tags,
        summary: 'Add a leg to a dossier (staff)',
        body: transportCreateSchema,
        response: { 201: transportSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await transports.create(request.user, request.body)),
  );
  app.patch(
    '/transports/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: transportUpdateSchema,
        response: { 200: transportSchema, ...problemResponses },
      },
    },
    (request) => transports.update(request.user, request.params.id, request.body),
  );
  app.post(
    '/transports/:id/transitions',
    {
      schema: {
        tags,
        params: idParams,
        body: transportTransitionSchema,
        response: { 200: transportSchema, ...problemResponses },
      },
    },
    (request) =>
      transports.transition(request.user, request.params.id, request.body.to, request.body.version),
  );
  app.get(
    '/transports/:id/history',
    { schema: { tags, params: idParams, response: { 200: historyResponse, ...problemResponses } } },
    (request) => transports.history(request.user, request.params.id),
  );
};
