import {
  NO_INTERNAL_FIELDS,
  partyCreateSchema,
  partyListQuerySchema,
  partySchema,
  partyUpdateSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExportColumn } from '../../records/export.ts';
import {
  historyResponse,
  keyParams,
  listRoutes,
  problemResponses,
  resolveRecordKeys,
} from '../../records/routes.ts';
import type { PartiesService } from './parties.service.ts';

const columns: ExportColumn<z.infer<typeof partySchema>>[] = [
  { header: 'Code', value: (p) => p.code },
  { header: 'Name', value: (p) => p.name },
  { header: 'Roles', value: (p) => p.kinds.join(' ') },
  { header: 'Country', value: (p) => p.countryCode },
  { header: 'VAT number', value: (p) => p.vatNumber },
  { header: 'EORI', value: (p) => p.eori },
  { header: 'Street', value: (p) => p.street },
  { header: 'Postal code', value: (p) => p.postalCode },
  { header: 'City', value: (p) => p.city },
  { header: 'Email', value: (p) => p.email },
  { header: 'Phone', value: (p) => p.phone },
];

/** A party is addressed by its id or its code (`ACME`, any case; ADR 0071). */
const idParams = keyParams('party');

export const partiesRoutes: FastifyPluginAsyncZod<{ parties: PartiesService }> = async (app, { parties }) => {
  app.addHook('onRequest', app.authenticate);
  resolveRecordKeys(app, (key) => parties.idOf(key));
  const tags = ['parties'];

  listRoutes(app, {
    path: '/parties',
    tags,
    summary: 'Parties (customers see only their own); `format=csv|xlsx` exports the whole filtered list',
    query: partyListQuerySchema,
    item: partySchema,
    read: parties,
    columns,
    visibility: NO_INTERNAL_FIELDS,
    exportAt: 'format',
  });
  app.get(
    '/parties/:id',
    { schema: { tags, params: idParams, response: { 200: partySchema, ...problemResponses } } },
    (request) => parties.get(request.user, request.params.id),
  );
  app.post(
    '/parties',
    { schema: { tags, body: partyCreateSchema, response: { 201: partySchema, ...problemResponses } } },
    async (request, reply) => reply.status(201).send(await parties.create(request.user, request.body)),
  );
  app.patch(
    '/parties/:id',
    {
      schema: {
        tags,
        params: idParams,
        body: partyUpdateSchema,
        response: { 200: partySchema, ...problemResponses },
      },
    },
    (request) => parties.update(request.user, request.params.id, request.body),
  );
  app.delete(
    '/parties/:id',
    { schema: { tags, params: idParams, response: { 204: z.null(), ...problemResponses } } },
    async (request, reply) => {
      await parties.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/parties/:id/history',
    { schema: { tags, params: idParams, response: { 200: historyResponse, ...problemResponses } } },
    (request) => parties.history(request.user, request.params.id),
  );
};
