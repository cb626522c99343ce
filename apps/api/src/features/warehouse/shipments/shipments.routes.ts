import {
  SHIPMENT_STATUS_LABELS,
  type ShipmentListItem,
  shipmentCreateSchema,
  shipmentDeclarationSchema,
  shipmentFieldVisibility,
  shipmentListItemSchema,
  shipmentListQuerySchema,
  shipmentPicksSchema,
  shipmentSchema,
  shipmentTransitionSchema,
  shipmentUpdateSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExportColumn } from '../../../records/export.ts';
import {
  historyResponse,
  keyParams,
  listRoutes,
  problemResponses,
  resolveRecordKeys,
} from '../../../records/routes.ts';
import { warehouseGate } from '../access.ts';
import type { ShipmentsService } from './shipments.service.ts';

const columns: ExportColumn<ShipmentListItem>[] = [
  { header: 'Shipment', value: (i) => i.number },
  { header: 'Status', value: (i) => SHIPMENT_STATUS_LABELS[i.status] },
  { header: 'Owner', value: (i) => i.owner.name },
  { header: 'Owner code', value: (i) => i.owner.code },
  { header: 'Consignee', value: (i) => i.consigneeName },
  { header: 'Planned', value: (i) => i.plannedDate, time: 'day' },
  { header: 'Lines', value: (i) => i.lines },
  { header: 'Quantity', value: (i) => i.quantity },
  { header: 'Declaration', value: (i) => i.declaration?.lrn },
  { header: 'Customer reference', value: (i) => i.customerReference },
  { header: 'Created', value: (i) => i.createdAt, time: 'instant' },
  { header: 'Updated', value: (i) => i.updatedAt, time: 'instant' },
];

const idParams = keyParams('shipment');

export const shipmentsRoutes: FastifyPluginAsyncZod<{ shipments: ShipmentsService }> = async (
  app,
  { shipments },
) => {
  warehouseGate(app);
  resolveRecordKeys(app, (key) => shipments.idOf(key));
  const tags = ['shipments'];
  const one = { 200: shipmentSchema, ...problemResponses, 422: problemResponses[409] };

  listRoutes(app, {
    path: '/shipments',
    tags,
    summary: 'Shipments out of the customs warehouse (customers: their own party’s)',
    query: shipmentListQuerySchema,
    item: shipmentListItemSchema,
    read: shipments,
    columns,
    visibility: shipmentFieldVisibility,
  });
  app.post(
    '/shipments',
    {
      schema: {
        tags,
        summary: 'Draft a shipment (customers: from their own stock)',
        body: shipmentCreateSchema,
        response: { 201: shipmentSchema, ...problemResponses, 422: problemResponses[409] },
      },
    },
    async (request, reply) => reply.status(201).send(await shipments.create(request.user, request.body)),
  );
  app.get(
    '/shipments/:id',
    { schema: { tags, params: idParams, response: { 200: shipmentSchema, ...problemResponses } } },
    (request) => shipments.get(request.user, request.params.id),
  );
  app.patch(
    '/shipments/:id',
    {
      schema: {
        tags,
        summary: 'Edit a draft; `lines` replaces all lines',
        params: idParams,
        body: shipmentUpdateSchema,
        response: one,
      },
    },
    (request) => shipments.update(request.user, request.params.id, request.body),
  );
  app.delete(
    '/shipments/:id',
    {
      schema: {
        tags,
        summary: 'Delete a draft',
        params: idParams,
        response: { 204: z.null(), ...problemResponses },
      },
    },
    async (request, reply) => {
      await shipments.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/shipments/:id/transitions',
    {
      schema: {
        tags,
        summary: 'Release (reserve FIFO), pick, pack, ship (pick movements) or cancel (free reservations)',
        description:
          'Release is whole or nothing: a short line answers 409 with `errors[].field` `lines.i.quantity` saying how ' +
          'many are available. Shipping non-Union goods needs the outbound declaration released (4071) or exited (3171).',
        params: idParams,
        body: shipmentTransitionSchema,
        response: one,
      },
    },
    (request) => shipments.transition(request.user, request.params.id, request.body),
  );
  app.post(
    '/shipments/:id/picks',
    {
      schema: {
        tags,
        summary: 'Confirm allocations picked (or put back) while the shipment is being picked',
        description:
          'Staff only, while the status is `picking` (409 otherwise). `picked: true` makes the allocations named ' +
          '`picked` (taken to the packing area: still on hand and reserved until the shipment ships); `false` puts ' +
          "them back to `reserved`. An id that is not one of the shipment's allocations answers 422 on " +
          '`allocationIds.i`. "Mark packed" picks whatever is left.',
        params: idParams,
        body: shipmentPicksSchema,
        response: one,
      },
    },
    (request) => shipments.picks(request.user, request.params.id, request.body),
  );
  app.post(
    '/shipments/:id/declaration',
    {
      schema: {
        tags,
        summary: 'Create the outbound declaration draft (4071 import H1 or 3171 export B1), prefilled',
        params: idParams,
        body: shipmentDeclarationSchema,
        response: { 201: shipmentSchema, ...problemResponses, 422: problemResponses[409] },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await shipments.declare(request.user, request.params.id, request.body)),
  );
  app.get(
    '/shipments/:id/history',
    { schema: { tags, params: idParams, response: { 200: historyResponse, ...problemResponses } } },
    (request) => shipments.history(request.user, request.params.id),
  );
};
