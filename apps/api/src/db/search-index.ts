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

/** The secondary indexes of the search tables (migration 0025): dropped and rebuilt by a full rebuild. */
const SEARCH_INDEXES = [
  'create index search_entries_words on search_entries using gin (words)',
  'create index search_entries_name on search_entries using gin (name gin_trgm_ops) where name is not null',
  'create index search_idents_kind_ident on search_idents (kind, ident)',
  'create index search_idents_party_ident on search_idents (party_id, kind, ident) where party_id is not null',
  'create index search_idents_record on search_idents (kind, record_id)',
];
const indexName = (ddl: string) => ddl.split(' ')[2] as string;

const BATCH = 5000;

export interface RebuildOptions {
  /** Only these kinds (default: all, which empties the index and rebuilds its indexes once at the end). */
  kinds?: readonly SearchKind[];
  /** Records per statement (default 5000): bounds the memory and the lock time of one batch. */
  batchSize?: number;
  /** Called after each batch with the kind and the records indexed so far. */
  onProgress?: (kind: SearchKind, done: number) => void;
}

/**
 * Refills the search index from the sources (migration 0025), the same `search_refresh` the triggers
 * call, in id order, one batch per statement. The triggers keep the index in step on their own; this
 * fills it in the migration, after a bulk load that ran without the triggers (seed:scale), or after a
 * source changed. All kinds: the tables are emptied and their secondary indexes built once at the end
 * (far faster than maintaining them row by row); searches in the meantime find less. Some kinds: their
 * rows are replaced, the indexes kept. Run it in a transaction to make it all or nothing. Answers the
 * number of records indexed per kind.
 */
export async function rebuildSearchIndex<DB>(
  db: Kysely<DB>,
  options: RebuildOptions = {},
): Promise<Record<string, number>> {
  const whole = !options.kinds;
  const kinds = options.kinds ?? SEARCH_KINDS;
  const size = options.batchSize ?? BATCH;
  const counts: Record<string, number> = {};
  if (whole) {
    await sql`truncate search_entries, search_idents`.execute(db);
    for (const ddl of SEARCH_INDEXES) await sql.raw(`drop index if exists ${indexName(ddl)}`).execute(db);
  }
  for (const kind of kinds) {
    const table = sql.table(SEARCH_KIND_TABLES[kind]);
    if (!whole) {
      await sql`delete from search_idents where kind = ${kind}`.execute(db);
      await sql`delete from search_entries where kind = ${kind}`.execute(db);
    }
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
      await sql`select search_refresh(${kind}, ${batch.ids}::uuid[], ${whole})`.execute(db);
      done += batch.ids.length;
      last = batch.last;
      options.onProgress?.(kind, done);
      if (batch.ids.length < size) break;
    }
    counts[kind] = done;
  }
  if (whole) {
    for (const ddl of SEARCH_INDEXES) await sql.raw(ddl).execute(db);
    await sql`analyze search_entries`.execute(db);
    await sql`analyze search_idents`.execute(db);
  }
  return counts;
}
