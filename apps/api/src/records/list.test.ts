import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { EXACT_COUNT_LIMIT, type ListSpec, listAll, listPage } from './list.ts';

let db: TestDatabase;
const spec: ListSpec = {
  from: sql`items t`,
  id: { expr: 't.id', type: 'int4', nullable: false },
  sortable: {
    n: { expr: 't.n', type: 'int4', nullable: true },
    label: { expr: 't.label', type: 'text', nullable: false },
  },
  defaultSort: 'label',
  search: sql`t.label`,
};
type Row = { id: number; n: number | null; label: string };
const ROWS = 60_000;

beforeAll(async () => {
  db = await createTestDatabase();
  await sql`create table items (id int primary key, n int, label text not null)`.execute(db.db);
  // Every 7th n is NULL; labels repeat so sorts need the id tie-breaker.
  await sql`insert into items select i, case when i % 7 = 0 then null else i % 100 end, 'L' || lpad((i % 500)::text, 3, '0')
            from generate_series(1, ${ROWS}::int) i`.execute(db.db);
  await sql`analyze items`.execute(db.db);
});
afterAll(() => db.drop());

const page = (over: Partial<Parameters<typeof listPage>[2]> = {}) =>
  listPage<Row, Row>(db.db, spec, { select: sql`t.*`, where: [], page: 1, pageSize: 50, ...over }, (r) => r);

describe('listPage', () => {
  it('estimates a large total instead of counting it, and counts a small one exactly', async () => {
    const all = await page();
    expect(all.totalIsEstimate).toBe(true);
    expect(all.total).toBeGreaterThan(ROWS * 0.8);
    expect(all.total).toBeLessThan(ROWS * 1.2);
    const few = await page({ where: [sql`t.id <= 1234`] });
    expect(few).toMatchObject({ total: 1234, totalIsEstimate: false });
    expect(EXACT_COUNT_LIMIT).toBe(10_000);
  });

  it('counts a one-page result from the page itself, and a page past the end honestly', async () => {
    expect(await page({ where: [sql`t.id <= 3`] })).toMatchObject({
      total: 3,
      totalIsEstimate: false,
      nextCursor: null,
    });
    const beyond = await page({ where: [sql`t.id <= 30`], page: 3, pageSize: 20 });
    expect(beyond.items).toEqual([]);
    expect(beyond.total).toBe(30);
  });

  it('walks every row exactly once by cursor, with NULLs and mixed directions', async () => {
    for (const sort of ['-n,label', 'n,-label', '-label,n', 'n']) {
      const seen: number[] = [];
      for await (const batch of listAll<Row, Row>(
        db.db,
        spec,
        { select: sql`t.*`, where: [sql`t.id <= 3000`], sort },
        (r) => r,
        400,
      )) {
        seen.push(...batch.map((r) => r.id));
      }
      expect(seen.length, sort).toBe(3000);
      expect(new Set(seen).size, sort).toBe(3000);
    }
  });

  it('orders by the requested sort, NULLs last ascending and first descending', async () => {
    const asc = await page({ sort: 'n', where: [sql`t.id <= 20`], pageSize: 20 });
    expect(asc.items.at(-1)?.n).toBeNull();
    const desc = await page({ sort: '-n', where: [sql`t.id <= 20`], pageSize: 20 });
    expect(desc.items[0]?.n).toBeNull();
    const ns = desc.items.filter((r) => r.n !== null).map((r) => r.n as number);
    expect(ns).toEqual([...ns].sort((a, b) => b - a));
  });

  it('searches with ILIKE, treating % and _ literally', async () => {
    expect((await page({ q: 'L49' })).items.every((r) => r.label.includes('L49'))).toBe(true);
    expect((await page({ q: '%' })).total).toBe(0);
  });
});
