import { makeSscc } from '@fvg/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { demoTokens, type Json } from '../../test/helpers.ts';
import { looseLine, receiptBody, stockInvariantViolations, testMrn, testSscc } from './stock/test-support.ts';

/**
 * Defects found in the review of the merged warehouse (issue 13), each pinned by the request that
 * showed it. Quantities are int4 in the database; a body within the contract's limits must never
 * make a statement overflow (a 500) — it is refused on its field, and the totals lists show add up
 * beyond int4 without failing.
 */
const setup = apiTest();
const { db, admin, partyId, call } = setup;
const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];
const BIG = 1_000_000_000;

async function receive(lines: unknown[]) {
  const r = await call('POST', '/stock-receipts', admin, receiptBody(partyId.ACME, lines));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Json & { id: string; number: string; lines: (Json & { id: string; version: number })[] };
}

describe('quantities near the int4 limit', () => {
  it('lists a receipt whose lines hold more than 2³¹ in all', async () => {
    const receipt = await receive([1, 2, 3].map((n) => looseLine({ sku: `BIG-R${n}`, quantity: BIG })));
    const list = await call('GET', `/stock-receipts?reference=${receipt.number}`, admin);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect((list.body.items as Json[])[0]?.quantity).toBe(3 * BIG);
  });

  it('shows the availability of a SKU held in several records beyond 2³¹', async () => {
    for (let i = 0; i < 3; i++) await receive([looseLine({ sku: 'BIG-AV', quantity: BIG })]);
    const r = await call('GET', `/stock/availability?ownerId=${partyId.ACME}&q=BIG-AV`, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.items).toEqual([expect.objectContaining({ sku: 'BIG-AV', onHand: 3 * BIG, records: 3 })]);
  });

  it('lists a shipment whose lines order more than 2³¹ in all', async () => {
    await receive([looseLine({ sku: 'BIG-S', quantity: 10 })]);
    const created = await call('POST', '/shipments', admin, {
      ownerId: partyId.ACME,
      customerReference: 'BIG-ORDER',
      lines: [1, 2, 3].map(() => ({ sku: 'BIG-S', quantity: BIG })),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await call('GET', '/shipments?reference=BIG-ORDER', admin);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect((list.body.items as Json[])[0]?.quantity).toBe(3 * BIG);
  });

  it('refuses an adjustment that would take a record beyond what a quantity can hold (422, not 500)', async () => {
    const receipt = await receive([looseLine({ sku: 'BIG-ADJ', quantity: BIG })]);
    const record = (await call('GET', `/stock/${receipt.lines[0]?.id}`, admin)).body as Json & {
      id: string;
      version: number;
    };
    const first = await call('POST', `/stock/${record.id}/movements`, admin, {
      kind: 'adjustment',
      version: record.version,
      quantity: BIG,
      reason: 'Recount found more',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await call('POST', `/stock/${record.id}/movements`, admin, {
      kind: 'adjustment',
      version: first.body.version,
      quantity: BIG,
      reason: 'Recount found more',
    });
    expect(again.status, JSON.stringify(again.body)).toBe(422);
    expect(errors(again.body).map((e) => e.field)).toEqual(['quantity']);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });
});

describe('handling-unit trees', () => {
  it('answers a very deep tree with 400, not a crash', async () => {
    // Written by hand: JSON.stringify itself runs out of stack on this tree.
    const body = JSON.stringify(
      receiptBody(partyId.ACME, [looseLine({ quantity: 1, handlingUnits: ['TREE'] })]),
    );
    const open = '{"kind":"carton","quantity":1,"children":['.repeat(5000);
    const tree = `${open}{"kind":"item","quantity":1}${']}'.repeat(5000)}`;
    const r = await setup.app.inject({
      method: 'POST',
      url: '/api/stock-receipts',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: body.replace('"TREE"', tree),
    });
    expect(r.statusCode, r.body.slice(0, 300)).toBe(400);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    const fields = (JSON.parse(r.body) as Json & { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toEqual(['lines.0.handlingUnits.0.children.0.children.0.children']);
  });
});

describe('receipts, shipments and lists with odd input', () => {
  it('generates an SSCC that no unit carries yet, skipping one typed in by hand', async () => {
    const company = (await call('GET', '/company', admin)).body as { version: number };
    const put = await call('PUT', '/company', admin, {
      version: company.version,
      gs1CompanyPrefix: '8712345',
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const settings = await db.db
      .selectFrom('company_settings')
      .select(['sscc_extension_digit'])
      .executeTakeFirstOrThrow();
    const seq = await sql<{
      last_value: string;
      is_called: boolean;
    }>`select last_value::text, is_called from sscc_serial`.execute(db.db);
    const next = BigInt(seq.rows[0]?.last_value ?? '1') + (seq.rows[0]?.is_called ? 1n : 0n);
    const upcoming = makeSscc({
      extensionDigit: settings.sscc_extension_digit,
      companyPrefix: '8712345',
      serial: next,
    });
    await receive([
      looseLine({
        sku: 'SSCC-1',
        quantity: 5,
        handlingUnits: [{ kind: 'pallet', sscc: upcoming, quantity: 5 }],
      }),
    ]);
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      receiptBody(partyId.ACME, [
        looseLine({ sku: 'SSCC-2', quantity: 5, handlingUnits: [{ kind: 'pallet', quantity: 5 }] }),
      ]),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });

  it('does not name another party to a customer through the consignee (answered like a missing one)', async () => {
    const { acme } = await demoTokens(setup.app);
    await receive([looseLine({ sku: 'CONS-1', quantity: 5 })]);
    const order = (consigneeId: string) =>
      call('POST', '/shipments', acme, { consigneeId, lines: [{ sku: 'CONS-1', quantity: 1 }] });
    const other = await order(partyId.GLOBEX);
    const missing = await order('00000000-0000-4000-8000-0000000000aa');
    expect(JSON.stringify(other.body)).not.toMatch(/GLOBEX/i);
    expect([other.status, errors(other.body)]).toEqual([missing.status, errors(missing.body)]);
    expect(errors(other.body).map((e) => e.field)).toEqual(['consigneeId']);
    // Their own party and a typed name stay possible.
    const own = await order(partyId.ACME);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const draft = own.body as Json & { id: string; version: number };
    const patched = await call('PATCH', `/shipments/${draft.id}`, acme, {
      version: draft.version,
      consigneeId: partyId.GLOBEX,
    });
    expect([patched.status, errors(patched.body)]).toEqual([missing.status, errors(missing.body)]);
  });

  it.each([
    '/stock?sku=%00',
    '/stock?location=%00',
    '/stock-receipts?reference=%00',
    '/shipments?reference=%00',
    '/shipments?sku=%00',
    '/stock/availability?ownerId=OWNER&q=%00',
    '/stock?q=%00',
    '/shipments?q=%00',
  ])('GET %s is not a 5xx', async (url) => {
    const r = await call('GET', url.replace('OWNER', partyId.ACME), admin);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
  });

  it.each(['0000-01-01', '0001-01-01', '9999-12-31', '275760-09-13'])(
    'plannedDate %s is not a 5xx',
    async (d) => {
      await receive([looseLine({ sku: 'DATE-1', quantity: 5 })]);
      const r = await call('POST', '/shipments', admin, {
        ownerId: partyId.ACME,
        plannedDate: d,
        lines: [{ sku: 'DATE-1', quantity: 1 }],
      });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
      const l = await call('GET', `/shipments?from=${d}&to=${d}`, admin);
      expect(l.status, JSON.stringify(l.body)).toBeLessThan(500);
      const s = await call('GET', `/stock?from=${d}&to=${d}`, admin);
      expect(s.status, JSON.stringify(s.body)).toBeLessThan(500);
    },
  );
});

describe('two requests at once', () => {
  async function stockOf(sku: string, quantity: number, over: Json = {}) {
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      receiptBody(partyId.ACME, [looseLine({ sku, quantity })], over),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return (r.body as { lines: { id: string }[] }).lines[0]?.id as string;
  }
  async function releasedShipment(sku: string, quantity: number, over: Json = {}) {
    const c = await call('POST', '/shipments', admin, {
      ownerId: partyId.ACME,
      lines: [{ sku, quantity }],
      ...over,
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const r = await call('POST', `/shipments/${c.body.id}/transitions`, admin, {
      to: 'released',
      version: c.body.version,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as Json & { id: string; version: number };
  }

  it('cancel and pick of one shipment: one wins, the other is told so, reservations stay right', async () => {
    await stockOf('RACE-1', 10);
    const s = await releasedShipment('RACE-1', 6);
    const [a, b] = await Promise.all([
      call('POST', `/shipments/${s.id}/transitions`, admin, { to: 'cancelled', version: s.version }),
      call('POST', `/shipments/${s.id}/transitions`, admin, { to: 'picking', version: s.version }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('an adjustment and a release on the same record never leave it oversold', async () => {
    const id = await stockOf('RACE-2', 10);
    const c = await call('POST', '/shipments', admin, {
      ownerId: partyId.ACME,
      lines: [{ sku: 'RACE-2', quantity: 8 }],
    });
    const rec = (await call('GET', `/stock/${id}`, admin)).body as Json & { version: number };
    const [rel, adj] = await Promise.all([
      call('POST', `/shipments/${c.body.id}/transitions`, admin, { to: 'released', version: c.body.version }),
      call('POST', `/stock/${id}/movements`, admin, {
        kind: 'adjustment',
        version: rec.version,
        quantity: -5,
        reason: 'Broken in handling',
      }),
    ]);
    expect([rel.status, adj.status]).not.toContain(500);
    expect(rel.status === 200 && adj.status === 201).toBe(false);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('two outbound declarations of one shipment at once: one is made', async () => {
    await stockOf('RACE-3', 10, {
      customsStatus: 'non_union_customs_warehousing',
      inboundMrn: testMrn(),
      inboundMrnExternal: true,
    });
    const s = await releasedShipment('RACE-3', 4, { outboundProcedure: '4071' });
    const before = await db.db
      .selectFrom('declarations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const [a, b] = await Promise.all([
      call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version }),
      call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const after = await db.db
      .selectFrom('declarations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(1);
  });

  it('two receipts naming one SSCC at once: one is saved, the other says which SSCC', async () => {
    const sscc = testSscc();
    const body = (sku: string) =>
      receiptBody(partyId.ACME, [
        looseLine({ sku, quantity: 3, handlingUnits: [{ kind: 'pallet', sscc, quantity: 3 }] }),
      ]);
    const [a, b] = await Promise.all([
      call('POST', '/stock-receipts', admin, body('RACE-4A')),
      call('POST', '/stock-receipts', admin, body('RACE-4B')),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const refused = a.status === 409 ? a : b;
    expect(errors(refused.body).map((e) => e.field)).toEqual(['lines.0.handlingUnits.0.sscc']);
  });

  it('shipping non-Union goods waits for the declaration; a cancelled shipment stays cancelled', async () => {
    await stockOf('LIFE-1', 10, {
      customsStatus: 'non_union_customs_warehousing',
      inboundMrn: testMrn(),
      inboundMrnExternal: true,
    });
    let s = await releasedShipment('LIFE-1', 4, { outboundProcedure: '3171' });
    for (const to of ['picking', 'packed']) {
      const r = await call('POST', `/shipments/${s.id}/transitions`, admin, { to, version: s.version });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      s = r.body as typeof s;
    }
    const ship = await call('POST', `/shipments/${s.id}/transitions`, admin, {
      to: 'shipped',
      version: s.version,
    });
    expect(ship.status).toBe(409);
    expect(errors(ship.body).map((e) => e.field)).toEqual(['declaration']);
    const cancel = await call('POST', `/shipments/${s.id}/transitions`, admin, {
      to: 'cancelled',
      version: s.version,
    });
    expect(cancel.status).toBe(200);
    const again = await call('POST', `/shipments/${s.id}/transitions`, admin, {
      to: 'released',
      version: cancel.body.version,
    });
    expect(again.status).toBe(409);
    const del = await call('DELETE', `/shipments/${s.id}`, admin);
    expect(del.status).toBe(409);
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });
});

describe('the outbound declaration draft of a shipment', () => {
  it('can be deleted: the shipment forgets it and may be declared again', async () => {
    const r = await call(
      'POST',
      '/stock-receipts',
      admin,
      receiptBody(partyId.ACME, [looseLine({ sku: 'DECL-DEL', quantity: 10 })], {
        customsStatus: 'non_union_customs_warehousing',
        inboundMrn: testMrn(),
        inboundMrnExternal: true,
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const c = await call('POST', '/shipments', admin, {
      ownerId: partyId.ACME,
      outboundProcedure: '4071',
      lines: [{ sku: 'DECL-DEL', quantity: 3 }],
    });
    const rel = await call('POST', `/shipments/${c.body.id}/transitions`, admin, {
      to: 'released',
      version: c.body.version,
    });
    const declared = await call('POST', `/shipments/${c.body.id}/declaration`, admin, {
      version: rel.body.version,
    });
    expect(declared.status, JSON.stringify(declared.body)).toBe(201);
    const declarationId = (declared.body.declaration as { id: string }).id;
    const del = await call('DELETE', `/declarations/${declarationId}`, admin);
    expect(del.status, JSON.stringify(del.body)).toBe(204);
    const after = await call('GET', `/shipments/${c.body.id}`, admin);
    expect(after.body.declaration).toBeNull();
    expect(after.body.allowedActions).toContain('declare');
    const again = await call('POST', `/shipments/${c.body.id}/declaration`, admin, {
      version: after.body.version,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });
});
