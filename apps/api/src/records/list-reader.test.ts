import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { defineListSpec, type Filters, filter, type ListSource, listReader, whereOf } from './list.ts';
import type { Scope } from './scope.ts';

const A = '00000000-0000-0000-0000-00000000000a';
const B = '00000000-0000-0000-0000-00000000000b';
const STAFF: Scope = { all: true };
const CUSTOMER_A: Scope = { all: false, partyId: A };

interface Query {
  sort?: string;
  q?: string;
  status?: string[];
  ownerId?: string;
  code?: string;
  from?: string;
  to?: string;
  open?: 'true' | 'false';
  minQty?: number;
}
type Row = { id: number; code: string };

const filters: Filters<Query> = {
  status: filter.anyOf('t.status'),
  ownerId: filter.equals('t.owner_id'),
  code: filter.startsWith('t.code'),
  from: filter.atLeast('t.day', 'date'),
  to: filter.atMost('t.day', 'date'),
  open: filter.yesNo(sql`t.closed_at is null`, sql`t.closed_at is not null`),
  minQty: (n) => sql`t.qty >= ${n}`,
};

const source: ListSource<Query, Row, string, [hidden?: boolean]> = {
  spec: defineListSpec({
    name: 'things',
    visibility: { internal: [] },
    from: sql`things t`,
    id: { expr: 't.id', type: 'int4', nullable: false },
    sortable: { code: { expr: 't.code', type: 'text', nullable: false } },
    defaultSort: 'code',
    search: sql`t.code`,
    searchFields: ['code'],
  }),
  select: sql`t.id, t.code`,
  scope: (scope) => (scope.all ? [] : [sql`t.owner_id = ${scope.partyId}`]),
  where: (_scope, _q, hidden = false) => (hidden ? [] : [sql`not t.hidden`]),
  filters,
  map: (r) => r.code,
};

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await sql`create table things (id int primary key, code text not null, owner_id uuid not null, status text not null,
    day date not null, closed_at timestamptz, qty int not null, hidden boolean not null)`.execute(t.db);
  await sql`insert into things values
    (1, 'AB-1', ${A}, 'open', '2026-01-01', null, 0, false),
    (2, 'AB_2', ${A}, 'done', '2026-01-05', now(), 5, false),
    (3, 'AX-3', ${B}, 'open', '2026-01-10', null, 10, false),
    (4, 'ZZ-4', ${B}, 'done', '2026-01-20', now(), 20, true)`.execute(t.db);
});
afterAll(() => t.drop());

async function both(scope: Scope, query: Query, ...extra: [hidden?: boolean]) {
  const reader = listReader(t.db, source);
  const page = await reader.page(scope, { ...query, page: 1, pageSize: 2 }, ...extra);
  const all: string[] = [];
  for await (const batch of reader.all(scope, query, ...extra)) all.push(...batch);
  return { page: page.items, total: page.total, all };
}

describe('listReader', () => {
  it('answers a page and the whole list (export) from the same declaration', async () => {
    expect(await both(STAFF, {})).toEqual({
      page: ['AB-1', 'AB_2'],
      total: 3,
      all: ['AB-1', 'AB_2', 'AX-3'],
    });
    expect(await both(STAFF, { sort: '-code' })).toEqual({
      page: ['AX-3', 'AB_2'],
      total: 3,
      all: ['AX-3', 'AB_2', 'AB-1'],
    });
  });

  it("applies the viewer's scope and a method's own arguments to both", async () => {
    expect(await both(CUSTOMER_A, { ownerId: B })).toEqual({ page: [], total: 0, all: [] });
    expect((await both(CUSTOMER_A, {})).all).toEqual(['AB-1', 'AB_2']);
    expect((await both(STAFF, { status: ['done'] }, true)).all).toEqual(['AB_2', 'ZZ-4']);
  });

  it('filters by each declared parameter; absent, empty text and empty lists filter nothing, false and 0 do', async () => {
    const codes = async (q: Query) => (await both(STAFF, q)).all;
    expect(await codes({ status: ['open'] })).toEqual(['AB-1', 'AX-3']);
    expect(await codes({ status: [], ownerId: '', code: '' })).toEqual(['AB-1', 'AB_2', 'AX-3']);
    expect(await codes({ from: '2026-01-05', to: '2026-01-10' })).toEqual(['AB_2', 'AX-3']);
    expect(await codes({ open: 'false' })).toEqual(['AB_2']);
    expect(await codes({ open: 'true', ownerId: A })).toEqual(['AB-1']);
    expect(await codes({ minQty: 0 })).toEqual(['AB-1', 'AB_2', 'AX-3']);
    expect(await codes({ minQty: 5 })).toEqual(['AB_2', 'AX-3']);
    // A prefix in any case, its LIKE wildcards taken literally: `ab_` is not `ab-`.
    expect(await codes({ code: 'ab' })).toEqual(['AB-1', 'AB_2']);
    expect(await codes({ code: 'ab_' })).toEqual(['AB_2']);
  });
});

describe('whereOf', () => {
  it("writes the conditions in the declaration's order, whatever the query's order, with bound values", () => {
    const where = whereOf(filters, { to: '2026-02-01', code: 'a%', status: ['open'], open: 'true' });
    const compiled = sql.join(where, sql` and `).compile(t.db);
    expect(compiled.sql).toBe(
      't.status = any($1) and t.code like $2 and t.day <= $3::date and t.closed_at is null',
    );
    expect(compiled.parameters).toEqual([['open'], 'A\\%%', '2026-02-01']);
  });
});
