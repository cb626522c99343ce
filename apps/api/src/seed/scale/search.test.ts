import { searchQuerySchema } from '@fvg/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchService } from '../../features/search/search.service.ts';
import { usersRepository } from '../../features/users/users.repository.ts';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { seedScale } from './scale.ts';
import { fillSearchIndex, SYNTHETIC_ID_FLOOR, searchIndexSize, searchSourceCounts } from './search.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedScale(db.db, { dossiers: 200 });
});
afterAll(() => db?.drop());

const staff = async () => {
  const row = await usersRepository(db.db).findByEmail('staff@fvg.local');
  const user = row && (await usersRepository(db.db).findSessionUser(row.id));
  if (!user) throw new Error('no staff user');
  return user;
};

describe('seed:scale, search part', () => {
  it('indexes what it seeds through the triggers; a rebuild gives the same index', async () => {
    const sources = await searchSourceCounts(db.db);
    const before = await searchIndexSize(db.db);
    expect(before.synthetic).toBe(0);
    expect(before.entries).toBeGreaterThan(sources.dossier as number);
    const reports = await fillSearchIndex(db.db, { rebuild: true });
    expect(reports.map((r) => r.table)).toEqual(['search_entries (rebuilt)']);
    expect(await searchIndexSize(db.db)).toEqual(before);
  });

  it('pads the index with synthetic entries that never answer an exact identifier, and says how many', async () => {
    const before = await searchIndexSize(db.db);
    const target = before.entries * 2 + 123;
    const reports = await fillSearchIndex(db.db, { rows: target, batch: 500 });
    const after = await searchIndexSize(db.db);
    expect(after.entries).toBe(target);
    expect(after.entries - after.synthetic).toBe(before.entries);
    expect(reports.at(-1)).toMatchObject({
      table: 'search_entries (synthetic)',
      rows: target - before.entries,
    });
    // Every synthetic entry carries its copy's identifiers, suffixed: one round and a bit → P1, P2.
    const suffixes = (
      await sql<{ s: string }>`
        select distinct substring(ident from 'P[0-9]+$') s from search_idents where record_id >= ${SYNTHETIC_ID_FLOOR}::uuid order by 1`.execute(
        db.db,
      )
    ).rows.map((r) => r.s);
    expect(suffixes).toEqual(['P1', 'P2']);

    // A real dossier's number still finds that one dossier exactly; its copies only by prefix.
    const dossier = (
      await sql<{ id: string; number: string }>`select id, number from dossiers limit 1`.execute(db.db)
    ).rows[0] as { id: string; number: string };
    const answer = await searchService(db.db).search(
      await staff(),
      searchQuerySchema.parse({ q: dossier.number, kinds: 'dossier', limit: '10' }),
    );
    const results = answer.groups.find((g) => g.kind === 'dossier')?.results ?? [];
    expect(results.filter((r) => r.match === 'exact').map((r) => r.id)).toEqual([dossier.id]);
    expect(results.filter((r) => r.match === 'prefix').every((r) => r.id >= SYNTHETIC_ID_FLOOR)).toBe(true);

    // Padding again to the same size adds nothing.
    expect(await fillSearchIndex(db.db, { rows: target })).toEqual([]);
  });
});
