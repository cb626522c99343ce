import type { ListResponse } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { problems } from '../http/problem.ts';

/** How a sortable field is read from SQL and carried in a keyset cursor. */
export interface SortField {
  /** SQL expression, e.g. `d.etd`. */
  expr: string;
  /** Postgres type the cursor value is cast back to. */
  type: 'text' | 'date' | 'timestamptz' | 'numeric' | 'uuid' | 'int4';
  nullable: boolean;
}

export interface SortTerm {
  key: string;
  field: SortField;
  desc: boolean;
}

export interface ListSpec {
  /** The FROM clause, joins included. */
  from: RawBuilder<unknown>;
  /** The unique id, the last tie-breaker of every sort. */
  id: SortField;
  sortable: Record<string, SortField>;
  /** e.g. `-updatedAt`. */
  defaultSort: string;
  /** Text the `q` parameter searches as a substring (ILIKE, served by a trigram index). */
  search?: RawBuilder<unknown>;
  /**
   * A faster first try for `q` (e.g. identifiers by prefix on btree indexes); the substring search
   * runs only when it finds nothing.
   */
  searchPrefix?: (q: string) => RawBuilder<unknown>;
  /** A lighter FROM for counting, when the joins cannot change the count (filters must still resolve). */
  countFrom?: RawBuilder<unknown>;
}

export interface ListRequest {
  select: RawBuilder<unknown>;
  where: RawBuilder<unknown>[];
  sort?: string | undefined;
  q?: string | undefined;
  page: number;
  pageSize: number;
  cursor?: string | undefined;
  /** Count the matches (default); exports skip it. */
  withTotal?: boolean;
}

/** Beyond this many matches the total is estimated from the planner, not counted. */
export const EXACT_COUNT_LIMIT = 10_000;

export function parseSort(spec: ListSpec, sort: string | undefined): SortTerm[] {
  const parts = (sort || spec.defaultSort)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const terms: SortTerm[] = [];
  for (const part of parts) {
    const desc = part.startsWith('-');
    const key = desc ? part.slice(1) : part;
    const field = spec.sortable[key];
    if (!field) {
      throw problems.validation([
        { field: 'sort', message: `Cannot sort by "${key}"; use ${Object.keys(spec.sortable).join(', ')}` },
      ]);
    }
    if (!terms.some((t) => t.key === key)) terms.push({ key, field, desc });
  }
  return terms.slice(0, 4);
}

function escapeLike(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function and(parts: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** A keyset cursor: the last row's sort values, opaque to clients. */
export function encodeCursor(values: (string | null)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** The values of a cursor from encodeCursor(); a 400 on `cursor` when it is not one of `length` values. */
export function decodeCursor(cursor: string, length: number): (string | null)[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (
      Array.isArray(values) &&
      values.length === length &&
      values.every((v) => v === null || typeof v === 'string')
    ) {
      return values as (string | null)[];
    }
  } catch {
    // fall through
  }
  throw problems.validation([
    { field: 'cursor', message: 'The cursor is not valid for this sort; start from the first page' },
  ]);
}

/**
 * Rows after the cursor in (terms…, id) order. Postgres puts NULLs last ascending and first
 * descending, which the per-field indexes serve in both directions. Uniform non-null sorts use a
 * row comparison (one index range); others expand to the equivalent OR chain.
 */
function afterCursor(terms: SortTerm[], id: SortField, values: (string | null)[]): RawBuilder<unknown> {
  const keys = [
    ...terms.map((t) => ({ field: t.field, desc: t.desc })),
    { field: id, desc: terms.at(-1)?.desc ?? false },
  ];
  const ref = (f: SortField) => sql.raw(f.expr);
  const val = (f: SortField, v: string | null) => sql`cast(${v} as ${sql.raw(f.type)})`;
  const uniform =
    keys.every((k) => k.desc === keys[0]?.desc) &&
    keys.every((k, i) => !k.field.nullable || values[i] !== null);
  if (uniform && keys.every((k) => !k.field.nullable)) {
    const lhs = sql.join(keys.map((k) => ref(k.field)));
    const rhs = sql.join(keys.map((k, i) => val(k.field, values[i] ?? null)));
    return keys[0]?.desc ? sql`(${lhs}) < (${rhs})` : sql`(${lhs}) > (${rhs})`;
  }
  const eq = (f: SortField, v: string | null) =>
    v === null ? sql`${ref(f)} is null` : sql`${ref(f)} = ${val(f, v)}`;
  const after = (f: SortField, desc: boolean, v: string | null): RawBuilder<unknown> => {
    if (v === null) return desc ? sql`${ref(f)} is not null` : sql`false`;
    if (desc) return sql`${ref(f)} < ${val(f, v)}`;
    return f.nullable ? sql`(${ref(f)} > ${val(f, v)} or ${ref(f)} is null)` : sql`${ref(f)} > ${val(f, v)}`;
  };
  const branches = keys.map((k, i) =>
    and([
      ...keys.slice(0, i).map((p, j) => eq(p.field, values[j] ?? null)),
      after(k.field, k.desc, values[i] ?? null),
    ]),
  );
  return sql`(${sql.join(branches, sql` or `)})`;
}

/**
 * The number of matches: the planner's estimate first (a fraction of a millisecond); when that is
 * small, an exact count bounded at EXACT_COUNT_LIMIT + 1 rows; when it is large, the estimate itself.
 */
async function countOrEstimate(
  db: Db,
  from: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
): Promise<{ total: number; estimate: boolean }> {
  const plan = await sql<{
    'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }];
  }>`explain (format json) select 1 from ${from} where ${where}`.execute(db);
  const estimated = Math.round(plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
  if (estimated > EXACT_COUNT_LIMIT * 4) return { total: estimated, estimate: true };
  const counted = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from ${from} where ${where} limit ${EXACT_COUNT_LIMIT + 1}) t`.execute(
    db,
  );
  const n = counted.rows[0]?.n ?? 0;
  if (n <= EXACT_COUNT_LIMIT) return { total: n, estimate: false };
  return { total: Math.max(estimated, n), estimate: true };
}

/**
 * One page of a list: filters, `q`, multi-column sort, offset paging for the first pages and keyset
 * paging (`cursor`) for deep ones, with an exact or estimated total.
 */
export async function listPage<Row, Item>(
  db: Db,
  spec: ListSpec,
  req: ListRequest,
  map: (row: Row) => Item,
): Promise<ListResponse<Item>> {
  const q = req.q?.trim();
  const conditions = [...req.where];
  if (q && spec.searchPrefix) {
    // Prefix mode whenever any row matches by prefix (decided the same way for every page and cursor).
    const prefix = spec.searchPrefix(q);
    const found = await sql<{
      found: boolean;
    }>`select exists (select 1 from ${spec.countFrom ?? spec.from} where ${and([...req.where, prefix])}) as found`.execute(
      db,
    );
    if (found.rows[0]?.found || !spec.search) return pageOf(db, spec, req, [...conditions, prefix], map);
  }
  if (q && spec.search) conditions.push(sql`${spec.search} ilike ${`%${escapeLike(q)}%`}`);
  return pageOf(db, spec, req, conditions, map);
}

async function pageOf<Row, Item>(
  db: Db,
  spec: ListSpec,
  req: ListRequest,
  conditions: RawBuilder<unknown>[],
  map: (row: Row) => Item,
): Promise<ListResponse<Item>> {
  const terms = parseSort(spec, req.sort);
  const filter = and(conditions);

  const keyCount = terms.length + 1;
  const pageConditions = req.cursor
    ? [...conditions, afterCursor(terms, spec.id, decodeCursor(req.cursor, keyCount))]
    : conditions;
  const idDesc = terms.at(-1)?.desc ?? false;
  const orderBy = sql.join([
    ...terms.map((t) => sql`${sql.raw(t.field.expr)} ${sql.raw(t.desc ? 'desc' : 'asc')}`),
    sql`${sql.raw(spec.id.expr)} ${sql.raw(idDesc ? 'desc' : 'asc')}`,
  ]);
  const keyColumns = sql.join(
    [...terms.map((t) => t.field), spec.id].map(
      (f, i) => sql`${sql.raw(f.expr)}::text as ${sql.ref(`_k${i}`)}`,
    ),
  );
  const offset = req.cursor ? 0 : (req.page - 1) * req.pageSize;

  const result = await sql<Row & Record<string, string | null>>`
      select ${req.select}, ${keyColumns}
      from ${spec.from}
      where ${and(pageConditions)}
      order by ${orderBy}
      limit ${req.pageSize + 1} offset ${offset}`.execute(db);
  const rows = result.rows;
  const hasMore = rows.length > req.pageSize;
  // A first page that holds every match is its own exact count.
  const count =
    req.withTotal === false
      ? { total: -1, estimate: true }
      : !hasMore && !req.cursor && (rows.length > 0 || offset === 0)
        ? { total: offset + rows.length, estimate: false }
        : await countOrEstimate(db, spec.countFrom ?? spec.from, filter);
  const pageRows = hasMore ? rows.slice(0, req.pageSize) : rows;
  const last = pageRows.at(-1);
  const nextCursor =
    hasMore && last
      ? encodeCursor(Array.from({ length: keyCount }, (_, i) => (last[`_k${i}`] as string | null) ?? null))
      : null;
  return {
    items: pageRows.map(map),
    total: count.total,
    totalIsEstimate: count.estimate,
    page: req.cursor ? 0 : req.page,
    pageSize: req.pageSize,
    nextCursor,
  };
}

/** Every row of a list, in batches through the keyset cursor: constant memory for any size (exports). */
export async function* listAll<Row, Item>(
  db: Db,
  spec: ListSpec,
  req: Omit<ListRequest, 'page' | 'pageSize' | 'cursor'>,
  map: (row: Row) => Item,
  batchSize = 1000,
): AsyncGenerator<Item[]> {
  let cursor: string | undefined;
  for (;;) {
    const page = await listPage(
      db,
      spec,
      { ...req, page: 1, pageSize: batchSize, cursor, withTotal: false },
      map,
    );
    if (page.items.length) yield page.items;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
