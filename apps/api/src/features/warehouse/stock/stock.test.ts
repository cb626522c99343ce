import { isValidSscc, type StockRecord, type StockTree } from '@fvg/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../../../test/api-test.ts';
import { type Json, nextEvent, packingList } from '../../../test/helpers.ts';
import { pickStock } from './stock.repository.ts';
import {
  looseLine,
  palletLine,
  receiptBody,
  stockInvariantViolations,
  TEST_GS1_PREFIX,
  testMrn,
  testSscc,
} from './test-support.ts';

const setup = apiTest({ files: 'fvg-stock-', hub: true });
const { db, admin, staff, acme, partyId, call, hub } = setup;
type Auth = { authorization: string };

const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];
const fields = (body: Json) => errors(body).map((e) => e.field);
type Receipt = Json & { id: string; number: string; lines: (Json & { id: string })[] };

async function receive(body: Json): Promise<Receipt> {
  const r = await call('POST', '/stock-receipts', admin, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Receipt;
}
async function record(id: string, auth: Auth = admin): Promise<StockRecord> {
  const r = await call('GET', `/stock/${id}`, auth);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as unknown as StockRecord;
}
async function setPrefix(prefix: string | null) {
  const company = (await call('GET', '/company', admin)).body as { version: number };
  const r = await call('PUT', '/company', admin, {
    version: company.version,
    gs1CompanyPrefix: prefix,
    ssccExtensionDigit: 3,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

describe('receipts: validation', () => {
  const bad = async (body: Json, status = 400) => {
    const r = await call('POST', '/stock-receipts', admin, body);
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    return r.body;
  };

  it('names each failing field by its path', async () => {
    const body = await bad(
      receiptBody(partyId.ACME, [
        looseLine({ sku: 'bad sku!', description: '', location: 'nowhere at all?', netMassKg: '500' }),
        looseLine({ value: '10.00', currency: null, quantity: 0 }),
      ]),
    );
    expect(fields(body)).toEqual(
      expect.arrayContaining([
        'lines.0.sku',
        'lines.0.description',
        'lines.0.location',
        'lines.0.netMassKg',
        'lines.1.currency',
        'lines.1.quantity',
      ]),
    );
  });

  it('refuses a receipt dated in the future and an empty one', async () => {
    const body = await bad(receiptBody(partyId.ACME, [], { receivedOn: '2999-01-01' }));
    expect(fields(body)).toEqual(expect.arrayContaining(['receivedOn', 'lines']));
  });

  it('wants an MRN (or the entry declaration) for non-Union goods under customs warehousing, and checks it', async () => {
    const none = await bad(
      receiptBody(partyId.ACME, [looseLine()], { customsStatus: 'non_union_customs_warehousing' }),
    );
    expect(fields(none)).toEqual(['inboundMrn']);
    const wrong = await bad(
      receiptBody(partyId.ACME, [looseLine()], {
        customsStatus: 'non_union_customs_warehousing',
        inboundMrn: `${testMrn().slice(0, 17)}0`.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
      }),
    );
    expect(fields(wrong)).toEqual(['inboundMrn']);
    const ok = await receive(
      receiptBody(partyId.ACME, [looseLine()], {
        customsStatus: 'non_union_customs_warehousing',
        inboundMrn: ` ${testMrn().toLowerCase()} `,
        inboundMrnExternal: true,
      }),
    );
    expect(ok.inboundMrn).toMatch(/^26NL[0-9A-Z]{14}$/);
  });

  it('keeps the handling-unit rules: Σ roots = line, parents = Σ children, kinds, SSCCs', async () => {
    const valid = testSscc();
    const badCheckDigit = `${valid.slice(0, 17)}${(Number(valid[17]) + 1) % 10}`;
    const body = await bad(
      receiptBody(partyId.ACME, [
        looseLine({
          quantity: 50,
          handlingUnits: [
            {
              kind: 'pallet',
              sscc: badCheckDigit,
              quantity: 40,
              children: [
                { kind: 'carton', quantity: 15 },
                { kind: 'pallet', quantity: 20 },
              ],
            },
            { kind: 'item', sscc: testSscc(), quantity: 5 },
          ],
        }),
      ]),
    );
    expect(fields(body)).toEqual(
      expect.arrayContaining([
        'lines.0.quantity',
        'lines.0.handlingUnits.0.sscc',
        'lines.0.handlingUnits.0.quantity',
        'lines.0.handlingUnits.0.children.1.kind',
        'lines.0.handlingUnits.1.sscc',
      ]),
    );
    const sscc = errors(body).find((e) => e.field === 'lines.0.handlingUnits.0.sscc');
    expect(sscc?.message).toMatch(/check digit/);
  });

  it('refuses an SSCC given twice in one receipt, and one already in use (409 on its path)', async () => {
    const sscc = testSscc();
    const twice = await bad(receiptBody(partyId.ACME, [palletLine({}, [sscc, sscc])]));
    expect(fields(twice)).toEqual(['lines.0.handlingUnits.1.sscc']);
    await receive(receiptBody(partyId.ACME, [palletLine({}, [sscc, testSscc()])]));
    const again = await bad(
      receiptBody(partyId.ACME, [looseLine(), palletLine({}, [testSscc(), sscc])]),
      409,
    );
    expect(fields(again)).toEqual(['lines.1.handlingUnits.1.sscc']);
  });

  it('refuses an unknown owner', async () => {
    const body = await bad(receiptBody('00000000-0000-4000-8000-000000000001', [looseLine()]));
    expect(fields(body)).toEqual(['ownerId']);
  });
});

describe('receipts: SSCC generation', () => {
  it('asks for the SSCC or the company prefix when none is set (422 on each pallet)', async () => {
    await setPrefix(null);
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      receiptBody(partyId.ACME, [palletLine({}, [testSscc(), null])]),
    );
    expect(r.status).toBe(422);
    expect(errors(r.body)).toEqual([
      {
        field: 'lines.0.handlingUnits.1.sscc',
        message: 'Enter the SSCC, or set the GS1 company prefix in the company settings',
      },
    ]);
  });

  it('refuses a malformed prefix in the settings and keeps a valid one', async () => {
    const company = (await call('GET', '/company', admin)).body as { version: number };
    const r = await call('PUT', '/company', admin, { version: company.version, gs1CompanyPrefix: '12a45' });
    expect(r.status).toBe(400);
    expect(fields(r.body)).toEqual(['gs1CompanyPrefix']);
    const saved = (await setPrefix(TEST_GS1_PREFIX)) as Json;
    expect(saved).toMatchObject({ gs1CompanyPrefix: TEST_GS1_PREFIX, ssccExtensionDigit: 3 });
  });

  it('generates valid SSCCs from the prefix, extension digit and a sequence', async () => {
    await setPrefix(TEST_GS1_PREFIX);
    const receipt = await receive(receiptBody(partyId.ACME, [palletLine(), palletLine({ sku: 'XYZ-2' })]));
    const units = (
      await Promise.all(receipt.lines.map((l) => record(l.id).then((s) => s.handlingUnits)))
    ).flat();
    const pallets = units.filter((u) => u.kind === 'pallet').map((u) => u.sscc as string);
    expect(pallets).toHaveLength(4);
    expect(new Set(pallets).size).toBe(4);
    for (const sscc of pallets) {
      expect(isValidSscc(sscc)).toBe(true);
      expect(sscc.slice(0, 8)).toBe(`3${TEST_GS1_PREFIX}`);
    }
    // Cartons are numbered only when given one.
    expect(units.filter((u) => u.kind === 'carton').every((u) => u.sscc === null)).toBe(true);
  });
});

describe('receipts: entry declaration (H2)', () => {
  // With an MRN: released (what a receipt takes, ADR 0046); without: lodged.
  async function declaration(customerId: string, category: 'H1' | 'H2', mrn: string | null) {
    const r = await sql<{ id: string }>`
      insert into declarations (type, category, status, lrn, mrn, customer_id, lodged_at)
      values ('import', ${category}, ${mrn ? 'released' : 'lodged'}, ${`LRN-T-${Math.random().toString(36).slice(2, 10)}`}, ${mrn}, ${customerId}, now())
      returning id`.execute(db.db);
    return r.rows[0]?.id as string;
  }

  it('takes the MRN of the owner’s H2 import declaration', async () => {
    const mrn = testMrn();
    const id = await declaration(partyId.ACME, 'H2', mrn);
    const receipt = await receive(
      receiptBody(partyId.ACME, [looseLine()], {
        customsStatus: 'non_union_customs_warehousing',
        entryDeclarationId: id,
      }),
    );
    expect(receipt).toMatchObject({ inboundMrn: mrn, entryDeclaration: { id, mrn } });
    expect((await record(receipt.lines[0]?.id as string)).inboundMrn).toBe(mrn);
  });

  it('refuses an H1 declaration, one without an MRN, another party’s, and a different MRN (422)', async () => {
    const cases: [string, Json][] = [
      [await declaration(partyId.ACME, 'H1', testMrn()), {}],
      [await declaration(partyId.ACME, 'H2', null), {}],
      [await declaration(partyId.GLOBEX, 'H2', testMrn()), {}],
    ];
    for (const [id, over] of cases) {
      const r = await call(
        'POST',
        '/stock-receipts',
        admin,
        receiptBody(partyId.ACME, [looseLine()], {
          customsStatus: 'non_union_customs_warehousing',
          entryDeclarationId: id,
          ...over,
        }),
      );
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(fields(r.body)).toEqual(['entryDeclarationId']);
    }
    const id = await declaration(partyId.ACME, 'H2', testMrn());
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      receiptBody(partyId.ACME, [looseLine()], {
        customsStatus: 'non_union_customs_warehousing',
        entryDeclarationId: id,
        inboundMrn: testMrn(),
      }),
    );
    expect(r.status).toBe(422);
    expect(fields(r.body)).toEqual(['inboundMrn']);
  });
});

describe('stock records, trees and movements', () => {
  let stockId: string;
  let tree: StockTree;

  beforeAll(async () => {
    await setPrefix(TEST_GS1_PREFIX);
    const receipt = await receive(
      receiptBody(partyId.ACME, [palletLine({ sku: 'TREE-1' })], { notes: 'Dock 4, seal intact' }),
    );
    stockId = receipt.lines[0]?.id as string;
    tree = (await call('GET', `/stock/${stockId}/tree`, admin)).body as unknown as StockTree;
  });

  const post = (body: Json, auth: Auth = admin) => call('POST', `/stock/${stockId}/movements`, auth, body);
  const version = async () => (await record(stockId)).version;
  const adjust = async (quantity: number, reason: string, handlingUnitId?: string) =>
    post({ kind: 'adjustment', version: await version(), quantity, reason, handlingUnitId });
  const transfer = async (toLocation: string, handlingUnitId?: string) =>
    post({ kind: 'transfer', version: await version(), toLocation, handlingUnitId });
  const refused = (r: { status: number; body: Json }, status: number, field: string) => {
    expect(r.status).toBe(status);
    expect(fields(r.body)).toEqual([field]);
  };

  it('makes one record per line with its tree, one receipt movement per root, and the place of most goods', async () => {
    const s = await record(stockId);
    expect(s).toMatchObject({
      sku: 'TREE-1',
      quantityReceived: 100,
      quantityOnHand: 100,
      quantityReserved: 0,
      quantityAvailable: 100,
      location: 'RTM1-A-01-01',
      locationCount: 2,
      pallets: 2,
      notes: 'Dock 4, seal intact',
      allowedActions: ['transfer', 'adjust'],
    });
    expect(s.handlingUnits.map((u) => [u.kind, u.quantity])).toEqual([
      ['pallet', 60],
      ['carton', 30],
      ['item', 10],
      ['item', 20],
      ['carton', 30],
      ['pallet', 40],
      ['item', 25],
      ['item', 15],
    ]);
    expect(tree.units.map((u) => u.movements.map((m) => [m.kind, m.quantity]))).toEqual([
      [['receipt', 60]],
      [['receipt', 40]],
    ]);
    expect(tree.units[1]?.children.map((c) => c.location)).toEqual(['RTM1-B-02-01', 'RTM1-B-02-01']);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('adjusts a leaf and its ancestors; refuses a non-leaf, a missing unit, no reason, below zero', async () => {
    const pallet = tree.units[0];
    const carton = pallet?.children[0];
    const item = carton?.children[1];
    refused(await adjust(-3, 'xy'), 400, 'reason');
    refused(await adjust(-3, 'Damaged in handling'), 400, 'handlingUnitId');
    refused(await adjust(-3, 'Damaged in handling', carton?.id), 422, 'handlingUnitId');
    refused(await adjust(-21, 'Damaged in handling', item?.id), 422, 'quantity');
    const r = await adjust(-3, 'Damaged in handling', item?.id);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const after = r.body as unknown as StockRecord;
    const q = (id?: string) => after.handlingUnits.find((u) => u.id === id)?.quantity;
    expect([q(item?.id), q(carton?.id), q(pallet?.id), after.quantityOnHand]).toEqual([17, 27, 57, 97]);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('refuses a stale version (409 on version)', async () => {
    const r = await post({ kind: 'transfer', version: 1, toLocation: 'RTM1-C-01-01' });
    expect(r.status).toBe(409);
    expect(fields(r.body)).toEqual(['version']);
  });

  it('transfers a root unit with what it holds, not a unit inside another', async () => {
    const pallet = tree.units[1];
    refused(await transfer('rtm1 c 05 02', pallet?.children[0]?.id), 422, 'handlingUnitId');
    const r = await transfer('rtm1 c 05 02', pallet?.id);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const after = r.body as unknown as StockRecord;
    const moved = after.handlingUnits.filter((u) => u.id === pallet?.id || u.parentId === pallet?.id);
    expect(moved.map((u) => u.location)).toEqual(['RTM1-C-05-02', 'RTM1-C-05-02', 'RTM1-C-05-02']);
    const t = (await call('GET', `/stock/${stockId}/tree`, admin)).body as unknown as StockTree;
    expect(t.units[1]?.movements[0]).toMatchObject({
      kind: 'transfer',
      quantity: 0,
      fromLocation: 'RTM1-B-02-01',
      toLocation: 'RTM1-C-05-02',
      by: { name: 'Ada Admin' },
    });
  });

  it('never lets stock fall below what is reserved (409)', async () => {
    const pallet = tree.units[1];
    // A reservation as ship-api's release writes it: on the record and its root unit.
    await sql`update stock_records set quantity_reserved = 30 where id = ${stockId}`.execute(db.db);
    await sql`update handling_units set quantity_reserved = 30 where id = ${pallet?.id}`.execute(db.db);
    const r = await adjust(-15, 'Counted short', pallet?.children[0]?.id);
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(fields(r.body)).toEqual(['quantity']);
    expect(errors(r.body)[0]?.message).toMatch(/30 pieces are reserved/);
    await sql`update handling_units set quantity_reserved = 0 where id = ${pallet?.id}`.execute(db.db);
    await sql`update stock_records set quantity_reserved = 0 where id = ${stockId}`.execute(db.db);
  });

  it('lists movements newest first with keyset paging, and the history', async () => {
    const first = await call('GET', `/stock/${stockId}/movements?pageSize=2`, admin);
    expect(first.status).toBe(200);
    const page = first.body as { items: { kind: string }[]; nextCursor: string; total: number };
    expect(page.items.map((m) => m.kind)).toEqual(['transfer', 'adjustment']);
    expect(page.total).toBe(4);
    const next = await call(
      'GET',
      `/stock/${stockId}/movements?pageSize=2&cursor=${encodeURIComponent(page.nextCursor)}`,
      admin,
    );
    expect((next.body as { items: { kind: string }[] }).items.map((m) => m.kind)).toEqual([
      'receipt',
      'receipt',
    ]);
    const history = (await call('GET', `/stock/${stockId}/history`, admin)).body as unknown as {
      action: string;
    }[];
    expect(history.map((h) => h.action)).toEqual(['transferred', 'adjusted', 'received']);
  });

  it('movements are append-only: the database refuses UPDATE and DELETE', async () => {
    await expect(
      sql`update stock_movements set quantity = 1000 where stock_record_id = ${stockId}`.execute(db.db),
    ).rejects.toThrow(/append-only/);
    await expect(
      sql`delete from stock_movements where stock_record_id = ${stockId}`.execute(db.db),
    ).rejects.toThrow(/append-only/);
  });

  it('customers: their own stock without notes, no movements (403); another party’s is 404', async () => {
    const own = await record(stockId, acme);
    expect(own.notes).toBeNull();
    expect(own.allowedActions).toEqual([]);
    const r = await post({ kind: 'transfer', version: own.version, toLocation: 'RTM1-A-01-02' }, acme);
    expect(r.status).toBe(403);
    const receipt = await call('POST', '/stock-receipts', acme, receiptBody(partyId.ACME, [looseLine()]));
    expect(receipt.status).toBe(403);
    const other = await receive(
      receiptBody(partyId.GLOBEX, [looseLine({ sku: 'GLX-1' })], { notes: 'secret' }),
    );
    const otherId = other.lines[0]?.id as string;
    for (const url of [
      `/stock/${otherId}`,
      `/stock/${otherId}/tree`,
      `/stock/${otherId}/movements`,
      `/stock/${otherId}/history`,
      `/stock-receipts/${other.id}`,
      `/stock?ownerId=${partyId.GLOBEX}`,
      `/stock-receipts?ownerId=${partyId.GLOBEX}`,
      `/stock/availability?ownerId=${partyId.GLOBEX}`,
    ]) {
      const res = await call('GET', url, acme);
      expect(res.status, url).toBe(404);
    }
    const mine = (await call('GET', '/stock?pageSize=200', acme)).body as {
      items: { owner: { id: string } }[];
    };
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.every((i) => i.owner.id === partyId.ACME)).toBe(true);
    const sorted = await call('GET', '/stock?sort=notes', acme);
    expect(sorted.status).toBe(400);
  });

  it('filters the list (SKU prefix, available, location) and exports it', async () => {
    const r = await call(
      'GET',
      `/stock?sku=tree&available=true&location=rtm1-a&ownerId=${partyId.ACME}`,
      admin,
    );
    expect(r.status).toBe(200);
    expect((r.body as { items: { id: string }[] }).items.map((i) => i.id)).toEqual([stockId]);
    const csv = await call('GET', `/stock/export?format=csv&sku=TREE`, admin);
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain('TREE-1');
    expect(csv.raw).toContain('Union goods');
  });

  it('answers availability per SKU of the owner', async () => {
    const r = await call('GET', `/stock/availability?ownerId=${partyId.ACME}&q=tree`, admin);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      items: [
        {
          sku: 'TREE-1',
          description: 'Bluetooth speakers',
          unit: 'H87',
          onHand: 97,
          available: 97,
          records: 1,
        },
      ],
    });
    const staffWithout = await call('GET', '/stock/availability?q=', admin);
    expect(fields(staffWithout.body)).toEqual(['ownerId']);
  });
});

describe('documents of a stock record', () => {
  it('the owner’s customer reads the visible ones; users without cw_access get 403 and never list them', async () => {
    const receipt = await receive(receiptBody(partyId.ACME, [looseLine({ sku: 'DOC-1' })]));
    const id = receipt.lines[0]?.id as string;
    const up = packingList(setup.app, 'stock', id).as;
    expect((await up(staff)).statusCode).toBe(403);
    const res = await up(admin);
    expect(res.statusCode, res.body).toBe(201);
    const docId = (res.json() as { items: Json[] }).items[0]?.id as string;
    const q = `/documents?recordType=stock&recordId=${id}`;
    const mine = await call('GET', q, acme);
    expect(mine.status).toBe(200);
    expect((mine.body as { items: Json[] }).items.map((d) => d.id)).toEqual([docId]);
    expect((await call('GET', `/documents/${docId}`, acme)).status).toBe(200);
    expect((await call('GET', q, staff)).status).toBe(403);
    expect((await call('GET', `/documents/${docId}`, staff)).status).toBe(403);
    const all = (await call('GET', '/documents?pageSize=200', staff)).body as { items: Json[] };
    expect(all.items.some((d) => d.recordType === 'stock')).toBe(false);
    const asAdmin = (await call('GET', '/documents?pageSize=200', admin)).body as { items: Json[] };
    expect(asAdmin.items.some((d) => d.id === docId)).toBe(true);
  });
});

/** A draft shipment of `sku` (the owner's stock of it must exist): a pick movement names an existing shipment (0024's key). */
async function shipmentOf(sku: string): Promise<string> {
  const r = await call('POST', '/shipments', admin, { ownerId: partyId.ACME, lines: [{ sku, quantity: 1 }] });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

describe('pickStock (ship-api calls it when shipping)', () => {
  it('takes a reserved quantity off the record and a root unit, children in position order', async () => {
    await setPrefix(TEST_GS1_PREFIX);
    const receipt = await receive(receiptBody(partyId.ACME, [palletLine({ sku: 'PICK-1' })]));
    const id = receipt.lines[0]?.id as string;
    const before = await record(id);
    const pallet = before.handlingUnits[0];
    const shipmentId = await shipmentOf('PICK-1');
    await db.db.transaction().execute(async (trx) => {
      await sql`select 1 from stock_records where id = ${id} for update`.execute(trx);
      await sql`update stock_records set quantity_reserved = quantity_reserved + 35 where id = ${id}`.execute(
        trx,
      );
      await sql`update handling_units set quantity_reserved = 35 where id = ${pallet?.id}`.execute(trx);
      await pickStock(trx, {
        stockRecordId: id,
        handlingUnitId: pallet?.id as string,
        quantity: 35,
        shipmentId,
        actorId: null,
      });
    });
    const after = await record(id);
    expect(after).toMatchObject({ quantityOnHand: 65, quantityReserved: 0, quantityAvailable: 65 });
    // Pallet 60 → 25: carton 1 (30: items 10, 20) emptied first, then 5 of carton 2.
    expect(after.handlingUnits.slice(0, 5).map((u) => u.quantity)).toEqual([25, 0, 0, 0, 25]);
    const moves = (await call('GET', `/stock/${id}/movements`, admin)).body as { items: Json[] };
    expect(moves.items[0]).toMatchObject({ kind: 'pick', quantity: -35, fromLocation: 'RTM1-A-01-01' });
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('cannot take what is not reserved: the database refuses', async () => {
    const receipt = await receive(receiptBody(partyId.ACME, [looseLine({ sku: 'PICK-2', quantity: 5 })]));
    const id = receipt.lines[0]?.id as string;
    const shipmentId = await shipmentOf('PICK-2');
    await expect(
      db.db.transaction().execute((trx) =>
        pickStock(trx, {
          stockRecordId: id,
          handlingUnitId: null,
          quantity: 3,
          shipmentId,
          actorId: null,
        }),
      ),
    ).rejects.toThrow(/check constraint/);
    expect((await record(id)).quantityOnHand).toBe(5);
  });
});

describe('hub: warehouse changes reach cw_access users only', () => {
  it('an admin (cw_access) hears of a stock change, staff without cw_access hears nothing', async () => {
    const adminConn = await hub.connect(admin);
    const staffConn = await hub.connect(staff);
    const staffHeard: unknown[] = [];
    staffConn.on('RecordChanged', (e: { kind: string }) => {
      if (e.kind === 'stock') staffHeard.push(e);
    });
    const heard = nextEvent<{ kind: string; id: string }>(
      adminConn,
      'RecordChanged',
      (e) => e.kind === 'stock',
    );
    const receipt = await receive(receiptBody(partyId.ACME, [looseLine({ sku: 'HUB-1' })]));
    expect(await heard).toMatchObject({ kind: 'stock', id: receipt.lines[0]?.id });
    // A later non-warehouse change reaches staff: had the stock change been sent to them, it came first.
    const party = nextEvent<{ kind: string }>(staffConn, 'RecordChanged', (e) => e.kind === 'party');
    const p = (await call('GET', `/parties/${partyId.GLOBEX}`, admin)).body as { version: number };
    const u = await call('PATCH', `/parties/${partyId.GLOBEX}`, admin, {
      version: p.version,
      phone: '+31 10 123 4567',
    });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    await party;
    expect(staffHeard).toEqual([]);
  });
});

describe('property: random receipts, transfers, adjustments, reservations and picks', () => {
  it('keep on hand = Σ movements, parents = Σ children, 0 ≤ reserved ≤ on hand', async () => {
    await setPrefix(TEST_GS1_PREFIX);
    await receive(receiptBody(partyId.ACME, [looseLine({ sku: 'PROP-SHIP', quantity: 1 })]));
    const shipmentId = await shipmentOf('PROP-SHIP');
    const locations = ['RTM1-A-01-01', 'RTM1-A-02-01', 'RTM1-B-01-03', 'RTM2-A-1'];
    const op = fc.oneof(
      fc.record({
        t: fc.constant('receipt' as const),
        units: fc.boolean(),
        q: fc.integer({ min: 1, max: 50 }),
      }),
      fc.record({ t: fc.constant('adjust' as const), pick: fc.nat(), q: fc.integer({ min: -40, max: 40 }) }),
      fc.record({
        t: fc.constant('transfer' as const),
        pick: fc.nat(),
        to: fc.constantFrom(...locations),
        whole: fc.boolean(),
      }),
      fc.record({ t: fc.constant('reserve' as const), pick: fc.nat(), q: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ t: fc.constant('ship' as const), pick: fc.nat(), q: fc.integer({ min: 1, max: 30 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const ids: string[] = [];
        for (const o of ops) {
          if (o.t === 'receipt' || ids.length === 0) {
            const q = o.t === 'receipt' ? o.q : 20;
            const units = o.t !== 'receipt' || o.units;
            const line = units
              ? looseLine({
                  sku: 'PROP-1',
                  quantity: q + 2,
                  handlingUnits: [
                    { kind: 'pallet', quantity: q, children: [{ kind: 'item', quantity: q }] },
                    {
                      kind: 'carton',
                      quantity: 2,
                      location: 'RTM1-B-01-03',
                      children: [{ kind: 'item', quantity: 2 }],
                    },
                  ],
                })
              : looseLine({ sku: 'PROP-1', quantity: q });
            ids.push((await receive(receiptBody(partyId.ACME, [line]))).lines[0]?.id as string);
            if (o.t === 'receipt') continue;
          }
          const id = ids[(o as { pick: number }).pick % ids.length] as string;
          const s = await record(id);
          const leaves = s.handlingUnits.filter((u) => !s.handlingUnits.some((c) => c.parentId === u.id));
          const roots = s.handlingUnits.filter((u) => u.parentId === null);
          if (o.t === 'adjust') {
            if (o.q === 0) continue;
            const leaf = leaves[o.pick % Math.max(leaves.length, 1)];
            await post(id, {
              kind: 'adjustment',
              version: s.version,
              quantity: o.q,
              reason: 'Stock count',
              ...(leaf ? { handlingUnitId: leaf.id } : {}),
            });
          } else if (o.t === 'transfer') {
            const root = roots[o.pick % Math.max(roots.length, 1)];
            await post(id, {
              kind: 'transfer',
              version: s.version,
              toLocation: o.to,
              ...(root && !o.whole ? { handlingUnitId: root.id } : {}),
            });
          } else {
            const root = roots[o.pick % Math.max(roots.length, 1)];
            await db.db
              .transaction()
              .execute(async (trx) => {
                await sql`select 1 from stock_records where id = ${id} for update`.execute(trx);
                if (o.t === 'reserve') {
                  // As ship-api's release does: on the record and the root; the checks refuse too much.
                  await sql`update stock_records set quantity_reserved = quantity_reserved + ${o.q} where id = ${id}`.execute(
                    trx,
                  );
                  if (root)
                    await sql`update handling_units set quantity_reserved = quantity_reserved + ${o.q} where id = ${root.id}`.execute(
                      trx,
                    );
                } else {
                  const held = root ? root.quantityReserved : s.quantityReserved;
                  const q = Math.min(o.q, held);
                  if (q > 0)
                    await pickStock(trx, {
                      stockRecordId: id,
                      handlingUnitId: root?.id ?? null,
                      quantity: q,
                      shipmentId,
                      actorId: null,
                    });
                }
              })
              .catch((e: { code?: string }) => {
                // A reservation beyond what is there is the database's to refuse; a pick never fails.
                if (o.t !== 'reserve' || e.code !== '23514') throw e;
              });
          }
        }
        expect(await stockInvariantViolations(db.db)).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });

  const post = async (id: string, body: Json) => {
    const r = await call('POST', `/stock/${id}/movements`, admin, body);
    // Refusals are part of the game; a 5xx is not.
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
    return r;
  };
});
