import { isNonUnion, isValidMrn, isValidSscc, SHIPMENT_STATUSES } from '@fvg/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { warehouseInvariantBreaks } from '../../db/warehouse-invariants.ts';
import { takeSeriesNumber } from '../../features/company/company.service.ts';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { seedDemo } from '../sign-ins.ts';
import { seedWarehouse } from './warehouse.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
});
afterAll(() => db.drop());

const one = async <T>(d: Db, q: ReturnType<typeof sql<T>>) => (await q.execute(d)).rows[0] as T;
describe('seed:scale, the customs warehouse', () => {
  it('generates consistent stock with handling units and shipments in every status, and continues the series', async () => {
    const reports = await seedWarehouse(db.db, { stockRecords: 2000, shipments: 400, skus: 50, batch: 700 });
    expect(reports.map((r) => [r.table, r.rows])).toEqual([
      ['stock_receipts', 200],
      ['shipments', 400],
      ['stock_records', 2000],
      ['handling_units', 6000],
      ['stock_movements', expect.any(Number)],
      ['shipment_lines + allocations', expect.any(Number)],
      ['vacuum (analyze)', 0],
    ]);
    const counts = await one(
      db.db,
      sql<Record<string, number>>`
        select (select count(*)::int from stock_receipts) receipts, (select count(*)::int from stock_records) records,
               (select count(*)::int from handling_units) units, (select count(*)::int from handling_units where kind = 'pallet') pallets,
               (select count(distinct sku)::int from stock_records) skus, (select count(*)::int from shipments) shipments,
               (select count(*)::int from shipment_lines) lines,
               (select count(*)::int from stock_movements where kind = 'receipt') receipt_movements,
               (select count(*)::int from stock_records where quantity_available > 0) available`,
    );
    expect(counts).toEqual({
      receipts: 200,
      records: 2000,
      units: 6000,
      pallets: 2000,
      skus: 50,
      shipments: 400,
      lines: 400,
      receipt_movements: 2000,
      available: 2000,
    });
    expect(await warehouseInvariantBreaks(db.db)).toEqual({
      on_hand_not_movements: 0,
      on_hand_not_roots: 0,
      parent_not_children: 0,
      reserved_not_allocations: 0,
      unit_reserved_not_allocations: 0,
      allocation_state_not_status: 0,
      shipped_without_picks: 0,
      line_not_allocated: 0,
      allocation_of_another_article: 0,
    });

    // Every status; some stock is reserved, some shipped; non-Union goods never leave without a declaration.
    const statuses = (
      await sql<{ status: string; n: number; non_union: number }>`
        select s.status, count(*)::int n, count(*) filter (where r.customs_status <> 'union')::int non_union
        from shipments s left join shipment_allocations a on a.shipment_id = s.id
        left join stock_records r on r.id = a.stock_record_id
        group by s.status`.execute(db.db)
    ).rows;
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(SHIPMENT_STATUSES));
    expect(statuses.find((s) => s.status === 'shipped')?.non_union).toBe(0);
    const shipped = await one(
      db.db,
      sql<{ drafts: number; reserved: number; picked: number; declared: number }>`
        select (select count(*)::int from shipments where status = 'draft') drafts,
               (select coalesce(sum(quantity_reserved), 0)::int from stock_records) reserved,
               (select count(*)::int from stock_movements where kind = 'pick') picked,
               (select count(*)::int from shipments s where outbound_procedure is not null and exists (
                  select 1 from shipment_allocations a join stock_records r on r.id = a.stock_record_id
                  where a.shipment_id = s.id and r.customs_status = 'union')) declared`,
    );
    expect(shipped.drafts).toBeGreaterThan(0);
    expect(shipped.reserved).toBeGreaterThan(0);
    expect(shipped.picked).toBeGreaterThan(100);
    // An outbound procedure only on shipments of non-Union goods.
    expect(shipped.declared).toBe(0);

    // SSCCs are valid GS1 and unique; non-Union stock carries a valid import MRN, Union stock none.
    const units = (
      await sql<{ sscc: string }>`select sscc from handling_units where sscc is not null`.execute(db.db)
    ).rows;
    expect(units).toHaveLength(2000);
    expect(units.filter((u) => !isValidSscc(u.sscc))).toEqual([]);
    const records = (
      await sql<{ customs_status: string; inbound_mrn: string | null }>`
        select distinct customs_status, inbound_mrn from stock_records`.execute(db.db)
    ).rows;
    expect(new Set(records.map((r) => r.customs_status)).size).toBe(3);
    for (const r of records) {
      if (isNonUnion(r.customs_status as 'union'))
        expect(isValidMrn(r.inbound_mrn ?? '', 'import')).toBe(true);
      else expect(r.inbound_mrn).toBeNull();
    }

    // The series go on after the generated numbers; the SSCC sequence past the generated serials.
    const year = new Date().getUTCFullYear();
    const last = await one(
      db.db,
      sql<{ receipt: number; shipment: number }>`
        select (select max(substring(number from '-([0-9]+)$')::int) from stock_receipts where number like ${`%${year}-%`}) receipt,
               (select max(substring(number from '-([0-9]+)$')::int) from shipments where number like ${`%${year}-%`}) shipment`,
    );
    expect((await takeSeriesNumber(db.db, 'stock_receipt', year)).value).toBe(last.receipt + 1);
    expect((await takeSeriesNumber(db.db, 'shipment', year)).value).toBe(last.shipment + 1);

    // A second run adds as much, with new SSCCs and MRNs: nothing collides, everything still holds.
    await seedWarehouse(db.db, { stockRecords: 300, shipments: 60, skus: 50 });
    expect(
      await one(
        db.db,
        sql<{ records: number; ssccs: number; mrns: number; numbers: number }>`
          select (select count(*)::int from stock_records) records,
                 (select count(distinct sscc)::int from handling_units) ssccs,
                 (select count(*)::int - count(distinct inbound_mrn)::int from stock_receipts where inbound_mrn is not null) mrns,
                 (select count(*)::int - count(distinct number)::int from shipments) numbers`,
      ),
    ).toEqual({ records: 2300, ssccs: 2300, mrns: 0, numbers: 0 });
    expect(Object.values(await warehouseInvariantBreaks(db.db)).every((n) => n === 0)).toBe(true);
  });
});
