import type { Shipment } from '@fvg/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { warehouseInvariantBreaks } from '../../../db/warehouse-invariants.ts';
import { apiTest } from '../../../test/api-test.ts';
import { bearer, DEMO_PASSWORDS, type Json, packingList } from '../../../test/helpers.ts';
import { completeImport, importItem } from '../../declarations/test-support.ts';
import {
  looseLine,
  palletLine,
  receiptBody,
  stockInvariantViolations,
  testMrn,
} from '../stock/test-support.ts';
import { outboundDeclarationDraft } from './shipments.prefill.ts';

const setup = apiTest();
const { db, admin, staff, acme, globex, partyId, call } = setup;
type Auth = { authorization: string };
beforeAll(async () => {
  // Pallets without an SSCC get one from the company prefix.
  const company = (await call('GET', '/company', admin)).body as { version: number };
  await call('PUT', '/company', admin, { version: company.version, gs1CompanyPrefix: '8712345' });
});

const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];
type Receipt = Json & { id: string; lines: (Json & { id: string })[] };

async function receive(owner: string, lines: unknown[], over: Json = {}): Promise<Receipt> {
  const r = await call('POST', '/stock-receipts', admin, receiptBody(owner, lines, over));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Receipt;
}
async function draft(body: Json, auth: Auth = admin): Promise<Shipment> {
  const r = await call('POST', '/shipments', auth, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as unknown as Shipment;
}
async function move(s: Pick<Shipment, 'id' | 'version'>, to: string, auth: Auth = admin, reason?: string) {
  return call('POST', `/shipments/${s.id}/transitions`, auth, {
    to,
    version: s.version,
    ...(reason ? { reason } : {}),
  });
}
async function released(s: Shipment): Promise<Shipment> {
  const r = await move(s, 'released');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as unknown as Shipment;
}
async function stockRow(id: string) {
  return db.db
    .selectFrom('stock_records')
    .select(['quantity_on_hand', 'quantity_reserved', 'quantity_available'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('release reserves first-in first-out', () => {
  it('takes the older receipt of a SKU first, even when it was entered later', async () => {
    const newer = await receive(partyId.ACME, [looseLine({ sku: 'fifo-1', quantity: 50 })], {
      receivedOn: '2026-09-10',
    });
    const older = await receive(partyId.ACME, [looseLine({ sku: 'fifo-1', quantity: 30 })], {
      receivedOn: '2026-08-01',
    });
    const s = await released(
      await draft({ ownerId: partyId.ACME, lines: [{ sku: 'FIFO-1', quantity: 40 }] }),
    );
    expect(s.status).toBe('released');
    expect(s.lines[0]?.allocations.map((a) => [a.stockRecordId, a.quantity, a.state])).toEqual([
      [older.lines[0]?.id, 30, 'reserved'],
      [newer.lines[0]?.id, 10, 'reserved'],
    ]);
    expect(await stockRow(older.lines[0]?.id as string)).toMatchObject({
      quantity_reserved: 30,
      quantity_available: 0,
    });
    expect(await stockRow(newer.lines[0]?.id as string)).toMatchObject({
      quantity_reserved: 10,
      quantity_available: 40,
    });
  });

  it('takes a given stock record, not the oldest of its SKU', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'fifo-2', quantity: 20 })], { receivedOn: '2026-01-01' });
    const later = await receive(partyId.ACME, [looseLine({ sku: 'fifo-2', quantity: 20 })], {
      receivedOn: '2026-05-01',
    });
    const id = later.lines[0]?.id as string;
    const s = await released(
      await draft({ ownerId: partyId.ACME, lines: [{ stockRecordId: id, quantity: 5 }] }),
    );
    expect(s.lines[0]?.sku).toBe('FIFO-2');
    expect(s.lines[0]?.allocations.map((a) => [a.stockRecordId, a.quantity])).toEqual([[id, 5]]);
  });

  it('takes root units by position, and same-SKU lines consume in turn', async () => {
    const rc = await receive(partyId.ACME, [palletLine({ sku: 'fifo-3' })]);
    const s = await released(
      await draft({
        ownerId: partyId.ACME,
        lines: [
          { sku: 'fifo-3', quantity: 50 },
          { sku: 'fifo-3', quantity: 20 },
        ],
      }),
    );
    const [first, second] = s.lines;
    expect(first?.allocations.map((a) => [a.handlingUnit?.kind, a.quantity, a.location])).toEqual([
      ['pallet', 50, 'RTM1-A-01-01'],
    ]);
    // The second line gets what the first left on pallet 1, then pallet 2.
    expect(second?.allocations.map((a) => [a.quantity, a.location])).toEqual([
      [10, 'RTM1-A-01-01'],
      [10, 'RTM1-B-02-01'],
    ]);
    const units = await db.db
      .selectFrom('handling_units')
      .select(['position', 'quantity_reserved'])
      .where('stock_record_id', '=', rc.lines[0]?.id as string)
      .where('parent_id', 'is', null)
      .orderBy('position')
      .execute();
    expect(units.map((u) => u.quantity_reserved)).toEqual([60, 10]);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('refuses the whole release when a line is short, saying how many are available', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'short-1', quantity: 40 })]);
    const plenty = await receive(partyId.ACME, [looseLine({ sku: 'short-2', quantity: 10 })]);
    const s = await draft({
      ownerId: partyId.ACME,
      lines: [
        { sku: 'short-2', quantity: 5 },
        { sku: 'short-1', quantity: 100 },
      ],
    });
    const r = await move(s, 'released');
    expect(r.status).toBe(409);
    expect(errors(r.body)).toEqual([
      { field: 'lines.1.quantity', message: 'Only 40 of 100 pieces of SHORT-1 are available (60 short)' },
    ]);
    expect(await stockRow(plenty.lines[0]?.id as string)).toMatchObject({ quantity_reserved: 0 });
    expect((await call('GET', `/shipments/${s.id}`, admin)).body).toMatchObject({ status: 'draft' });
  });

  /** Ten loose records of `sku`, 10 pieces each, received on consecutive days (oldest first). */
  async function tenRecords(sku: string): Promise<string[]> {
    const ids: string[] = [];
    for (let d = 1; d <= 10; d++) {
      const rc = await receive(partyId.ACME, [looseLine({ sku, quantity: 10 })], {
        receivedOn: `2026-02-${String(d).padStart(2, '0')}`,
      });
      ids.push(rc.lines[0]?.id as string);
    }
    return ids;
  }

  it('locks only the oldest records it needs: a release goes through while a younger one is locked', async () => {
    const ids = await tenRecords('lean-1');
    const s = await draft({ ownerId: partyId.ACME, lines: [{ sku: 'LEAN-1', quantity: 15 }] });
    // Another transaction holds the youngest record; a release that locked every candidate would wait on it.
    let letGo = () => {};
    const gate = new Promise<void>((r) => {
      letGo = r;
    });
    let holder = 0;
    const locked = new Promise<void>((ready) => {
      void db.db.transaction().execute(async (trx) => {
        holder = (await sql<{ pid: number }>`select pg_backend_pid() pid`.execute(trx)).rows[0]?.pid ?? 0;
        await sql`select id from stock_records where id = ${ids[9]} for update`.execute(trx);
        ready();
        await gate;
      });
    });
    await locked;
    const answer = move(s, 'released');
    let settled = false;
    void answer.finally(() => {
      settled = true;
    });
    let blocked = false;
    while (!settled && !blocked) {
      const w = await sql<{ n: number }>`
        select count(*)::int n from pg_stat_activity where ${holder}::int = any(pg_blocking_pids(pid))`.execute(
        db.db,
      );
      blocked = (w.rows[0]?.n ?? 0) > 0;
      if (!blocked) await new Promise((r) => setTimeout(r, 5));
    }
    letGo();
    const r = await answer;
    expect(blocked).toBe(false);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(
      (r.body as unknown as Shipment).lines[0]?.allocations.map((a) => [a.stockRecordId, a.quantity]),
    ).toEqual([
      [ids[0], 10],
      [ids[1], 5],
    ]);
  });

  it('walks past the first few records for a large line, and counts them all when short', async () => {
    const ids = await tenRecords('lean-2');
    const big = await released(
      await draft({ ownerId: partyId.ACME, lines: [{ sku: 'LEAN-2', quantity: 65 }] }),
    );
    expect(big.lines[0]?.allocations.map((a) => [a.stockRecordId, a.quantity])).toEqual([
      ...ids.slice(0, 6).map((id) => [id, 10]),
      [ids[6], 5],
    ]);
    const r = await move(
      await draft({ ownerId: partyId.ACME, lines: [{ sku: 'LEAN-2', quantity: 40 }] }),
      'released',
    );
    expect(r.status).toBe(409);
    expect(errors(r.body)).toEqual([
      { field: 'lines.0.quantity', message: 'Only 35 of 40 pieces of LEAN-2 are available (5 short)' },
    ]);
  });

  it('locks a given record in its place among the FIFO ones, whatever the order of the lines', async () => {
    const ids = await tenRecords('lean-3');
    // The given second-oldest record is taken by line 1 first; the FIFO line gets what is left, oldest first.
    const s = await released(
      await draft({
        ownerId: partyId.ACME,
        lines: [
          { stockRecordId: ids[1], quantity: 6 },
          { sku: 'LEAN-3', quantity: 12 },
          { stockRecordId: ids[8], quantity: 3 },
        ],
      }),
    );
    expect(s.lines.map((l) => l.allocations.map((a) => [a.stockRecordId, a.quantity]))).toEqual([
      [[ids[1], 6]],
      [
        [ids[0], 10],
        [ids[1], 2],
      ],
      [[ids[8], 3]],
    ]);
  });

  it('releases mixing given records and FIFO lines of two SKUs at once all go through', async () => {
    const a = await tenRecords('lean-4');
    const b = await tenRecords('lean-5');
    // The given records are the younger halves, which the FIFO lines (40 of LEAN-4, 16 of LEAN-5) never
    // reach: every release can be served, so any refusal or 500 is the locking's (a deadlock twice over).
    const drafts = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        draft({
          ownerId: partyId.ACME,
          lines:
            i % 2
              ? [
                  { sku: 'LEAN-5', quantity: 2 },
                  { stockRecordId: a[5 + (i % 5)], quantity: 1 },
                  { sku: 'LEAN-4', quantity: 2 },
                ]
              : [
                  { stockRecordId: b[5 + (i % 5)], quantity: 1 },
                  { sku: 'LEAN-4', quantity: 3 },
                  { stockRecordId: a[9 - (i % 5)], quantity: 1 },
                ],
        }),
      ),
    );
    const answers = await Promise.all(drafts.map((d) => move(d, 'released')));
    expect(answers.map((r) => r.status)).toEqual(drafts.map(() => 200));
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('never oversells: 50 releases at once against stock for 20', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'race-1', quantity: 12 })], { receivedOn: '2026-03-01' });
    await receive(partyId.ACME, [palletLine({ sku: 'race-1', quantity: 100 })], { receivedOn: '2026-04-01' });
    // 112 pieces; each shipment wants 5 or 6 → room for about 20 of the 50.
    const drafts = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        draft({ ownerId: partyId.ACME, lines: [{ sku: 'RACE-1', quantity: 5 + (i % 2) }] }),
      ),
    );
    const answers = await Promise.all(drafts.map((d) => move(d, 'released')));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(errors(r.body)[0]?.field).toBe('lines.0.quantity');
      expect(errors(r.body)[0]?.message).toMatch(
        /^Only \d+ of [56] pieces of RACE-1 are available \(\d+ short\)$/,
      );
    }
    const wanted = ok.reduce((s, a) => s + ((a.body as unknown as Shipment).quantity ?? 0), 0);
    const records = await db.db
      .selectFrom('stock_records')
      .select(['id', 'quantity_on_hand', 'quantity_reserved'])
      .where('sku', '=', 'RACE-1')
      .execute();
    const reserved = records.reduce((s, r) => s + r.quantity_reserved, 0);
    const allocated = await db.db
      .selectFrom('shipment_allocations')
      .select((eb) => eb.fn.sum<number>('quantity').as('n'))
      .where(
        'stock_record_id',
        'in',
        records.map((r) => r.id),
      )
      .where('state', '=', 'reserved')
      .executeTakeFirstOrThrow();
    expect(ok.length).toBeGreaterThanOrEqual(18);
    expect(refused.length).toBeGreaterThan(0);
    expect(reserved).toBeLessThanOrEqual(112);
    expect(reserved).toBe(wanted);
    expect(Number(allocated.n)).toBe(reserved);
    // Refused ones only when what was left could not serve them.
    expect(112 - reserved).toBeLessThan(6);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });
});

describe('pick states (issue 27 item 6)', () => {
  const picks = (
    s: Pick<Shipment, 'id' | 'version'>,
    allocationIds: string[],
    picked: boolean,
    auth: Auth = admin,
  ) => call('POST', `/shipments/${s.id}/picks`, auth, { allocationIds, picked, version: s.version });
  const states = (s: Shipment) => s.lines.flatMap((l) => l.allocations.map((a) => a.state));

  it('reserved while released, picked one by one while picking, all picked once packed, shipped at the end', async () => {
    const rc = await receive(partyId.ACME, [palletLine({ sku: 'pick-1' })]);
    const id = rc.lines[0]?.id as string;
    let s = await released(await draft({ ownerId: partyId.ACME, lines: [{ sku: 'pick-1', quantity: 70 }] }));
    expect(states(s)).toEqual(['reserved', 'reserved']);
    // Not before picking starts.
    const early = await picks(s, [s.lines[0]?.allocations[0]?.id as string], true);
    expect(early.status).toBe(409);
    expect(errors(early.body)[0]?.field).toBe('allocationIds');
    s = (await move(s, 'picking')).body as unknown as Shipment;
    const [first, second] = s.lines[0]?.allocations ?? [];
    const r = await picks(s, [first?.id as string], true);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    s = r.body as unknown as Shipment;
    expect(states(s)).toEqual(['picked', 'reserved']);
    // Picked goods are still on hand and still reserved.
    expect(await stockRow(id)).toMatchObject({ quantity_on_hand: 100, quantity_reserved: 70 });
    expect(await warehouseInvariantBreaks(db.db)).toMatchObject({
      allocation_state_not_status: 0,
      reserved_not_allocations: 0,
    });
    // Put back, then picked again: each confirmation is one version and one history entry.
    s = (await picks(s, [first?.id as string], false)).body as unknown as Shipment;
    expect(states(s)).toEqual(['reserved', 'reserved']);
    s = (await picks(s, [first?.id as string], true)).body as unknown as Shipment;
    // "Mark packed" picks what is left.
    s = (await move(s, 'packed')).body as unknown as Shipment;
    expect(states(s)).toEqual(['picked', 'picked']);
    expect(second?.id).toBeDefined();
    expect(await stockRow(id)).toMatchObject({ quantity_on_hand: 100, quantity_reserved: 70 });
    s = (await move(s, 'shipped')).body as unknown as Shipment;
    expect(states(s)).toEqual(['shipped', 'shipped']);
    expect(await stockRow(id)).toMatchObject({ quantity_on_hand: 30, quantity_reserved: 0 });
    expect(await stockInvariantViolations(db.db)).toEqual([]);
    const breaks = await warehouseInvariantBreaks(db.db);
    expect(Object.entries(breaks).filter(([, n]) => n !== 0)).toEqual([]);
    const history = (await call('GET', `/shipments/${s.id}/history`, admin)).body as unknown as {
      action: string;
      changes: { field: string; from: unknown; to: unknown }[];
    }[];
    const pickEntries = history.filter((h) => h.action === 'picked' || h.action === 'put back');
    expect(pickEntries.map((h) => [h.action, h.changes[0]?.to])).toEqual(
      expect.arrayContaining([
        ['picked', '1 of 2'],
        ['put back', '0 of 2'],
      ]),
    );
    expect(pickEntries).toHaveLength(3);
  });

  it('a cancellation after packing frees picked goods too', async () => {
    const rc = await receive(partyId.ACME, [palletLine({ sku: 'pick-2' })]);
    const id = rc.lines[0]?.id as string;
    let s = await released(await draft({ ownerId: partyId.ACME, lines: [{ sku: 'pick-2', quantity: 65 }] }));
    s = (await move(s, 'picking')).body as unknown as Shipment;
    s = (await move(s, 'packed')).body as unknown as Shipment;
    expect(states(s).every((st) => st === 'picked')).toBe(true);
    const r = await move(s, 'cancelled', admin, 'Truck did not come');
    expect(r.status).toBe(200);
    expect(states(r.body as unknown as Shipment).every((st) => st === 'freed')).toBe(true);
    expect(await stockRow(id)).toMatchObject({ quantity_on_hand: 100, quantity_reserved: 0 });
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it("refuses another shipment's allocation on its field, a stale version, bad input, and customers", async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'pick-3', quantity: 10 })]);
    const a = await released(await draft({ ownerId: partyId.ACME, lines: [{ sku: 'pick-3', quantity: 2 }] }));
    const b = await released(await draft({ ownerId: partyId.ACME, lines: [{ sku: 'pick-3', quantity: 3 }] }));
    const picking = (await move(a, 'picking')).body as unknown as Shipment;
    const own = picking.lines[0]?.allocations[0]?.id as string;
    const foreign = b.lines[0]?.allocations[0]?.id as string;
    const wrong = await picks(picking, [own, foreign], true);
    expect(wrong.status).toBe(422);
    expect(errors(wrong.body)).toEqual([
      { field: 'allocationIds.1', message: `Not an allocation of ${picking.number}` },
    ]);
    // Nothing was written: the own allocation is still reserved.
    const after = (await call('GET', `/shipments/${a.id}`, admin)).body as unknown as Shipment;
    expect(states(after)).toEqual(['reserved']);
    expect(after.version).toBe(picking.version);
    expect((await picks({ ...picking, version: picking.version + 1 }, [own], true)).status).toBe(409);
    const empty = await picks(picking, [], true);
    expect(empty.status).toBe(400);
    expect(errors(empty.body)[0]?.field).toBe('allocationIds');
    // Acme's customer may read the shipment, not confirm its picks; Globex's has no warehouse access (another
    // party's shipment answering 404 is the access matrix's).
    expect((await picks(picking, [own], true, acme)).status).toBe(403);
    expect((await picks(picking, [own], true, globex)).status).toBe(403);
    // Staff without the warehouse flag neither.
    expect((await picks(picking, [own], true, staff)).status).toBe(403);
  });
});

describe('ship and cancel', () => {
  it('ships: pick movements, on hand drops, units follow', async () => {
    const rc = await receive(partyId.ACME, [palletLine({ sku: 'ship-1' })]);
    const id = rc.lines[0]?.id as string;
    let s = await released(await draft({ ownerId: partyId.ACME, lines: [{ sku: 'ship-1', quantity: 70 }] }));
    for (const to of ['picking', 'packed', 'shipped']) {
      const r = await move(s, to);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      s = r.body as unknown as Shipment;
    }
    expect(s.status).toBe('shipped');
    expect(s.lines[0]?.allocations.every((a) => a.state === 'shipped')).toBe(true);
    expect(await stockRow(id)).toMatchObject({ quantity_on_hand: 30, quantity_reserved: 0 });
    const picks = await db.db
      .selectFrom('stock_movements')
      .select(['quantity', 'shipment_id'])
      .where('stock_record_id', '=', id)
      .where('kind', '=', 'pick')
      .orderBy('quantity')
      .execute();
    expect(picks).toEqual([
      { quantity: -60, shipment_id: s.id },
      { quantity: -10, shipment_id: s.id },
    ]);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('cancel frees the reservations', async () => {
    const rc = await receive(partyId.ACME, [palletLine({ sku: 'cancel-1' })]);
    const id = rc.lines[0]?.id as string;
    const s = await released(
      await draft({ ownerId: partyId.ACME, lines: [{ sku: 'cancel-1', quantity: 65 }] }),
    );
    expect(await stockRow(id)).toMatchObject({ quantity_reserved: 65 });
    const r = await move(s, 'cancelled', admin, 'Customer changed their mind');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'cancelled', cancelReason: 'Customer changed their mind' });
    expect(await stockRow(id)).toMatchObject({ quantity_reserved: 0, quantity_on_hand: 100 });
    const units = await db.db
      .selectFrom('handling_units')
      .select('quantity_reserved')
      .where('stock_record_id', '=', id)
      .execute();
    expect(units.every((u) => u.quantity_reserved === 0)).toBe(true);
    expect((r.body as unknown as Shipment).lines[0]?.allocations.every((a) => a.state === 'freed')).toBe(
      true,
    );
  });

  it('refuses a transition the lifecycle does not have, and a stale version', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'life-1', quantity: 5 })]);
    const s = await draft({ ownerId: partyId.ACME, lines: [{ sku: 'life-1', quantity: 1 }] });
    expect((await move(s, 'shipped')).status).toBe(409);
    const stale = await move({ ...s, version: s.version + 1 }, 'released');
    expect(stale.status).toBe(409);
    expect(errors(stale.body)[0]?.field).toBe('version');
  });
});

describe('non-Union goods and the outbound declaration', () => {
  async function nonUnion(sku: string, mrn: string) {
    return receive(
      partyId.ACME,
      [looseLine({ sku, quantity: 100, grossMassKg: '200', netMassKg: '150', value: '1000.00' })],
      { customsStatus: 'non_union_customs_warehousing', inboundMrn: mrn, inboundMrnExternal: true },
    );
  }

  it('prefills the 4071 declaration and ships only once it is released', async () => {
    const mrn = testMrn();
    await nonUnion('nu-1', mrn);
    let s = await released(
      await draft({
        ownerId: partyId.ACME,
        outboundProcedure: '4071',
        lines: [{ sku: 'nu-1', quantity: 25 }],
      }),
    );
    expect(s.nonUnion).toBe(true);
    expect(s.shipBlocker).toMatch(/holds non-Union goods: .*4071.*no declaration yet/);
    for (const to of ['picking', 'packed']) s = (await move(s, to)).body as unknown as Shipment;
    const refused = await move(s, 'shipped');
    expect(refused.status).toBe(409);
    expect(errors(refused.body)[0]?.field).toBe('declaration');

    const d = await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version });
    expect(d.status, JSON.stringify(d.body)).toBe(201);
    s = d.body as unknown as Shipment;
    expect(s.declaration).toMatchObject({ type: 'import', status: 'draft' });
    const again = await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version });
    expect(again.status).toBe(409);
    const declaration = (await call('GET', `/declarations/${s.declaration?.id}`, admin)).body as Json & {
      category: string;
      warehouseReference: string;
      items: Json[];
    };
    expect(declaration.category).toBe('H1');
    expect(declaration.warehouseReference).toBe('RTM1');
    expect(declaration.items).toHaveLength(1);
    expect(declaration.items[0]).toMatchObject({
      procedureCode: '4071',
      commodityCode: '85182200',
      countryOfOrigin: 'CN',
      grossMassKg: '50',
      netMassKg: '37.5',
      invoiceValue: '250.00',
      previousDocuments: [{ type: 'MRN', reference: mrn }],
    });

    const blocked = await move(s, 'shipped');
    expect(blocked.status).toBe(409);
    expect(errors(blocked.body)[0]?.message).toMatch(/declaration .* is Draft/);
    // The declaration's state is driven by a direct SQL update (the sandbox's answers are tested with declarations).
    await db.db
      .updateTable('declarations')
      .set({ status: 'released' })
      .where('id', '=', s.declaration?.id as string)
      .execute();
    const get = (await call('GET', `/shipments/${s.id}`, admin)).body as unknown as Shipment;
    expect(get.shipBlocker).toBeNull();
    expect((await move(get, 'shipped')).status).toBe(200);
  });

  it('a 3171 re-export leaves only once its export declaration is exited', async () => {
    await nonUnion('nu-2', testMrn());
    let s = await released(
      await draft({
        ownerId: partyId.ACME,
        outboundProcedure: '3171',
        lines: [{ sku: 'nu-2', quantity: 10 }],
      }),
    );
    s = (await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version }))
      .body as unknown as Shipment;
    expect(s.declaration?.type).toBe('export');
    for (const to of ['picking', 'packed']) s = (await move(s, to)).body as unknown as Shipment;
    await db.db
      .updateTable('declarations')
      .set({ status: 'released' })
      .where('id', '=', s.declaration?.id as string)
      .execute();
    const r = await move(s, 'shipped');
    expect(r.status).toBe(409);
    expect(errors(r.body)[0]?.message).toMatch(/re-export \(3171\) is exited; declaration .* is Released/);
    await db.db
      .updateTable('declarations')
      .set({ status: 'exited' })
      .where('id', '=', s.declaration?.id as string)
      .execute();
    expect((await move(s, 'shipped')).status).toBe(200);
  });

  it('refuses a declaration without procedure (422) or for Union goods only (409)', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'union-1', quantity: 10 })]);
    const noProc = await released(
      await draft({ ownerId: partyId.ACME, lines: [{ sku: 'union-1', quantity: 1 }] }),
    );
    const r1 = await call('POST', `/shipments/${noProc.id}/declaration`, admin, { version: noProc.version });
    expect(r1.status).toBe(422);
    expect(errors(r1.body)[0]?.field).toBe('outboundProcedure');
    const union = await released(
      await draft({
        ownerId: partyId.ACME,
        outboundProcedure: '4071',
        lines: [{ sku: 'union-1', quantity: 1 }],
      }),
    );
    const r2 = await call('POST', `/shipments/${union.id}/declaration`, admin, { version: union.version });
    expect(r2.status).toBe(409);
    expect(r2.body.detail).toMatch(/only Union goods/);
  });
});

describe('no dead ends between a shipment and its outbound declaration (issue 23 item 12)', () => {
  type Declared = Json & { id: string; lrn: string; shipment: { id: string; number: string } | null };
  async function nonUnion(sku: string) {
    return receive(
      partyId.ACME,
      [looseLine({ sku, quantity: 100, grossMassKg: '200', netMassKg: '150', value: '1000.00' })],
      { customsStatus: 'non_union_customs_warehousing', inboundMrn: testMrn(), inboundMrnExternal: true },
    );
  }
  async function get(id: string, auth: Auth = admin) {
    return (await call('GET', `/shipments/${id}`, auth)).body as unknown as Shipment;
  }
  async function setStatus(declarationId: string, status: string) {
    await db.db
      .updateTable('declarations')
      .set({ status: status as 'released' })
      .where('id', '=', declarationId)
      .execute();
  }
  async function declared(sku: string, procedure = '4071'): Promise<Shipment> {
    await nonUnion(sku);
    const s = await released(
      await draft({ ownerId: partyId.ACME, outboundProcedure: procedure, lines: [{ sku, quantity: 10 }] }),
    );
    const d = await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version });
    expect(d.status, JSON.stringify(d.body)).toBe(201);
    return d.body as unknown as Shipment;
  }

  it('refuses to release non-Union goods without their outbound procedure, reserving nothing', async () => {
    const rc = await nonUnion('dead-1');
    const s = await draft({ ownerId: partyId.ACME, lines: [{ sku: 'dead-1', quantity: 5 }] });
    const r = await move(s, 'released');
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(errors(r.body)[0]?.field).toBe('outboundProcedure');
    expect(errors(r.body)[0]?.message).toMatch(/non-Union goods: choose its outbound procedure/);
    expect(await stockRow(rc.lines[0]?.id as string)).toMatchObject({ quantity_reserved: 0 });
    expect((await get(s.id)).status).toBe('draft');
  });

  it('a packed shipment without a procedure is no dead end: it gets one, then its declaration', async () => {
    await nonUnion('dead-2');
    let s = await released(
      await draft({
        ownerId: partyId.ACME,
        outboundProcedure: '4071',
        lines: [{ sku: 'dead-2', quantity: 5 }],
      }),
    );
    // Released before the rule: no procedure.
    await db.db.updateTable('shipments').set({ outbound_procedure: null }).where('id', '=', s.id).execute();
    for (const to of ['picking', 'packed']) s = (await move(s, to)).body as unknown as Shipment;
    expect(s.status).toBe('packed');
    expect(s.allowedActions).toEqual(['procedure', 'cancel']);
    const other = await call('PATCH', `/shipments/${s.id}`, admin, {
      version: s.version,
      consigneeName: 'X',
    });
    expect(other.status).toBe(409);
    expect(
      (await call('PATCH', `/shipments/${s.id}`, acme, { version: s.version, outboundProcedure: '4071' }))
        .status,
    ).toBe(403);
    const changed = await call('PATCH', `/shipments/${s.id}`, admin, {
      version: s.version,
      outboundProcedure: '4071',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    s = changed.body as unknown as Shipment;
    expect(s.outboundProcedure).toBe('4071');
    expect(s.allowedActions).toContain('declare');
    const d = await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version });
    expect(d.status, JSON.stringify(d.body)).toBe(201);
    // Non-Union goods keep a procedure.
    const cleared = await call('PATCH', `/shipments/${s.id}`, admin, {
      version: (d.body as { version: number }).version,
      outboundProcedure: null,
    });
    expect(cleared.status).toBe(422);
    expect(errors(cleared.body)[0]?.field).toBe('outboundProcedure');
  });

  it('a copy made after a rejection is linked, listed, and its release lets the shipment ship', async () => {
    let s = await declared('dead-3');
    const first = s.declaration?.id as string;
    await setStatus(first, 'rejected');
    const copy = await call('POST', '/declarations', admin, { type: 'import', copyOf: first });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const c = copy.body as Declared;
    expect(c.shipment).toEqual({ id: s.id, number: s.number });
    s = await get(s.id);
    expect(s.declarations.map((d) => d.id)).toEqual([first, c.id]);
    expect(s.declaration?.id).toBe(c.id);
    for (const to of ['picking', 'packed']) s = (await move(s, to)).body as unknown as Shipment;
    expect((await move(s, 'shipped')).status).toBe(409);
    await setStatus(c.id, 'released');
    s = await get(s.id);
    expect(s.shipBlocker).toBeNull();
    expect((await move(s, 'shipped')).status).toBe(200);
  });

  it('a copy of a declaration still in play or released is a declaration of its own, unlinked', async () => {
    const s = await declared('copy-live');
    const source = s.declaration?.id as string;
    const ofDraft = await call('POST', '/declarations', admin, { type: 'import', copyOf: source });
    expect(ofDraft.status, JSON.stringify(ofDraft.body)).toBe(201);
    expect((ofDraft.body as Declared).shipment ?? null).toBeNull();
    await setStatus(source, 'released');
    const ofReleased = await call('POST', '/declarations', admin, { type: 'import', copyOf: source });
    expect(ofReleased.status, JSON.stringify(ofReleased.body)).toBe(201);
    expect((ofReleased.body as Declared).shipment ?? null).toBeNull();
    expect((await get(s.id)).declarations.map((d) => d.id)).toEqual([source]);
  });

  it('a new declaration names its shipment: the owner’s, of its procedure, one in play at a time', async () => {
    await nonUnion('dead-4');
    let s = await released(
      await draft({
        ownerId: partyId.ACME,
        outboundProcedure: '4071',
        lines: [{ sku: 'dead-4', quantity: 5 }],
      }),
    );
    const make = (body: Json) => call('POST', '/declarations', admin, { shipmentId: s.id, ...body });
    const wrongType = await make({ type: 'export', customerId: partyId.ACME });
    expect(wrongType.status).toBe(422);
    expect(errors(wrongType.body)[0]?.field).toBe('shipmentId');
    const wrongOwner = await make({ type: 'import', customerId: partyId.GLOBEX });
    expect(wrongOwner.status).toBe(422);
    expect(errors(wrongOwner.body)[0]?.field).toBe('shipmentId');
    const made = await make({ type: 'import', customerId: partyId.ACME });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const d = made.body as Declared;
    expect(d.shipment).toEqual({ id: s.id, number: s.number });
    const second = await make({ type: 'import', customerId: partyId.ACME });
    expect(second.status).toBe(409);
    expect(errors(second.body)[0]?.field).toBe('shipmentId');
    s = await get(s.id);
    expect(s.declaration?.id).toBe(d.id);
    expect((await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version })).status).toBe(
      409,
    );
    // The other procedure while the draft is in play: delete it first.
    const refused = await call('PATCH', `/shipments/${s.id}`, admin, {
      version: s.version,
      outboundProcedure: '3171',
    });
    expect(refused.status).toBe(409);
    expect(errors(refused.body)[0]?.message).toMatch(/delete it/);
    // The database refuses another customer for a shipment's declaration, whatever the path.
    await expect(
      db.db.updateTable('declarations').set({ customer_id: partyId.GLOBEX }).where('id', '=', d.id).execute(),
    ).rejects.toThrow(/owner of its shipment/);
    expect((await call('DELETE', `/declarations/${d.id}`, admin)).status).toBe(204);
    s = await get(s.id);
    expect(s.declarations).toEqual([]);
    const to3171 = await call('PATCH', `/shipments/${s.id}`, admin, {
      version: s.version,
      outboundProcedure: '3171',
    });
    expect(to3171.status, JSON.stringify(to3171.body)).toBe(200);
    expect((await make({ type: 'export', customerId: partyId.ACME })).status).toBe(201);
    // A draft shipment is not declared yet.
    const drafted = await draft({
      ownerId: partyId.ACME,
      outboundProcedure: '4071',
      lines: [{ sku: 'dead-4', quantity: 1 }],
    });
    const early = await call('POST', '/declarations', admin, {
      type: 'import',
      customerId: partyId.ACME,
      shipmentId: drafted.id,
    });
    expect(early.status).toBe(409);
  });

  it('lists its declarations as each reader may see them: the owner the lodged ones, another party 404', async () => {
    const s = await declared('dead-5');
    const id = s.declaration?.id as string;
    let mine = await get(s.id, acme);
    expect(mine.declarations).toEqual([]);
    expect(mine.declaration).toBeNull();
    await setStatus(id, 'lodged');
    mine = await get(s.id, acme);
    expect(mine.declarations.map((d) => [d.id, d.status])).toEqual([[id, 'lodged']]);
    expect(mine.declaration?.id).toBe(id);
    const listed = (await call('GET', `/shipments?reference=${s.number}`, acme)).body as {
      items: { declaration: { id: string } | null }[];
    };
    expect(listed.items[0]?.declaration?.id).toBe(id);
    const declaration = (await call('GET', `/declarations/${id}`, acme)).body as Declared;
    expect(declaration.shipment).toEqual({ id: s.id, number: s.number });
    expect((await call('GET', `/declarations/${id}`, globex)).status).toBe(404);
    // Another party's shipment and its declarations stay out of Acme's reach.
    await receive(
      partyId.GLOBEX,
      [looseLine({ sku: 'dead-5g', quantity: 10, grossMassKg: '20', netMassKg: '15', value: '100.00' })],
      { customsStatus: 'non_union_customs_warehousing', inboundMrn: testMrn(), inboundMrnExternal: true },
    );
    const theirs = await released(
      await draft({
        ownerId: partyId.GLOBEX,
        outboundProcedure: '4071',
        lines: [{ sku: 'dead-5g', quantity: 1 }],
      }),
    );
    const declaredTheirs = (
      await call('POST', `/shipments/${theirs.id}/declaration`, admin, { version: theirs.version })
    ).body as unknown as Shipment;
    const theirId = declaredTheirs.declaration?.id as string;
    await setStatus(theirId, 'lodged');
    expect((await call('GET', `/shipments/${theirs.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/declarations/${theirId}`, acme)).status).toBe(404);
  });

  it('prefills what the stock and its entry know: packages, masses, values, origin, the entry’s MRN and data', async () => {
    const entry = await call(
      'POST',
      '/declarations',
      admin,
      completeImport(partyId.ACME, {
        category: 'H2',
        items: [
          importItem({
            commodityCode: '8518 22 00',
            description: 'Bluetooth speakers',
            procedureCode: '7100',
            preference: '100',
            packageKind: 'CT',
            customsValue: '2400.00',
            statisticalValue: '2400.00',
            dutyRate: '2.7',
            vatRate: '21',
          }),
        ],
      }),
    );
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    const entryId = (entry.body as Declared).id;
    const mrn = testMrn();
    await db.db
      .updateTable('declarations')
      .set({ status: 'released', mrn })
      .where('id', '=', entryId)
      .execute();
    await receive(partyId.ACME, [palletLine({ sku: 'dead-6', packages: 2 })], {
      customsStatus: 'non_union_customs_warehousing',
      entryDeclarationId: entryId,
    });
    const s = await released(
      await draft({
        ownerId: partyId.ACME,
        outboundProcedure: '4071',
        lines: [{ sku: 'dead-6', quantity: 50 }],
      }),
    );
    const d = await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version });
    expect(d.status, JSON.stringify(d.body)).toBe(201);
    const x = (await call('GET', `/declarations/${(d.body as unknown as Shipment).declaration?.id}`, admin))
      .body as Json & { items: Json[] };
    expect(x).toMatchObject({
      shipment: { id: s.id, number: s.number },
      currency: 'EUR',
      invoiceTotal: '1250.00',
      officeOfLodgement: 'NL000396',
      countryOfDispatch: 'CN',
      incoterm: 'FOB',
    });
    expect(x.items).toHaveLength(1);
    expect(x.items[0]).toMatchObject({
      commodityCode: '85182200',
      countryOfOrigin: 'CN',
      procedureCode: '4071',
      packages: 1,
      packageKind: 'PX',
      grossMassKg: '60.25',
      netMassKg: '50',
      invoiceValue: '1250.00',
      customsValue: '1200.00',
      statisticalValue: '1200.00',
      preference: '100',
      dutyRate: '2.7',
      vatRate: '21',
      previousDocuments: [{ type: 'MRN', reference: mrn }],
    });
  });
});

describe('goods in temporary storage leave by their own procedures (issue 23 item 11)', () => {
  const NOT_4071 =
    /^Goods in temporary storage are not under customs warehousing, which 4071 presumes: place them under a procedure with previous procedure 00/;
  async function temporary(sku: string) {
    return receive(
      partyId.ACME,
      [looseLine({ sku, quantity: 20, grossMassKg: '40', netMassKg: '30', value: '200.00' })],
      { customsStatus: 'temporary_storage', inboundMrn: testMrn() },
    );
  }

  it('refuses to release a shipment of temporary-storage goods under 4071 or 3171, reserving nothing', async () => {
    const rc = await temporary('ts-1');
    for (const procedure of ['4071', '3171']) {
      const s = await draft({
        ownerId: partyId.ACME,
        outboundProcedure: procedure,
        lines: [{ sku: 'ts-1', quantity: 5 }],
      });
      const r = await move(s, 'released');
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(errors(r.body)).toHaveLength(1);
      expect(r.body.detail).toMatch(
        new RegExp(
          `^${s.number} cannot be released under ${procedure}: Goods in temporary storage .* Nothing was reserved\\.$`,
        ),
      );
      expect(errors(r.body)[0]?.field).toBe('outboundProcedure');
      expect(errors(r.body)[0]?.message).toMatch(
        procedure === '4071'
          ? NOT_4071
          : /^Goods in temporary storage are not under customs warehousing, which 3171 presumes/,
      );
      expect((await call('GET', `/shipments/${s.id}`, admin)).body.status).toBe('draft');
    }
    expect(await stockRow(rc.lines[0]?.id as string)).toMatchObject({ quantity_reserved: 0 });
  });

  it('refuses to set such a procedure on a released shipment, and to draft its declaration', async () => {
    await temporary('ts-2');
    // Released under 3171 before the rule: the stock counted as Union goods at the release.
    const s0 = await draft({
      ownerId: partyId.ACME,
      outboundProcedure: '3171',
      lines: [{ sku: 'ts-2', quantity: 5 }],
    });
    await sql`update stock_records set customs_status = 'union' where sku = 'TS-2'`.execute(db.db);
    let s = await released((await call('GET', `/shipments/${s0.id}`, admin)).body as unknown as Shipment);
    await sql`update stock_records set customs_status = 'temporary_storage' where sku = 'TS-2'`.execute(
      db.db,
    );
    s = (await call('GET', `/shipments/${s.id}`, admin)).body as unknown as Shipment;
    expect(s.nonUnion).toBe(true);
    expect(s.allowedActions).not.toContain('declare');
    const d = await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version });
    expect(d.status, JSON.stringify(d.body)).toBe(422);
    expect(errors(d.body)[0]?.field).toBe('outboundProcedure');
    expect(errors(d.body)[0]?.message).toMatch(/which 3171 presumes/);
    const changed = await call('PATCH', `/shipments/${s.id}`, admin, {
      version: s.version,
      outboundProcedure: '4071',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(422);
    expect(errors(changed.body)).toEqual([
      { field: 'outboundProcedure', message: expect.stringMatching(NOT_4071) },
    ]);
    expect((await call('GET', `/shipments/${s.id}`, admin)).body.outboundProcedure).toBe('3171');
  });

  it('the outbound draft cites temporary-storage stock as its temporary storage declaration (N337)', () => {
    const mrn = testMrn();
    const allocation = {
      id: 'a1',
      line_id: 'l1',
      stock_record_id: 's1',
      handling_unit_id: null,
      quantity: 5,
      state: 'reserved',
      receipt_number: 'R-1',
      received_on: '2026-11-01',
      customs_status: 'temporary_storage',
      inbound_mrn: mrn,
      unit_kind: null,
      unit_sscc: null,
      unit_reference: null,
      location: 'RTM1-A-01-01',
      sku: 'TS-3',
      description: 'Speakers',
      commodity_code: '85182200',
      country_of_origin: 'CN',
      quantity_received: 10,
      gross_mass_kg: '20',
      net_mass_kg: '15',
      value: '100.00',
      currency: 'EUR',
      packages: null,
      line_no: 1,
      entry_declaration_id: null,
    } as const;
    const draftOf = (customs_status: 'temporary_storage' | 'non_union_customs_warehousing') =>
      outboundDeclarationDraft(
        { id: 'x', owner_id: partyId.ACME, outbound_procedure: '4071' },
        [{ ...allocation, customs_status }],
        [],
      );
    expect(draftOf('temporary_storage').items[0]?.previousDocuments).toEqual([
      { type: 'N337', reference: mrn },
    ]);
    expect(draftOf('non_union_customs_warehousing').items[0]?.previousDocuments).toEqual([
      { type: 'MRN', reference: mrn },
    ]);
  });
});

describe('customers and scoping', () => {
  it('a customer drafts from their own stock, never another party’s, and cannot release', async () => {
    const own = await receive(partyId.ACME, [looseLine({ sku: 'cust-1', quantity: 10 })]);
    const theirs = await receive(partyId.GLOBEX, [looseLine({ sku: 'globex-only', quantity: 10 })]);
    const s = await draft({ customerReference: 'PO-77', lines: [{ sku: 'cust-1', quantity: 3 }] }, acme);
    expect(s.owner.id).toBe(partyId.ACME);
    expect(s.notes).toBeNull();
    expect(s.allowedActions).toEqual(['edit', 'delete']);

    const other = await call('POST', '/shipments', acme, {
      lines: [
        { stockRecordId: theirs.lines[0]?.id, quantity: 1 },
        { sku: 'globex-only', quantity: 1 },
      ],
    });
    expect(other.status).toBe(422);
    expect(errors(other.body).map((e) => e.field)).toEqual(['lines.0.stockRecordId', 'lines.1.sku']);
    expect(
      (await call('POST', '/shipments', acme, { notes: 'x', lines: [{ sku: 'cust-1', quantity: 1 }] }))
        .status,
    ).toBe(400);

    expect((await move(s, 'released', acme)).status).toBe(403);
    expect((await call('POST', `/shipments/${s.id}/declaration`, acme, { version: s.version })).status).toBe(
      403,
    );
    const edited = await call('PATCH', `/shipments/${s.id}`, acme, {
      version: s.version,
      lines: [{ stockRecordId: own.lines[0]?.id, quantity: 2 }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const globexShipment = await draft({
      ownerId: partyId.GLOBEX,
      notes: 'internal',
      lines: [{ sku: 'globex-only', quantity: 1 }],
    });
    expect((await call('GET', `/shipments/${globexShipment.id}`, acme)).status).toBe(404);
    expect((await call('DELETE', `/shipments/${globexShipment.id}`, acme)).status).toBe(404);
    const list = (await call('GET', '/shipments?pageSize=200', acme)).body as { items: Shipment[] };
    expect(list.items.every((i) => i.owner.id === partyId.ACME)).toBe(true);
    expect((await call('GET', '/shipments', staff)).status).toBe(403);
    const history = (await call('GET', `/shipments/${s.id}/history`, acme)).body as unknown as Json[];
    expect(history.map((h) => h.action)).toEqual(['updated', 'created']);
    expect((await call('DELETE', `/shipments/${s.id}`, acme)).status).toBe(204);
  });

  it('lists with filters and exports', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'list-1', quantity: 10 })]);
    const s = await draft({
      ownerId: partyId.ACME,
      customerReference: 'REF-LIST',
      lines: [{ sku: 'list-1', quantity: 1 }],
    });
    const byRef = (await call('GET', '/shipments?reference=ref-li', admin)).body as { items: Json[] };
    expect(byRef.items.map((i) => i.id)).toEqual([s.id]);
    const bySku = (await call('GET', '/shipments?sku=list-&status=draft', admin)).body as { items: Json[] };
    expect(bySku.items.map((i) => i.id)).toEqual([s.id]);
    const csv = await call('GET', '/shipments/export?reference=REF-LIST', admin);
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain(s.number);
  });
});

describe('documents of a shipment', () => {
  it('the owner’s customer reads the visible ones, another party’s customer cannot attach or see them', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'doc-s1', quantity: 5 })]);
    const s = await draft({ ownerId: partyId.ACME, lines: [{ sku: 'doc-s1', quantity: 1 }] });
    const up = packingList(setup.app, 'shipment', s.id).as;
    expect((await up(staff)).statusCode).toBe(403);
    const res = await up(admin);
    expect(res.statusCode, res.body).toBe(201);
    const docId = (res.json() as { items: Json[] }).items[0]?.id as string;
    const mine = await call('GET', `/documents?recordType=shipment&recordId=${s.id}`, acme);
    expect((mine.body as { items: Json[] }).items.map((d) => d.id)).toEqual([docId]);
    const globexShipment = await draft({
      ownerId: partyId.GLOBEX,
      lines: [{ sku: 'globex-only', quantity: 1 }],
    });
    const theirs = await call('GET', `/documents?recordType=shipment&recordId=${globexShipment.id}`, acme);
    expect((theirs.body as { items?: Json[] }).items ?? []).toEqual([]);
  });
});

describe('documents of a shipment whose owner changes', () => {
  it('go with the shipment: the old owner no longer reads or lists them, the new owner does', async () => {
    await receive(partyId.ACME, [looseLine({ sku: 'doc-m1', quantity: 5 })]);
    await receive(partyId.GLOBEX, [looseLine({ sku: 'doc-m1g', quantity: 5 })]);
    const s = await draft({ ownerId: partyId.ACME, lines: [{ sku: 'doc-m1', quantity: 1 }] });
    const res = await packingList(setup.app, 'shipment', s.id, 'moved.pdf').as(admin);
    expect(res.statusCode, res.body).toBe(201);
    const docId = (res.json() as { items: Json[] }).items[0]?.id as string;
    expect((await call('GET', `/documents/${docId}`, acme)).status).toBe(200);

    const moved = await call('PATCH', `/shipments/${s.id}`, admin, {
      version: s.version,
      ownerId: partyId.GLOBEX,
      lines: [{ sku: 'doc-m1g', quantity: 1 }],
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await call('GET', `/documents/${docId}`, acme)).status).toBe(404);
    expect((await call('GET', `/documents/${docId}/content`, acme)).status).toBe(404);
    const acmeList = await call('GET', '/documents?pageSize=200', acme);
    expect((acmeList.body as { items: Json[] }).items.map((d) => d.id)).not.toContain(docId);
    // Globex's customer is given the warehouse area, as Acme's has it.
    await sql`update users set cw_access = true where email = ${DEMO_PASSWORDS.globex[0]}`.execute(db.db);
    const globexCw = await bearer(setup.app, ...DEMO_PASSWORDS.globex);
    expect((await call('GET', `/documents/${docId}`, globexCw)).status).toBe(200);
    const globexList = await call('GET', `/documents?recordType=shipment&recordId=${s.id}`, globexCw);
    expect((globexList.body as { items: Json[] }).items.map((d) => d.id)).toEqual([docId]);
  });
});

describe('hub events', () => {
  it('a release announces the shipment and each stock record it touched to the owner', async () => {
    const rc = await receive(partyId.ACME, [looseLine({ sku: 'hub-1', quantity: 5 })]);
    const s = await draft({ ownerId: partyId.ACME, lines: [{ sku: 'hub-1', quantity: 2 }] });
    const heard: { kind: string; id: string; partyIds?: string[] }[] = [];
    const stop = setup.app.services.events.subscribe((e) => {
      heard.push({ kind: e.kind, id: e.id, ...(e.partyIds ? { partyIds: e.partyIds } : {}) });
    });
    try {
      await released(s);
    } finally {
      stop();
    }
    expect(heard).toEqual([
      { kind: 'shipment', id: s.id, partyIds: [partyId.ACME] },
      { kind: 'stock', id: rc.lines[0]?.id, partyIds: [partyId.ACME] },
    ]);
  });
});

describe('addressed by its number (ADR 0071)', () => {
  it('opens, changes and moves by its number in any case; another party’s number answers as its id does', async () => {
    const r = await receive(partyId.ACME, [looseLine({ sku: 'by-number', quantity: 10 })]);
    const s = await draft({ ownerId: partyId.ACME, lines: [{ stockRecordId: r.lines[0]?.id, quantity: 2 }] });
    const number = s.number as string;
    const got = await call('GET', `/shipments/${number.toLowerCase()}`, admin);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(s.id);
    const moved = await call('POST', `/shipments/${number}/transitions`, admin, {
      to: 'released',
      version: s.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ id: s.id, status: 'released' });
    expect((await call('GET', `/shipments/${number}/history`, acme)).status).toBe(200);
    // Globex is not Acme: its customer gets for the number what it gets for the id.
    const byId = (await call('GET', `/shipments/${s.id}`, globex)).status;
    expect([403, 404]).toContain(byId);
    expect((await call('GET', `/shipments/${number}`, globex)).status).toBe(byId);
    expect((await call('GET', '/shipments/S-1999-999999', admin)).status).toBe(404);
    expect((await call('GET', `/shipments/${'x'.repeat(65)}`, admin)).status).toBe(400);
  });
});
