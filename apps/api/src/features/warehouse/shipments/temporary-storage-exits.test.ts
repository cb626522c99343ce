import type { Shipment } from '@fvg/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Auth, apiTest } from '../../../test/api-test.ts';
import type { Json } from '../../../test/helpers.ts';
import { content, declarations, sandbox } from '../../declarations/sandbox/test-support.ts';
import { looseLine, receiptBody, stockInvariantViolations, testMrn } from '../stock/test-support.ts';

/**
 * Goods in temporary storage leave a shipment by their own procedures (4000, 3100), never through a
 * dead end; one shipment holds goods that one declaration can take (brief s30 item 1, ADR 0046/0048).
 * The app runs the job worker with the sandbox authority answering at once.
 */
const setup = apiTest({ config: { jobsEnabled: true, sandbox: sandbox() } });
const { db, admin, staff, acme, partyId, call } = setup;
/** An Acme customer user without customs-warehouse access. */
let acmeNoCw: Auth;
beforeAll(async () => {
  acmeNoCw = await setup.newUser({
    email: 'nocw@acme.example',
    role: 'customer',
    party: 'ACME',
    cwAccess: false,
  });
});

const api = declarations(
  () => setup.app,
  () => admin,
);
const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];
type Receipt = Json & { id: string; lines: (Json & { id: string })[] };

async function receive(sku: string, customsStatus: string, quantity = 20): Promise<Receipt> {
  const r = await call(
    'POST',
    '/stock-receipts',
    admin,
    receiptBody(
      partyId.ACME,
      [looseLine({ sku, quantity, grossMassKg: '40', netMassKg: '30', value: '200.00', currency: 'EUR' })],
      customsStatus === 'temporary_storage'
        ? { customsStatus, inboundMrn: testMrn() }
        : { customsStatus, inboundMrn: testMrn(), inboundMrnExternal: true },
    ),
  );
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Receipt;
}
async function draft(body: Json) {
  return call('POST', '/shipments', admin, { ownerId: partyId.ACME, ...body });
}
async function move(s: Pick<Shipment, 'id' | 'version'>, to: string) {
  const r = await call('POST', `/shipments/${s.id}/transitions`, admin, { to, version: s.version });
  expect(r.status, `${to}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body as unknown as Shipment;
}
async function stockRow(id: string) {
  return db.db
    .selectFrom('stock_records')
    .select(['quantity_on_hand', 'quantity_reserved'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('goods in temporary storage leave a shipment by 4000 or 3100', () => {
  it('receipt → shipment under 4000 → prefilled declaration → sandbox release → shipped, stock right', async () => {
    const rc = await receive('ts-out-1', 'temporary_storage');
    const mrn = rc.inboundMrn as string;
    const created = await draft({ outboundProcedure: '4000', lines: [{ sku: 'ts-out-1', quantity: 8 }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    let s = await move(created.body as unknown as Shipment, 'released');
    expect(s.allowedActions).toContain('declare');
    expect(await stockRow(rc.lines[0]?.id as string)).toMatchObject({
      quantity_on_hand: 20,
      quantity_reserved: 8,
    });

    const declared = await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version });
    expect(declared.status, JSON.stringify(declared.body)).toBe(201);
    s = declared.body as unknown as Shipment;
    const d = (await api.get(s.declaration?.id as string)) as Json & {
      id: string;
      version: number;
      items: (Json & { id: string; position: number; estimate: unknown })[];
    };
    expect(d).toMatchObject({ type: 'import', category: 'H1', shipment: { id: s.id, number: s.number } });
    expect(d.items).toHaveLength(1);
    expect(d.items[0]).toMatchObject({
      procedureCode: '4000',
      commodityCode: '85182200',
      countryOfOrigin: 'CN',
      grossMassKg: '16',
      netMassKg: '12',
      invoiceValue: '80.00',
      previousDocuments: [{ type: 'N337', reference: mrn }],
    });

    // The clerk completes what the stock cannot know, then lodges; the sandbox accepts and releases.
    const full = content('import', partyId.ACME);
    const { id: _id, position: _p, estimate: _e, ...item } = d.items[0] as Json;
    const patched = await call('PATCH', `/declarations/${d.id}`, admin, {
      version: d.version,
      declarant: full.declarant,
      representative: null,
      representativeStatus: full.representativeStatus,
      consignor: full.consignor,
      consignee: full.consignee,
      officeOfLodgement: full.officeOfLodgement,
      officeOfExitEntry: full.officeOfExitEntry,
      countryOfDispatch: 'CN',
      countryOfDestination: 'NL',
      transportModeBorder: '1',
      transportModeInland: '3',
      meansAtBorder: 'MAERSK ESSEX',
      meansAtBorderCountry: 'DK',
      containerIndicator: false,
      incoterm: 'CIF',
      incotermPlace: 'Rotterdam',
      natureOfTransaction: '11',
      currency: 'EUR',
      invoiceTotal: '80.00',
      methodOfPayment: 'H',
      locationOfGoods: 'NLRTM ECT Delta',
      locationOfGoodsType: 'C',
      locationOfGoodsQualifier: 'Z',
      items: [
        {
          ...item,
          packages: 1,
          packageKind: 'PK',
          preference: '100',
          customsValue: '84.00',
          statisticalValue: '84.00',
          dutyRate: '0',
          vatRate: '21',
          supportingDocuments: [{ type: 'N380', reference: 'INV-TS-1' }],
        },
      ],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await api.act(d.id, 'lodge');
    const released = await api.until(d.id, 'released');
    expect(released.mrn).toEqual(expect.any(String));

    s = (await call('GET', `/shipments/${s.id}`, admin)).body as unknown as Shipment;
    expect(s.shipBlocker).toBeNull();
    for (const to of ['picking', 'packed', 'shipped']) s = await move(s, to);
    expect(s.status).toBe('shipped');
    expect(await stockRow(rc.lines[0]?.id as string)).toMatchObject({
      quantity_on_hand: 12,
      quantity_reserved: 0,
    });
    expect(await stockInvariantViolations(db.db)).toEqual([]);
  });

  it('re-exports under 3100: an export declaration citing the temporary storage, shipped once exited', async () => {
    const rc = await receive('ts-out-2', 'temporary_storage');
    let s = await move(
      (await draft({ outboundProcedure: '3100', lines: [{ sku: 'ts-out-2', quantity: 5 }] }))
        .body as unknown as Shipment,
      'released',
    );
    s = (await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version }))
      .body as unknown as Shipment;
    const d = (await api.get(s.declaration?.id as string)) as Json & { items: Json[] };
    expect(d).toMatchObject({ type: 'export', category: 'B1' });
    expect(d.items[0]).toMatchObject({
      procedureCode: '3100',
      previousDocuments: [{ type: 'N337', reference: rc.inboundMrn }],
    });
    for (const to of ['picking', 'packed']) s = await move(s, to);
    expect(s.shipBlocker).toMatch(/re-export from temporary storage \(3100\) is exited/);
    await db.db
      .updateTable('declarations')
      .set({ status: 'exited' })
      .where('id', '=', d.id as string)
      .execute();
    s = (await call('GET', `/shipments/${s.id}`, admin)).body as unknown as Shipment;
    expect((await move(s, 'shipped')).status).toBe('shipped');
    expect(await stockRow(rc.lines[0]?.id as string)).toMatchObject({ quantity_on_hand: 15 });
  });

  it('names the procedures that fit when none is chosen, and refuses 4000 for customs-warehoused goods', async () => {
    await receive('ts-out-3', 'temporary_storage');
    const none = (await draft({ lines: [{ sku: 'ts-out-3', quantity: 1 }] })).body as unknown as Shipment;
    const r = await call('POST', `/shipments/${none.id}/transitions`, admin, {
      to: 'released',
      version: none.version,
    });
    expect(r.status).toBe(422);
    expect(errors(r.body)[0]).toEqual({
      field: 'outboundProcedure',
      message: expect.stringContaining(
        'choose its outbound procedure (4000 release for free circulation or 3100 re-export)',
      ),
    });
    await receive('cw-out-1', 'non_union_customs_warehousing');
    const cw = (await draft({ outboundProcedure: '4000', lines: [{ sku: 'cw-out-1', quantity: 1 }] }))
      .body as unknown as Shipment;
    const refused = await call('POST', `/shipments/${cw.id}/transitions`, admin, {
      to: 'released',
      version: cw.version,
    });
    expect(refused.status).toBe(422);
    expect(errors(refused.body)[0]?.message).toMatch(/^Goods under customs warehousing leave by a procedure/);
  });
});

describe('one shipment, one declaration: temporary storage and customs warehousing do not mix', () => {
  it('refuses a line whose goods cannot share the declaration of the lines before it (422 on the line)', async () => {
    await receive('mix-cw', 'non_union_customs_warehousing');
    await receive('mix-ts', 'temporary_storage');
    await receive('mix-union', 'union');
    const r = await draft({
      lines: [
        { sku: 'mix-cw', quantity: 1 },
        { sku: 'mix-union', quantity: 1 },
        { sku: 'mix-ts', quantity: 1 },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(errors(r.body)).toEqual([
      {
        field: 'lines.2.sku',
        message: expect.stringMatching(
          /^Line 3 \(MIX-TS\) is in temporary storage .* but Line 1 \(MIX-CW\) is under customs warehousing .*separate shipments$/,
        ),
      },
    ]);
    // The same on an edit of a draft.
    const ok = (await draft({ lines: [{ sku: 'mix-cw', quantity: 1 }] })).body as unknown as Shipment;
    const edit = await call('PATCH', `/shipments/${ok.id}`, admin, {
      version: ok.version,
      lines: [
        { sku: 'mix-cw', quantity: 1 },
        { sku: 'mix-ts', quantity: 1 },
      ],
    });
    expect(edit.status).toBe(422);
    expect(errors(edit.body)[0]?.field).toBe('lines.1.sku');
  });

  it('an article held under both asks for the stock record; given records are judged by their own status', async () => {
    const cw = await receive('both-1', 'non_union_customs_warehousing');
    const ts = await receive('both-1', 'temporary_storage');
    const bySku = await draft({ lines: [{ sku: 'both-1', quantity: 1 }] });
    expect(bySku.status).toBe(422);
    expect(errors(bySku.body)).toEqual([
      { field: 'lines.0.sku', message: expect.stringMatching(/choose the stock record of one of them/) },
    ]);
    const byRecord = await draft({
      outboundProcedure: '4000',
      lines: [{ stockRecordId: ts.lines[0]?.id, quantity: 2 }],
    });
    expect(byRecord.status, JSON.stringify(byRecord.body)).toBe(201);
    const mixed = await draft({
      lines: [
        { stockRecordId: ts.lines[0]?.id, quantity: 1 },
        { stockRecordId: cw.lines[0]?.id, quantity: 1 },
      ],
    });
    expect(mixed.status).toBe(422);
    expect(errors(mixed.body)[0]?.field).toBe('lines.1.stockRecordId');
  });

  it('the release judges what it takes, and the database refuses a mixed shipment whoever writes it', async () => {
    const cw = await receive('late-1', 'non_union_customs_warehousing');
    await receive('late-2', 'union');
    const s = (
      await draft({
        outboundProcedure: '4071',
        lines: [
          { sku: 'late-1', quantity: 1 },
          { sku: 'late-2', quantity: 1 },
        ],
      })
    ).body as unknown as Shipment;
    // The second article's stock turned out to be in temporary storage after the draft was written.
    await sql`update stock_records set customs_status = 'temporary_storage' where sku = 'LATE-2'`.execute(
      db.db,
    );
    const r = await call('POST', `/shipments/${s.id}/transitions`, admin, {
      to: 'released',
      version: s.version,
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/cannot be released: .*Nothing was reserved\.$/);
    expect(errors(r.body)[0]?.field).toBe('lines.1.sku');
    expect(await stockRow(cw.lines[0]?.id as string)).toMatchObject({ quantity_reserved: 0 });

    const lines = await db.db
      .selectFrom('shipment_lines')
      .select(['id', 'sku'])
      .where('shipment_id', '=', s.id)
      .execute();
    const records = await db.db
      .selectFrom('stock_records')
      .select(['id', 'sku'])
      .where('sku', 'in', ['LATE-1', 'LATE-2'])
      .execute();
    await expect(
      db.db
        .insertInto('shipment_allocations')
        .values(
          lines.map((l) => ({
            shipment_id: s.id,
            line_id: l.id,
            stock_record_id: records.find((x) => x.sku === l.sku)?.id as string,
            quantity: 1,
          })),
        )
        .execute(),
    ).rejects.toMatchObject({ code: '23514', constraint: 'shipment_allocations_one_declaration' });
  });
});

describe('a declaration names its shipment only to readers with warehouse access', () => {
  it('a customer (or staff) without cw_access reads the declaration without its shipment: record, list, export, history', async () => {
    await receive('gate-1', 'temporary_storage');
    let s = await move(
      (await draft({ outboundProcedure: '4000', lines: [{ sku: 'gate-1', quantity: 1 }] }))
        .body as unknown as Shipment,
      'released',
    );
    s = (await call('POST', `/shipments/${s.id}/declaration`, admin, { version: s.version }))
      .body as unknown as Shipment;
    const id = s.declaration?.id as string;
    // Lodged and released (customers see declarations once lodged); the history carries the link.
    await db.db.updateTable('declarations').set({ status: 'released' }).where('id', '=', id).execute();
    await db.db
      .insertInto('audit_log')
      .values({
        record_kind: 'declaration',
        record_id: id,
        action: 'lodged',
        actor_id: null,
        changes: JSON.stringify([{ field: 'status', from: 'draft', to: 'lodged' }]),
      })
      .execute();

    const withCw = await call('GET', `/declarations/${id}`, acme);
    expect(withCw.status).toBe(200);
    expect(withCw.body.shipment).toEqual({ id: s.id, number: s.number });
    expect((await call('GET', `/declarations/${id}`, admin)).body.shipment).toEqual({
      id: s.id,
      number: s.number,
    });

    for (const who of [acmeNoCw, staff]) {
      const one = await call('GET', `/declarations/${id}`, who);
      expect(one.status).toBe(200);
      expect(one.body.shipment).toBeNull();
      expect(JSON.stringify(one.body)).not.toContain(s.id);
      const list = await call('GET', `/declarations?q=${one.body.lrn as string}`, who);
      const item = (list.body.items as Json[]).find((d) => d.id === id);
      expect(item).toMatchObject({ shipment: null });
      const csv = await call('GET', `/declarations/export?format=csv&q=${one.body.lrn as string}`, who);
      expect(csv.status).toBe(200);
      expect(csv.raw).not.toContain(s.number);
      const history = await call('GET', `/declarations/${id}/history`, who);
      expect(history.status).toBe(200);
      expect(history.raw).not.toContain(s.number);
    }
    const adminHistory = await call('GET', `/declarations/${id}/history`, admin);
    expect(adminHistory.raw).toContain(s.number);
  });
});
