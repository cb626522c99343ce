import type { FieldVisibility, ListResponse } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { problems } from '../http/problem.ts';
import { type CursorBinding, openCursor, sealCursor } from './cursor.ts';
import type { Scope } from './scope.ts';
import { canSee, checkFilters, redact } from './visibility.ts';

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
  /** The list's name; a cursor of one list is refused by every other. */
  name: string;
  /** The area's field visibility: hidden fields are null in items, and cannot be sorted or filtered by. */
  visibility: FieldVisibility;
  /** The FROM clause, joins included. */
  from: RawBuilder<unknown>;
  /** The unique id, the last tie-breaker of every sort. */
  id: SortField;
  /** By API field name, so visibility applies to sorting as to the field. */
  sortable: Record<string, SortField>;
  /** e.g. `-updatedAt`. */
  defaultSort: string;
  /** Query parameters that filter by a field not of their own name (`profitMax` → `profit`). */
  filterFields?: Readonly<Record<string, string>>;
  /** Text the `q` parameter searches as a substring (ILIKE, served by a trigram index). */
  search?: RawBuilder<unknown>;
  /**
   * A faster first try for `q` (e.g. identifiers by prefix on btree indexes); the substring search
   * runs only when it finds nothing.
   */
  searchPrefix?: (q: string) => RawBuilder<unknown>;
  /** The API fields `search` and `searchPrefix` read: none may be internal (see defineListSpec). */
  searchFields?: readonly string[];
  /**
   * Text that `q` searches besides `search` only for viewers who see every field (staff): internal
   * fields staff look records up by (a transport's driver). A customer's `q` never reaches it.
   */
  staffSearch?: RawBuilder<unknown>;
  /** A lighter FROM for counting, when the joins cannot change the count (filters must still resolve). */
  countFrom?: RawBuilder<unknown>;
}

/**
 * A list spec, checked once when the module loads: `q` must never match a field some viewer cannot
 * see (a customer could probe its value letter by letter), so searching an internal field is a
 * programming error that fails at start-up and in every test, not a leak found later.
 */
export function defineListSpec<S extends ListSpec>(spec: S): S {
  if ((spec.search || spec.searchPrefix) && !spec.searchFields?.length)
    throw new Error(`List ${spec.name}: declare the searchFields that q reads`);
  const internal = spec.searchFields?.filter((f) => spec.visibility.internal.includes(f)) ?? [];
  if (internal.length)
    throw new Error(`List ${spec.name}: q must not search internal fields (${internal.join(', ')})`);
  return spec;
}

export interface ListRequest {
  select: RawBuilder<unknown>;
  where: RawBuilder<unknown>[];
  /** Whose list: decides the visible fields; a cursor is bound to it (through `where`). */
  scope: Scope;
  /** The query's filter parameters, checked against the visibility (`where` is built from them). */
  filters?: Record<string, unknown> | undefined;
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

export function parseSort(spec: ListSpec, sort: string | undefined, scope: Scope): SortTerm[] {
  const parts = (sort || spec.defaultSort)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const terms: SortTerm[] = [];
  for (const part of parts) {
    const desc = part.startsWith('-');
    const key = desc ? part.slice(1) : part;
    const field = Object.hasOwn(spec.sortable, key) ? spec.sortable[key] : undefined;
    // A hidden field is refused like an unknown one: the answer must not tell it exists.
    if (!field || !canSee(scope, spec.visibility, key)) {
      const allowed = Object.keys(spec.sortable).filter((k) => canSee(scope, spec.visibility, k));
      throw problems.validation([
        { field: 'sort', message: `Cannot sort by "${key}"; use ${allowed.join(', ')}` },
      ]);
    }
    if (!terms.some((t) => t.key === key)) terms.push({ key, field, desc });
  }
  return terms.slice(0, 4);
}

/** LIKE's wildcards taken literally (`a_b%` matches only itself). */
export function escapeLike(q: string): string {
  return q.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function and(parts: RawBuilder<unknown>[]): RawBuilder<unknown> {
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
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
  checkFilters(req.scope, spec.visibility, req.filters, spec.filterFields);
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
  if (q && spec.search) {
    const text =
      req.scope.all && spec.staffSearch ? sql`(${spec.search} || ' ' || ${spec.staffSearch})` : spec.search;
    conditions.push(sql`${text} ilike ${`%${escapeLike(q)}%`}`);
  }
  return pageOf(db, spec, req, conditions, map);
}

/**
 * A cursor belongs to the list, the sort and the request's own filters and `q` (the scope is among
 * the filters): the SQL and parameters they compile to, so every filter counts without listing them.
 */
function cursorBinding(db: Db, spec: ListSpec, req: ListRequest, terms: SortTerm[]): CursorBinding {
  const where = and(req.where).compile(db);
  return {
    list: spec.name,
    sort: terms.map((t) => `${t.desc ? '-' : ''}${t.key}`).join(','),
    filter: [where.sql, where.parameters, req.q?.trim() ?? ''],
  };
}

/** A cursor at a given row's sort values, for a walk that starts mid-list (benchmarks). */
export function cursorAt(
  db: Db,
  spec: ListSpec,
  req: Pick<ListRequest, 'where' | 'scope' | 'sort' | 'q'>,
  values: (string | null)[],
): Promise<string> {
  const full = { ...req, select: sql`1`, page: 1, pageSize: 1 };
  return sealCursor(db, cursorBinding(db, spec, full, parseSort(spec, req.sort, req.scope)), values);
}

async function pageOf<Row, Item>(
  db: Db,
  spec: ListSpec,
  req: ListRequest,
  conditions: RawBuilder<unknown>[],
  map: (row: Row) => Item,
): Promise<ListResponse<Item>> {
  const terms = parseSort(spec, req.sort, req.scope);
  const filter = and(conditions);

  const keyCount = terms.length + 1;
  // Only a cursor read or made needs the compiled filters: a plain page does not compile them.
  const binding = () => cursorBinding(db, spec, req, terms);
  const pageConditions = req.cursor
    ? [...conditions, afterCursor(terms, spec.id, await openCursor(db, binding(), req.cursor, keyCount))]
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
      ? await sealCursor(
          db,
          binding(),
          Array.from({ length: keyCount }, (_, i) => (last[`_k${i}`] as string | null) ?? null),
        )
      : null;
  return {
    items: pageRows.map((row) => redact(req.scope, spec.visibility, map(row) as object) as Item),
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

/** What a list query carries besides its filters: the page, and a keyset cursor for deep ones. */
interface Paging {
  page: number;
  pageSize: number;
  cursor?: string | undefined;
}

/** The filters, sort and `q` a list and its export share. */
interface ListQuery {
  sort?: string | undefined;
  q?: string | undefined;
}

/**
 * An area's list, declared once: the spec, what a row selects, the conditions (the viewer's scope, a
 * repository method's own arguments, the query's filters, in that order) and the item a row becomes.
 */
export interface ListSource<Q extends ListQuery, Row, Item, A extends unknown[] = []> {
  spec: ListSpec;
  /** The columns; a function where they depend on the viewer. */
  select: RawBuilder<unknown> | ((scope: Scope) => RawBuilder<unknown>);
  /** What the viewer may see: a customer only their party's records (and not its drafts). */
  scope?: (scope: Scope) => RawBuilder<unknown>[];
  /** Conditions beyond the filters: fixed ones, or those of a method's `extra` arguments. */
  where?: (scope: Scope, query: Q, ...extra: A) => RawBuilder<unknown>[];
  filters?: Filters<Q>;
  map: (row: Row) => Item;
}

/**
 * The page and the whole-list (export) reads of a declared list: both take the same scope, filters,
 * sort and `q`; the page adds paging, the export walks every match in batches.
 */
export function listReader<Q extends ListQuery, Row, Item, A extends unknown[] = []>(
  db: Db,
  source: ListSource<Q, Row, Item, A>,
) {
  const base = (scope: Scope, query: Q, extra: A) => ({
    select: typeof source.select === 'function' ? source.select(scope) : source.select,
    where: [
      ...(source.scope?.(scope) ?? []),
      ...(source.where?.(scope, query, ...extra) ?? []),
      ...(source.filters ? whereOf(source.filters, query) : []),
    ],
    scope,
    filters: query as Record<string, unknown>,
    sort: query.sort,
    q: query.q,
  });
  return {
    page: (scope: Scope, query: Q & Paging, ...extra: A): Promise<ListResponse<Item>> =>
      listPage(
        db,
        source.spec,
        { ...base(scope, query, extra), page: query.page, pageSize: query.pageSize, cursor: query.cursor },
        source.map,
      ),
    all: (scope: Scope, query: Q, ...extra: A): AsyncGenerator<Item[]> =>
      listAll(db, source.spec, base(scope, query, extra), source.map),
  };
}

/**
 * The condition a filter's value adds (the whole query at hand for a value read with another, such
 * as a time zone); none (undefined) for a value that filters nothing.
 */
export type Filter<V, Q = unknown> = (
  value: Exclude<V, undefined | null>,
  query: Q,
) => RawBuilder<unknown> | undefined;

/** A list's filters by query parameter, in the order their conditions are written. */
export type Filters<Q> = { [K in keyof Q]?: Filter<Q[K], Q> };

/**
 * The conditions of a query's filters, in the declaration's order. A parameter that is absent, empty
 * text or an empty list filters nothing (`false` and `0` do filter).
 */
export function whereOf<Q extends object>(filters: Filters<Q>, query: Q): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  for (const key of Object.keys(filters) as (keyof Q)[]) {
    const value = query[key];
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length))
      continue;
    const condition = (filters[key] as Filter<unknown, Q>)(value, query);
    if (condition) where.push(condition);
  }
  return where;
}

type Cast = 'date' | 'timestamptz' | 'numeric';
const cast = (value: unknown, type?: Cast) => (type ? sql`${value}::${sql.raw(type)}` : sql`${value}`);

/** The usual filters, on an SQL expression (`d.status`): the same SQL a hand-written condition has. */
export const filter = {
  /** One of the listed values. */
  anyOf: (expr: string) => (values: readonly unknown[]) => sql`${sql.raw(expr)} = any(${values})`,
  equals: (expr: string) => (value: unknown) => sql`${sql.raw(expr)} = ${value}`,
  /** Starts with the value in upper case (article numbers, locations: a btree text_pattern_ops index). */
  startsWith: (expr: string) => (value: string) =>
    sql`${sql.raw(expr)} like ${`${escapeLike(value.toUpperCase())}%`}`,
  /** From this value on, inclusive. */
  atLeast: (expr: string, type?: Cast) => (value: unknown) => sql`${sql.raw(expr)} >= ${cast(value, type)}`,
  /** Up to this value, inclusive. */
  atMost: (expr: string, type?: Cast) => (value: unknown) => sql`${sql.raw(expr)} <= ${cast(value, type)}`,
  /** A yes/no filter: its condition for yes and for no (the query's boolean or `'true'`/`'false'`). */
  yesNo: (yes: RawBuilder<unknown>, no: RawBuilder<unknown>) => (value: boolean | 'true' | 'false') =>
    value === true || value === 'true' ? yes : value === false || value === 'false' ? no : undefined,
};
