import {
  auditEntrySchema,
  exportFormatSchema,
  type FieldVisibility,
  listResponseSchema,
  problemSchema,
  uuidSchema,
} from '@fvg/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SessionUser } from '../features/users/users.repository.ts';
import { type ExportColumn, sendExport } from './export.ts';
import { scopeOf } from './scope.ts';

/** Schemas every record area's routes share. */
export const idParams = z.object({ id: uuidSchema });
export const exportQuery = z.object({ format: exportFormatSchema.optional() });
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
  list: (user: SessionUser, query: z.output<Q>) => Promise<unknown>;
  /** The whole filtered list in batches (no paging). */
  all: (user: SessionUser, query: Omit<z.output<Q>, 'page' | 'pageSize' | 'cursor'>) => AsyncIterable<Item[]>;
  columns: ExportColumn<Item>[];
  /** File name base of the export. */
  basename: string;
  visibility: FieldVisibility;
}

/**
 * An area's list and its export, declared once: `GET path` answers a page, `GET path/export` the whole
 * filtered list as CSV or XLSX with the columns the viewer may see. The export takes the list's filters
 * and sort, not its paging.
 */
export function listRoutes<Q extends z.ZodObject, Item>(
  app: FastifyInstance,
  def: ListRoutesDef<Q, Item>,
): void {
  const zod = app.withTypeProvider<ZodTypeProvider>();
  zod.get(
    def.path,
    {
      schema: {
        tags: def.tags,
        summary: def.summary,
        querystring: def.query,
        response: { 200: listResponseSchema(def.item), ...problemResponses },
      },
    },
    // The response schema checks (and strips) the page the area answers.
    (request) => def.list(request.user, request.query as z.output<Q>) as Promise<never>,
  );
  const exportQuerySchema = def.query
    .omit({ page: true, pageSize: true, cursor: true })
    .extend(exportQuery.shape);
  zod.get(
    `${def.path}/export`,
    {
      schema: {
        tags: def.tags,
        summary: 'The whole filtered list as CSV or XLSX',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query as { format?: 'csv' | 'xlsx' } & Record<string, unknown>;
      return sendExport(
        reply,
        format ?? 'csv',
        def.basename,
        def.columns,
        def.all(request.user, query as Omit<z.output<Q>, 'page' | 'pageSize' | 'cursor'>),
        { scope: scopeOf(request.user), visibility: def.visibility },
      );
    },
  );
}
