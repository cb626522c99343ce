import {
  auditEntrySchema,
  DATE_FORMATS,
  exportFormatSchema,
  type FieldVisibility,
  listResponseSchema,
  problemSchema,
  TIME_FORMATS,
  timeZoneSchema,
  uuidSchema,
} from '@fvg/contracts';
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionUser } from '../features/users/users.repository.ts';
import { DEFAULT_EXPORT_DISPLAY, type ExportColumn, type ExportDisplay, sendExport } from './export.ts';
import { scopeOf } from './scope.ts';

/** Schemas every record area's routes share. */
export const idParams = z.object({ id: uuidSchema });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** The `:id` of a record addressed by its id or its own number (ADR 0071): `S-2026-000012`, `ACME`. */
export const keyParams = (what: string) =>
  z.object({
    id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .meta({ description: `The ${what}'s id or its number` }),
  });

/**
 * Turns a number in `:id` into the record's id before the plugin's handlers see it (they keep working by
 * id); an unknown number becomes an id nothing has, which they answer 404 as any missing record, so
 * another party's number answers as its id does.
 */
export function resolveRecordKeys(app: FastifyInstance, idOf: (key: string) => Promise<string | null>) {
  app.addHook('preHandler', async (request) => {
    const params = request.params as { id?: string } | undefined;
    if (params?.id && !UUID.test(params.id)) params.id = (await idOf(params.id)) ?? NIL_UUID;
  });
}
/**
 * An export's own parameters: its format, and how its reader sees dates and times (the web sends the
 * user's display preferences; without them, UTC and the default formats). `tz` is also the zone the
 * lists that filter by day read their days in.
 */
export const exportQuery = z.object({
  format: exportFormatSchema.optional(),
  tz: timeZoneSchema.optional(),
  dateFormat: z.enum(DATE_FORMATS, 'Choose a date format from the list').optional(),
  timeFormat: z.enum(TIME_FORMATS, 'Choose a time format from the list').optional(),
});
/**
 * An export request as the list's query and the reader's display: the list's own `tz` (days read in a
 * zone) stays in its query when it has one; the formats are the export's only.
 */
export function splitExportQuery(
  all: Record<string, unknown>,
  listHasTz: boolean,
): { query: Record<string, unknown>; display: ExportDisplay } {
  const { tz, dateFormat, timeFormat, ...rest } = all as Record<string, unknown> & {
    tz?: string;
    dateFormat?: string;
    timeFormat?: string;
  };
  return {
    query: listHasTz && tz !== undefined ? { ...rest, tz } : rest,
    display: {
      timeZone: tz ?? DEFAULT_EXPORT_DISPLAY.timeZone,
      dateFormat: dateFormat ?? DEFAULT_EXPORT_DISPLAY.dateFormat,
      timeFormat: timeFormat ?? DEFAULT_EXPORT_DISPLAY.timeFormat,
    },
  };
}

export const historyResponse = z.array(auditEntrySchema);
export const problemResponses = {
  400: problemSchema,
  401: problemSchema,
  403: problemSchema,
  404: problemSchema,
  409: problemSchema,
};

/** What `listRoutes` needs of an area: its list query, row schema, reads and export columns. */
export interface ListRoutesDef<Q extends z.ZodObject, Item> {
  /** `/declarations`: the list; `/declarations/export` streams the whole filtered list. */
  path: string;
  tags: string[];
  summary: string;
  query: Q;
  item: z.ZodType<Item>;
  /** The area's reads (its service): a page, and the whole filtered list in batches (no paging). */
  read: {
    list(user: SessionUser, query: z.output<Q>): Promise<unknown>;
    all(user: SessionUser, query: Omit<z.output<Q>, 'page' | 'pageSize' | 'cursor'>): AsyncIterable<Item[]>;
  };
  columns: ExportColumn<Item>[];
  /** File name base of the export; the path's by default (`/stock-receipts` → `stock-receipts`). */
  basename?: string;
  visibility: FieldVisibility;
  /**
   * Where the export is: `path/export` (the default), or the list itself with `format=csv|xlsx`
   * (the areas that came first answer there; their clients keep working).
   */
  exportAt?: 'path' | 'format';
  /** A pre-handler for these routes, where the plugin does not sign every route in (API keys). */
  onRequest?: onRequestHookHandler;
}

/**
 * An area's list and its export, declared once: `GET path` answers a page, `GET path/export` (or
 * `GET path?format=`) the whole filtered list as CSV or XLSX with the columns the viewer may see. The
 * export takes the list's filters and sort, not its paging.
 */
export function listRoutes<Q extends z.ZodObject, Item>(
  app: FastifyInstance,
  def: ListRoutesDef<Q, Item>,
): void {
  const zod = app.withTypeProvider<ZodTypeProvider>();
  const listHasTz = 'tz' in def.query.shape;
  // A list that reads days in a zone keeps its own `tz` (and its default); the export adds the rest.
  const { tz: _tz, ...exportWithoutTz } = exportQuery.shape;
  const exportShape = listHasTz ? exportWithoutTz : exportQuery.shape;
  const send = (
    user: SessionUser,
    reply: FastifyReply,
    format: 'csv' | 'xlsx',
    all: Record<string, unknown>,
  ) => {
    const { query, display } = splitExportQuery(all, listHasTz);
    return sendExport(
      reply,
      format,
      def.basename ?? def.path.slice(1),
      def.columns,
      def.read.all(user, query as Omit<z.output<Q>, 'page' | 'pageSize' | 'cursor'>),
      { scope: scopeOf(user), visibility: def.visibility },
      display,
    );
  };
  const onRequest = def.onRequest ? { onRequest: def.onRequest } : {};
  const formatOnList = def.exportAt === 'format';
  zod.get(
    def.path,
    {
      ...onRequest,
      schema: {
        tags: def.tags,
        summary: def.summary,
        querystring: formatOnList ? def.query.extend(exportShape) : def.query,
        response: { 200: listResponseSchema(def.item), ...problemResponses },
      },
    },
    // The response schema checks (and strips) the page the area answers.
    async (request, reply) => {
      // `format` is there only where the list exports itself (the schema refuses it elsewhere).
      const { format, ...query } = request.query as { format?: 'csv' | 'xlsx' } & Record<string, unknown>;
      if (format) return send(request.user, reply, format, query);
      return def.read.list(request.user, query as z.output<Q>) as Promise<never>;
    },
  );
  if (formatOnList) return;
  const exportQuerySchema = def.query.omit({ page: true, pageSize: true, cursor: true }).extend(exportShape);
  zod.get(
    `${def.path}/export`,
    {
      ...onRequest,
      schema: {
        tags: def.tags,
        summary: 'The whole filtered list as CSV or XLSX',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query as { format?: 'csv' | 'xlsx' } & Record<string, unknown>;
      return send(request.user, reply, format ?? 'csv', query);
    },
  );
}
