import { SEARCH_KINDS } from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { rebuildSearchIndex, SEARCH_KIND_TABLES } from '../../db/search-index.ts';
import type { ScaleReport } from './scale.ts';

/**
 * Synthetic index rows have record ids starting `ffffffff-`: no record of the app has one (random v4
 * ids hit it once in four billion, time-ordered v7 ids not before the year 10889), so they can always
 * be told apart from the real ones and counted.
 */
export const SYNTHETIC_ID_FLOOR = 'ffffffff-0000-0000-0000-000000000000';

export interface SearchIndexSize {
  /** Rows of search_entries (one per searchable record). */
  entries: number;
  /** Of these, the synthetic copies (see fillSearchIndex). */
  synthetic: number;
  /** Rows of search_idents (one per identifier of a record). */
  idents: number;
}

export async function searchIndexSize(db: Db): Promise<SearchIndexSize> {
  const r = (
    await sql<{ entries: string; synthetic: string; idents: string }>`
      select (select count(*) from search_entries) entries,
             (select count(*) from search_entries where kind = any(${[...SEARCH_KINDS]}::text[])
                and record_id >= ${SYNTHETIC_ID_FLOOR}::uuid) synthetic,
             (select count(*) from search_idents) idents`.execute(db)
  ).rows[0];
  return { entries: Number(r?.entries), synthetic: Number(r?.synthetic), idents: Number(r?.idents) };
}

export interface SearchFillOptions {
  /** Refill the index from the areas' rows first (rebuildSearchIndex): for data loaded around the triggers. */
  rebuild?: boolean;
  /** Pad search_entries to this many rows with synthetic copies (0: none). */
  rows?: number;
  /** Entries per statement while padding. */
  batch?: number;
  log?: (line: string) => void;
}

/**
 * The search index at volume. The triggers of migration 0025 index every record seed:scale writes as
 * it writes it; `rebuild` refills the index from the areas (what the migration does on a database that
 * had rows before it). `rows` pads the index to a size beyond the areas' records with SYNTHETIC
 * entries of the same shape: each a copy of a real entry (same kind, party, visibility, title,
 * subtitle, link, words and name; a record id of its own, see SYNTHETIC_ID_FLOOR) whose identifiers
 * are the real ones with `P<round>` appended. So a common word or a prefix meets as many candidates
 * as it would among that many records, while an exact identifier still names one record. The links
 * of synthetic entries open the real record they copy; they exist for the benchmark only.
 */
export async function fillSearchIndex(db: Db, opts: SearchFillOptions = {}): Promise<ScaleReport[]> {
  const log = opts.log ?? (() => {});
  const reports: ScaleReport[] = [];
  if (opts.rebuild) {
    const t0 = performance.now();
    let lastLog = t0;
    const counts = await rebuildSearchIndex(db, {
      onProgress: (kind, done) => {
        if (performance.now() - lastLog < 10_000) return;
        lastLog = performance.now();
        log(`  search index: ${kind} ${done.toLocaleString('en-US')} …`);
      },
    });
    const rows = Object.values(counts).reduce((a, n) => a + n, 0);
    const seconds = (performance.now() - t0) / 1000;
    reports.push({
      table: 'search_entries (rebuilt)',
      rows,
      seconds,
      rowsPerSecond: Math.round(rows / seconds),
    });
    log(
      `search index rebuilt: ${rows.toLocaleString('en-US')} records in ${seconds.toFixed(1)} s (${JSON.stringify(counts)})`,
    );
  }
  const target = opts.rows ?? 0;
  const before = await searchIndexSize(db);
  const real = before.entries - before.synthetic;
  if (target <= before.entries || real === 0) return reports;

  const batch = opts.batch ?? 100_000;
  const want = target - before.entries;
  // The real entries numbered once, so the copies cycle through them in rounds.
  await sql`drop table if exists search_pad_source`.execute(db);
  await sql`
    create unlogged table search_pad_source as
    select row_number() over () as n, kind, record_id from search_entries where record_id < ${SYNTHETIC_ID_FLOOR}::uuid`.execute(
    db,
  );
  await sql`create index on search_pad_source (n)`.execute(db);
  const t0 = performance.now();
  let lastLog = t0;
  let done = 0;
  try {
    for (let k = before.synthetic; done < want; ) {
      const n = Math.min(batch, want - done);
      const round = Math.floor(k / real) + 1;
      const from = k % real;
      const take = Math.min(n, real - from);
      await sql`
        with src as materialized (
          select e.*, ('ffffffff' || substr(gen_random_uuid()::text, 9))::uuid as new_id
          from search_pad_source s join search_entries e on e.kind = s.kind and e.record_id = s.record_id
          where s.n > ${from} and s.n <= ${from + take}
        ), ins as (
          insert into search_entries (kind, record_id, party_id, customer_visible, needs_cw, title, subtitle, link,
            words, name, sort_at)
          select kind, new_id, party_id, customer_visible, needs_cw, title, subtitle, link, words, name, sort_at from src
        )
        insert into search_idents (ident, kind, record_id, party_id, customer_visible, needs_cw, label)
        select i.ident || 'P' || ${round}::int, i.kind, s.new_id, i.party_id, i.customer_visible, i.needs_cw, i.label
        from src s join search_idents i on i.kind = s.kind and i.record_id = s.record_id`.execute(db);
      done += take;
      k += take;
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        const s = (lastLog - t0) / 1000;
        log(
          `  search index: ${(before.entries + done).toLocaleString('en-US')} / ${target.toLocaleString('en-US')} entries (${Math.round(done / s).toLocaleString('en-US')} synthetic/s)`,
        );
      }
    }
  } finally {
    await sql`drop table if exists search_pad_source`.execute(db);
  }
  await sql`vacuum (analyze) search_entries`.execute(db);
  await sql`vacuum (analyze) search_idents`.execute(db);
  const seconds = (performance.now() - t0) / 1000;
  reports.push({
    table: 'search_entries (synthetic)',
    rows: done,
    seconds,
    rowsPerSecond: Math.round(done / seconds),
  });
  const after = await searchIndexSize(db);
  log(
    `search index padded: ${after.entries.toLocaleString('en-US')} entries (${(after.entries - after.synthetic).toLocaleString('en-US')} real, ${after.synthetic.toLocaleString('en-US')} synthetic), ${after.idents.toLocaleString('en-US')} identifiers; ${done.toLocaleString('en-US')} added in ${seconds.toFixed(1)} s (analyze included)`,
  );
  return reports;
}

/** Records per kind in the areas' tables: what a complete index holds (some kinds skip none). */
export async function searchSourceCounts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const kind of SEARCH_KINDS) {
    const r = await sql<{ n: string }>`select count(*) n from ${sql.table(SEARCH_KIND_TABLES[kind])}`.execute(
      db,
    );
    out[kind] = Number(r.rows[0]?.n);
  }
  return out;
}
