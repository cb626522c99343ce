import {
  type ContainerSummary,
  CSV_IMPORT_COLUMNS,
  containerEventFieldVisibility,
  containerEventLinkResponseSchema,
  containerEventLinkSchema,
  containerEventSchema,
  containerListQuerySchema,
  containerSummarySchema,
  containerTimelineSchema,
  csvImportQuerySchema,
  csvImportResponseSchema,
  dossierEventsSchema,
  EQUIPMENT_EVENT_TYPE_LABELS,
  INTEGRATION_KEY_PREFIX,
  ingestResponseSchema,
  integrationKeyCreatedSchema,
  integrationKeyCreateSchema,
  integrationKeySchema,
  MAX_CSV_IMPORT_ROWS,
  MAX_EVENTS_PER_REQUEST,
  MAX_TIMELINE_EVENTS,
  problemSchema,
  SHIPMENT_EVENT_TYPE_LABELS,
  TRANSPORT_EVENT_TYPE_LABELS,
  timelineQuerySchema,
  type UnlinkedEvent,
  unlinkedEventSchema,
  unlinkedListQuerySchema,
} from '@fvg/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { HttpProblem } from '../../http/problem.ts';
import { bearerToken } from '../../plugins/authenticate.ts';
import type { RecordEvents } from '../../records/events.ts';
import type { ExportColumn } from '../../records/export.ts';
import { historyResponse, idParams, listRoutes, problemResponses } from '../../records/routes.ts';
import { containerEventsService, type IngestActor } from './container-events.service.ts';
import { integrationKeysService } from './integration-keys.service.ts';

/** JSON ingest bodies: up to 1000 events of a few kilobytes each. */
const INGEST_BODY_LIMIT = 16 * 1024 * 1024;
const CSV_BODY_LIMIT = 32 * 1024 * 1024;

const containerColumns: ExportColumn<ContainerSummary>[] = [
  { header: 'Container', value: (c) => c.containerNumber },
  { header: 'Size/type', value: (c) => c.ISOEquipmentCode },
  // In words, as the screen says it; the DCSA code has its own column for a machine.
  {
    header: 'Status',
    value: (c) =>
      ({ ...EQUIPMENT_EVENT_TYPE_LABELS, ...TRANSPORT_EVENT_TYPE_LABELS, ...SHIPMENT_EVENT_TYPE_LABELS })[
        c.status
      ] ?? c.status,
  },
  { header: 'Status code', value: (c) => c.status },
  { header: 'Classifier', value: (c) => c.latestEvent.eventClassifierCode },
  { header: 'Empty/laden', value: (c) => c.emptyIndicatorCode },
  { header: 'Location', value: (c) => c.location?.UNLocationCode },
  { header: 'Facility', value: (c) => c.location?.facilityCode },
  { header: 'Last event', value: (c) => c.latestEvent.eventDateTime, time: 'instant' },
  { header: 'Events', value: (c) => c.eventCount },
  { header: 'Dossier', value: (c) => c.dossier?.number },
  { header: 'Customer', value: (c) => c.dossier?.customer.name },
  { header: 'Updated', value: (c) => c.updatedAt, time: 'instant' },
];

const unlinkedColumns: ExportColumn<UnlinkedEvent>[] = [
  { header: 'Event ID', value: (e) => e.eventID },
  { header: 'Type', value: (e) => e.eventType },
  {
    header: 'Code',
    value: (e) => e.equipmentEventTypeCode ?? e.transportEventTypeCode ?? e.shipmentEventTypeCode,
  },
  { header: 'Classifier', value: (e) => e.eventClassifierCode },
  { header: 'Event time', value: (e) => e.eventDateTime, time: 'instant' },
  { header: 'Container', value: (e) => e.equipmentReference },
  { header: 'Location', value: (e) => e.UNLocationCode },
  { header: 'References', value: (e) => e.documentReferences.map((r) => r.documentReferenceValue).join(' ') },
  { header: 'Suggested dossier', value: (e) => e.suggestedDossier?.number },
  { header: 'Why unlinked', value: (e) => e.reason },
  { header: 'Claiming dossiers', value: (e) => e.candidates.map((c) => c.number).join(' ') },
  { header: 'Received', value: (e) => e.receivedAt, time: 'instant' },
];

/** The integration key of a request: `X-API-Key: <key>` or `Authorization: ApiKey <key>`. */
function apiKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim()) return header.trim();
  const match = /^ApiKey\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

/**
 * Container events (DCSA T&T), the containers list and timelines, the dossier's events tab, and the
 * integration API keys. Everything but the ingest route signs in with the bearer token; the ingest
 * route takes an integration's API key (or a staff user's token, for events entered by hand).
 */
export const containerEventsRoutes: FastifyPluginAsyncZod<{ db: Db; events: RecordEvents }> = async (
  app,
  { db, events },
) => {
  const service = containerEventsService(db, events);
  const keys = integrationKeysService(db);
  const tags = ['container-events'];
  const actors = new WeakMap<FastifyRequest, IngestActor>();

  // CSV arrives as text; the parser lives in the service (row numbers, per-row errors).
  // (text/plain is parsed as text by Fastify already.)
  app.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  /** Ingest sign-in: an integration's API key, or a staff user's bearer token (events by hand). */
  async function ingestAuth(request: FastifyRequest) {
    const key = apiKeyOf(request);
    if (key) {
      actors.set(request, { kind: 'key', keyId: (await keys.authenticate(key)).id });
      return;
    }
    if (!bearerToken(request)) {
      throw new HttpProblem(401, 'Unauthorized', 'Send an API key in the X-API-Key header.', {
        headers: { 'www-authenticate': 'ApiKey, Bearer' },
      });
    }
    await app.authenticate(request);
    actors.set(request, { kind: 'user', user: request.user });
  }

  app.post(
    '/container-events',
    {
      bodyLimit: INGEST_BODY_LIMIT,
      // Before the body is read: a request without a valid key never gets its megabytes parsed.
      onRequest: ingestAuth,
      schema: {
        tags,
        summary: `Post DCSA Track & Trace 2.2 events: one event or an array of up to ${MAX_EVENTS_PER_REQUEST}`,
        description: `Authenticated by an integration API key (\`X-API-Key: ${INTEGRATION_KEY_PREFIX}…\` or \`Authorization: ApiKey ${INTEGRATION_KEY_PREFIX}…\`), or by a staff user's bearer token (source \`manual\`). Field names as DCSA spells them; \`eventType\` EQUIPMENT, TRANSPORT or SHIPMENT selects the shape. Idempotent by \`eventID\`: an event sent again answers \`duplicate\` and changes nothing. Each event of an array is validated on its own: the valid ones are stored and the invalid ones reported with their field paths (200). A single event answers 201 (created), 200 (duplicate) or 400 (invalid, problem+json).`,
        body: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())], {
          error: 'Send one DCSA event (an object) or an array of events',
        }),
        response: {
          200: ingestResponseSchema,
          201: ingestResponseSchema,
          ...problemResponses,
          413: problemSchema,
        },
      },
    },
    async (request, reply) => {
      const result = await service.ingest(actors.get(request) as IngestActor, request.body);
      return reply.status(!Array.isArray(request.body) && result.created === 1 ? 201 : 200).send(result);
    },
  );

  app.post(
    '/container-events/import',
    {
      bodyLimit: CSV_BODY_LIMIT,
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: `Import events from CSV (staff): \`mode=preview\` checks every row and stores nothing; \`mode=commit\` stores them in one transaction, and stores nothing while a row is invalid unless \`validRowsOnly=true\``,
        description: `Body: \`text/csv\`, a header row and up to ${MAX_CSV_IMPORT_ROWS} rows, comma or semicolon separated. Columns (any order, case-insensitive, all optional but what the event type needs): ${CSV_IMPORT_COLUMNS.join(', ')}. \`eventType\` may be left out when a type-code column says it; a row without \`eventID\` gets one derived from its cells (importing the file again stores nothing new); \`eventCreatedDateTime\` defaults to the time of the import; \`carrierBookingReference\` and \`transportDocumentReference\` become documentReferences BKG and TRD, and \`equipmentReference\` on a transport or shipment row an EQ reference. Row errors name the CSV column.`,
        querystring: csvImportQuerySchema,
        body: z.string({ error: 'Send the CSV file as text/csv' }),
        response: { 200: csvImportResponseSchema, ...problemResponses, 413: problemSchema },
      },
    },
    (request) => service.importCsv(request.user, request.body, request.query),
  );

  listRoutes(app, {
    path: '/container-events/unlinked',
    tags,
    summary:
      'Events no dossier claims (staff), with the dossier that would match now; `q` is a container-number prefix or a booking/BL',
    query: unlinkedListQuerySchema,
    item: unlinkedEventSchema,
    read: { list: service.listUnlinked, all: service.allUnlinked },
    columns: unlinkedColumns,
    basename: 'unlinked-events',
    visibility: containerEventFieldVisibility,
    exportAt: 'format',
    onRequest: app.authenticate,
  });

  app.get(
    '/container-events/:id',
    {
      onRequest: app.authenticate,
      schema: { tags, params: idParams, response: { 200: containerEventSchema, ...problemResponses } },
    },
    (request) => service.get(request.user, request.params.id),
  );

  app.post(
    '/container-events/:id/link',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary:
          'Link an event to a dossier by hand (staff; dossier id or number), or unlink it with null; `applyToContainer` also links the container’s other unlinked events in the dossier’s window that no other active dossier claims',
        params: idParams,
        body: containerEventLinkSchema,
        response: { 200: containerEventLinkResponseSchema, ...problemResponses },
      },
    },
    (request) => service.link(request.user, request.params.id, request.body),
  );

  app.get(
    '/container-events/:id/history',
    {
      onRequest: app.authenticate,
      schema: { tags, params: idParams, response: { 200: historyResponse, ...problemResponses } },
    },
    (request) => service.history(request.user, request.params.id),
  );

  listRoutes(app, {
    path: '/containers',
    tags,
    summary:
      'Containers with their latest event, location and status (one row per container and dossier); `q` is a container-number prefix; `format=csv|xlsx` exports',
    query: containerListQuerySchema,
    item: containerSummarySchema,
    read: { list: service.listContainers, all: service.allContainers },
    columns: containerColumns,
    visibility: containerEventFieldVisibility,
    exportAt: 'format',
    onRequest: app.authenticate,
  });

  app.get(
    '/containers/:containerNumber/events',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: `A container's timeline, oldest first (the latest ${MAX_TIMELINE_EVENTS} at most): its own events and the transport events of its dossiers; planned and estimated events say when a later one replaced them`,
        params: z.object({ containerNumber: z.string().min(1).max(32) }),
        querystring: timelineQuerySchema,
        response: { 200: containerTimelineSchema, ...problemResponses },
      },
    },
    (request) => service.timeline(request.user, request.params.containerNumber, request.query),
  );

  app.get(
    '/dossiers/:id/events',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['dossiers', ...tags],
        summary: 'The container events linked to a dossier (its events tab), oldest first',
        params: z.object({ id: z.string().min(1).max(64) }),
        querystring: timelineQuerySchema.pick({ limit: true }),
        response: { 200: dossierEventsSchema, ...problemResponses },
      },
    },
    (request) => service.dossierEvents(request.user, request.params.id, request.query.limit),
  );

  const keyTags = ['integration-keys'];
  app.post(
    '/integration-keys',
    {
      onRequest: app.authenticate,
      // The key is shown once and stored hashed: its answer must not be kept for replays (ADR 0020).
      config: { idempotency: false },
      schema: {
        tags: keyTags,
        summary: 'Create an API key for an integration (admin); the key is in this answer only',
        body: integrationKeyCreateSchema,
        response: { 201: integrationKeyCreatedSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await keys.create(request.user, request.body)),
  );
  app.get(
    '/integration-keys',
    {
      onRequest: app.authenticate,
      schema: {
        tags: keyTags,
        summary: 'Integration API keys (admin), live first; never the keys themselves',
        response: { 200: z.array(integrationKeySchema), ...problemResponses },
      },
    },
    (request) => keys.list(request.user),
  );
  app.delete(
    '/integration-keys/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: keyTags,
        summary: 'Revoke an API key (admin); requests with it answer 401 from now on',
        params: idParams,
        response: { 204: z.null(), ...problemResponses },
      },
    },
    async (request, reply) => {
      await keys.revoke(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
