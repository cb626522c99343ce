import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpProblem } from '../http/problem.ts';
import { createTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { INVALID_CURSOR_MESSAGE } from './cursor.ts';
import { cursorAt, defineListSpec, EXACT_COUNT_LIMIT, type ListSpec, listAll, listPage } from './list.ts';
import type { Scope } from './scope.ts';

let db: TestDatabase;
const spec = defineListSpec({
  name: 'items',
  // `secret` stands for an internal figure (a margin): staff see it, a scoped viewer never does.
  visibility: { internal: ['secret'] },
  from: sql`items t`,
  id: { expr: 't.id', type: 'int4', nullable: false },
  sortable: {
    n: { expr: 't.n', type: 'int4', nullable: true },
    label: { expr: 't.label', type: 'text', nullable: false },
    secret: { expr: 't.secret', type: 'int4', nullable: false },
  },
  filterFields: { secretMax: 'secret' },
  defaultSort: 'label',
  search: sql`t.label`,
  searchFields: ['label'],
});
type Row = { id: number; n: number | null; label: string; secret: number | null };
const ROWS = 60_000;
const STAFF: Scope = { all: true };
const CUSTOMER: Scope = { all: false, partyId: '00000000-0000-0000-0000-00000000000a' };

beforeAll(async () => {
  db = await createTestDatabase();
  await sql`create table items (id int primary key, n int, label text not null, secret int not null)`.execute(
    db.db,
  );
  // Every 7th n is NULL; labels repeat so sorts need the id tie-breaker.
  await sql`insert into items select i, case when i % 7 = 0 then null else i % 100 end, 'L' || lpad((i % 500)::text, 3, '0'), 1000000 + i
            from generate_series(1, ${ROWS}::int) i`.execute(db.db);
  await sql`analyze items`.execute(db.db);
});
afterAll(() => db.drop());

const page = (over: Partial<Parameters<typeof listPage>[2]> = {}, listSpec: ListSpec = spec) =>
  listPage<Row, Row>(
    db.db,
    listSpec,
    { select: sql`t.*`, where: [], scope: STAFF, page: 1, pageSize: 50, ...over },
    (r) => r,
  );

/** The problem a call fails with: status and the fields it names. */
async function problemOf(work: Promise<unknown>) {
  const e = await work.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof HttpProblem)) throw new Error(`expected a problem, got ${String(e)}`);
  return { status: e.status, fields: (e.options.errors ?? []).map((x) => x.field), errors: e.options.errors };
}

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
        { select: sql`t.*`, where: [sql`t.id <= 3000`], scope: STAFF, sort },
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

describe('field visibility in lists', () => {
  it('shows a scoped viewer hidden fields as null, staff their values', async () => {
    const staff = await page({ where: [sql`t.id <= 3`] });
    expect(staff.items.map((r) => r.secret)).toEqual([1000001, 1000002, 1000003]);
    const customer = await page({ where: [sql`t.id <= 3`], scope: CUSTOMER });
    expect(customer.items.map((r) => r.secret)).toEqual([null, null, null]);
    expect(customer.items.map((r) => r.label)).toEqual(staff.items.map((r) => r.label));
  });

  it('refuses a sort by a hidden field with a 400 on sort that does not name it among the choices', async () => {
    for (const sort of ['secret', '-secret', 'label,-secret']) {
      const p = await problemOf(page({ scope: CUSTOMER, sort }));
      expect(p, sort).toMatchObject({ status: 400, fields: ['sort'] });
      expect(p.errors?.[0]?.message).toBe('Cannot sort by "secret"; use n, label');
    }
    expect((await page({ sort: '-secret', pageSize: 2 })).items.map((r) => r.secret)).toEqual([
      1060000, 1059999,
    ]);
  });

  it('refuses a filter on a hidden field with a 400 on that parameter', async () => {
    const p = await problemOf(page({ scope: CUSTOMER, filters: { secretMax: 5, label: 'x' } }));
    expect(p).toMatchObject({ status: 400, fields: ['secretMax'] });
    const named = await problemOf(page({ scope: CUSTOMER, filters: { secret: '1' } }));
    expect(named).toMatchObject({ status: 400, fields: ['secret'] });
    // Absent parameters are not filters; staff may filter by it.
    await expect(page({ scope: CUSTOMER, filters: { secretMax: undefined } })).resolves.toBeDefined();
    await expect(page({ filters: { secretMax: 5 } })).resolves.toBeDefined();
  });

  it('refuses at definition a list whose q searches an internal field', () => {
    const bad = { ...spec, name: 'bad', searchFields: ['label', 'secret'] };
    expect(() => defineListSpec(bad)).toThrow(/q must not search internal fields \(secret\)/);
    expect(() => defineListSpec({ ...spec, name: 'undeclared', searchFields: undefined })).toThrow(
      /declare the searchFields/,
    );
  });
});

describe('cursors', () => {
  const invalid = { status: 400, fields: ['cursor'] };

  it('are opaque: a staff cursor of a sort by a hidden figure does not carry the figure readably', async () => {
    const first = await page({ sort: '-secret', pageSize: 3 });
    const cursor = first.nextCursor as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const bytes = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(bytes).not.toContain('1059998');
    expect(bytes).not.toContain(String(first.items.at(-1)?.id));
    // Two cursors for the same position differ (a fresh nonce each), so none can be guessed from another.
    expect((await page({ sort: '-secret', pageSize: 3 })).nextCursor).not.toBe(cursor);
    const next = await page({ sort: '-secret', pageSize: 3, cursor });
    expect(next.items.map((r) => r.secret)).toEqual([1059997, 1059996, 1059995]);
  });

  it('refuse forged, tampered and random values with a 400 on cursor and the first-page hint', async () => {
    const forged = [
      Buffer.from(JSON.stringify(['not-a-date', '0b9c3a4e-3a8e-4c56-9d0e-1f2a3b4c5d6e'])).toString(
        'base64url',
      ),
      Buffer.from(JSON.stringify(['x', 'y'])).toString('base64url'),
      Buffer.from(JSON.stringify(['L001', '1'])).toString('base64url'),
      randomBytes(64).toString('base64url'),
      randomBytes(8).toString('base64url'),
      'not base64 at all!',
      '',
    ];
    for (const cursor of forged) {
      const p = await problemOf(page({ cursor: cursor || '=' }));
      expect(p, cursor).toMatchObject(invalid);
      expect(p.errors?.[0]?.message).toBe(INVALID_CURSOR_MESSAGE);
    }
    const real = (await page({ pageSize: 2 })).nextCursor as string;
    const raw = Buffer.from(real, 'base64url');
    for (const i of [0, 13, raw.length - 1]) {
      const tampered = Buffer.from(raw);
      tampered[i] = (tampered[i] ?? 0) ^ 1;
      expect(await problemOf(page({ cursor: tampered.toString('base64url') })), `byte ${i}`).toMatchObject(
        invalid,
      );
    }
  });

  it('can be made by the server at a given row (cursorAt) and continue right after it', async () => {
    const where = [sql`t.id <= 100`];
    const all = await page({ where, sort: 'label', pageSize: 100 });
    const at = all.items[9] as Row;
    const cursor = await cursorAt(db.db, spec, { where, scope: STAFF, sort: 'label' }, [
      at.label,
      String(at.id),
    ]);
    const next = await page({ where, sort: 'label', pageSize: 3, cursor });
    expect(next.items).toEqual(all.items.slice(10, 13));
  });

  it('open only for the list, sort, filters, q and scope they were made for', async () => {
    const cursor = (await page({ sort: 'n', where: [sql`t.id <= 100`], pageSize: 5 })).nextCursor as string;
    const same = { sort: 'n', where: [sql`t.id <= 100`], pageSize: 5, cursor };
    await expect(page(same)).resolves.toMatchObject({ page: 0 });
    const other = defineListSpec({ ...spec, name: 'other-items' });
    expect(await problemOf(page(same, other))).toMatchObject(invalid);
    expect(await problemOf(page({ ...same, sort: '-n' }))).toMatchObject(invalid);
    expect(await problemOf(page({ ...same, sort: 'label' }))).toMatchObject(invalid);
    expect(await problemOf(page({ ...same, where: [sql`t.id <= 101`] }))).toMatchObject(invalid);
    expect(await problemOf(page({ ...same, where: [] }))).toMatchObject(invalid);
    expect(await problemOf(page({ ...same, q: 'L0' }))).toMatchObject(invalid);
  });
});
