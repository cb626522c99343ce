import { SEARCH_KINDS, type SearchKind } from '@fvg/contracts';
import { type Kysely, sql } from 'kysely';

/** The table whose rows are the records of each kind (the source `search_source_<kind>` reads it). */
export const SEARCH_KIND_TABLES: Readonly<Record<SearchKind, string>> = {
  dossier: 'dossiers',
  container: 'container_summaries',
  transport: 'transports',
  document: 'documents',
  party: 'parties',
  offer: 'sales_offers',
  invoice: 'sales_invoices',
  declaration: 'declarations',
  stock: 'stock_records',
  shipment: 'shipments',
};

const BATCH = 5000;

export interface RebuildOptions {
  /** Only these kinds (default: all). */
  kinds?: readonly SearchKind[];
  /** Records per statement (default 5000): bounds the memory and the lock time of one batch. */
  batchSize?: number;
  /** Called after each batch with the kind and the records indexed so far. */
  onProgress?: (kind: SearchKind, done: number) => void;
}

/**
 * Refills the search index of these kinds from their sources (migration 0025): what the triggers keep
 * in step, rebuilt in id order, one batch per statement. For a bulk load (seed:scale) with the
 * triggers left on this is not needed; it repairs an index after a source changes and fills it in
 * the migration. Answers the number of records indexed per kind.
 */
export async function rebuildSearchIndex<DB>(
  db: Kysely<DB>,
  options: RebuildOptions = {},
): Promise<Record<string, number>> {
  const kinds = options.kinds ?? SEARCH_KINDS;
  const size = options.batchSize ?? BATCH;
  const counts: Record<string, number> = {};
  for (const kind of kinds) {
    const table = sql.table(SEARCH_KIND_TABLES[kind]);
    await sql`delete from search_idents where kind = ${kind}`.execute(db);
    await sql`delete from search_entries where kind = ${kind}`.execute(db);
    let last: string | null = null;
    let done = 0;
    for (;;) {
      const batch: { ids: string[] | null; last: string | null } = (
        await sql<{ ids: string[] | null; last: string | null }>`
          with b as (
            select id from ${table} ${last ? sql`where id > ${last}::uuid` : sql``} order by id limit ${size}
          )
          select array_agg(id) as ids, max(id::text) as last from b`.execute(db)
      ).rows[0] ?? { ids: null, last: null };
      if (!batch.ids?.length) break;
      await sql`select search_refresh(${kind}, ${batch.ids}::uuid[])`.execute(db);
      done += batch.ids.length;
      last = batch.last;
      options.onProgress?.(kind, done);
      if (batch.ids.length < size) break;
    }
    counts[kind] = done;
  }
  return counts;
}
