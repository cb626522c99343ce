import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isValidContainerNumber } from '@fvg/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStore } from '../features/documents/storage.ts';
import { createTestDatabase, type TestDatabase } from '../test/helpers.ts';
import { seedFirstStart } from './demo/index.ts';
import { seedOperations, seedScale } from './seed-scale.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('seed:scale', () => {
  it('generates valid, consistent volume data and continues the number series', async () => {
    const reports = await seedScale(db.db, { dossiers: 600, chargesPerDossier: 2 });
    expect(reports.map((r) => [r.table, r.rows])).toEqual([
      ['parties', 20],
      ['dossiers', 600],
      ['dossier_charges', 1200],
      ['transports', 1200],
    ]);
    const legs = (
      await sql<{
        n: number;
        bad: number;
      }>`select count(*)::int n, count(*) filter (where delivery_from < pickup_from or pickup_to < pickup_from)::int bad from transports`.execute(
        db.db,
      )
    ).rows[0];
    expect(legs).toEqual({ n: 1200, bad: 0 });
    const counts = (
      await sql<{ d: number; c: number; bad_eta: number; bad_inco: number; bad_totals: number }>`
        select (select count(*)::int from dossiers) d,
               (select count(*)::int from dossier_charges) c,
               (select count(*)::int from dossiers where eta < etd) bad_eta,
               (select count(*)::int from dossiers where mode <> 'sea' and incoterm in ('FOB','CIF','CFR','FAS')) bad_inco,
               (select count(*)::int from dossiers d where profit <> (select coalesce(sum(case kind when 'revenue' then base_amount else -base_amount end), 0) from dossier_charges where dossier_id = d.id)) bad_totals`.execute(
        db.db,
      )
    ).rows[0];
    expect(counts).toEqual({ d: 600, c: 1200, bad_eta: 0, bad_inco: 0, bad_totals: 0 });
    const containers = (
      await sql<{ n: string }>`select unnest(container_numbers) n from dossiers`.execute(db.db)
    ).rows;
    expect(containers.length).toBeGreaterThan(100);
    expect(containers.filter((c) => !isValidContainerNumber(c.n))).toEqual([]);

    // A second run adds more and the series continues without duplicates.
    await seedScale(db.db, { dossiers: 10, chargesPerDossier: 1 });
    const numbers = (
      await sql<{
        n: number;
        u: number;
      }>`select count(*)::int n, count(distinct number)::int u from dossiers`.execute(db.db)
    ).rows[0];
    expect(numbers).toEqual({ n: 610, u: 610 });
    const series = await db.db.selectFrom('number_series').select('last_value').executeTakeFirstOrThrow();
    expect(series.last_value).toBe(610);
  }, 60_000);

  it('adds container events for every container and a document row per dossier, once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fvg-seed-docs-'));
    try {
      const store = new LocalDiskStore(dir);
      const containers = Number(
        (await sql<{ n: string }>`select sum(cardinality(container_numbers)) n from dossiers`.execute(db.db))
          .rows[0]?.n,
      );
      const reports = await seedOperations(db.db, store, { eventsPerContainer: 3, documentsPerDossier: 1 });
      expect(reports.map((r) => [r.table, r.rows])).toEqual([
        ['container_events', containers * 3],
        ['documents', 610],
      ]);
      const linked = (
        await sql<{ unlinked: number; summaries: number }>`
          select (select count(*)::int from container_events where dossier_id is null) unlinked,
                 (select count(*)::int from container_summaries) summaries`.execute(db.db)
      ).rows[0];
      expect(linked).toEqual({ unlinked: 0, summaries: containers });
      // Rows only (no files) unless asked; a second run leaves full tables alone.
      expect(await readdir(dir)).toEqual([]);
      expect(await seedOperations(db.db, store, { eventsPerContainer: 3, documentsPerDossier: 1 })).toEqual(
        [],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('adds to a database with the demo company: its dossiers keep their events and papers, the new ones get theirs', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fvg-seed-demo-'));
    const demo = await createTestDatabase();
    try {
      const store = new LocalDiskStore(dir);
      await seedFirstStart(demo.db, { company: { store } });
      const counts = async () =>
        (
          await sql<{ dossiers: number; events: number; documents: number; max: string }>`
            select (select count(*)::int from dossiers) dossiers, (select count(*)::int from container_events) events,
                   (select count(*)::int from documents) documents, (select max(number) from dossiers) max`.execute(
            demo.db,
          )
        ).rows[0];
      const before = await counts();
      const demoEvents = (
        await sql<{ n: number }>`select count(*)::int n from container_events where source = 'csv'`.execute(
          demo.db,
        )
      ).rows[0]?.n;
      await seedScale(demo.db, { dossiers: 30, chargesPerDossier: 1, transportsPerDossier: 1 });
      const reports = await seedOperations(demo.db, store, { eventsPerContainer: 2, documentsPerDossier: 1 });
      const after = await counts();
      expect(after?.dossiers).toBe((before?.dossiers ?? 0) + 30);
      // Numbers continue after the demo company's.
      expect((after?.max ?? '') > (before?.max ?? '')).toBe(true);
      // Every dossier without events (generated ones, and demo ones that capture none) got them; the demo's stay as they were.
      expect(reports.map((r) => r.table)).toEqual(['container_events', 'documents']);
      expect((after?.events ?? 0) > (before?.events ?? 0)).toBe(true);
      expect(
        (
          await sql<{ n: number }>`select count(*)::int n from container_events where source = 'csv'`.execute(
            demo.db,
          )
        ).rows[0]?.n,
      ).toBe(demoEvents);
      const bare = (
        await sql<{ n: number }>`select count(*)::int n from dossiers d
          where not exists (select 1 from documents x where x.dossier_id = d.id)`.execute(demo.db)
      ).rows[0]?.n;
      expect(bare).toBe(0);
      expect(await seedOperations(demo.db, store, { eventsPerContainer: 2, documentsPerDossier: 1 })).toEqual(
        [],
      );
    } finally {
      await demo.drop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
