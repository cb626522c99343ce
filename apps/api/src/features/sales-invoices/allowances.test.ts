import { type RawBuilder, sql } from 'kysely';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { todayIn } from './sales-invoices.service.ts';
import { completeCompany, draftBody, line } from './test-support.ts';

/**
 * Issue 23 item 5 (ADR 0049): allowances and charges stored on invoices and lines, through the API's
 * create, edit, issue and credit note paths, the ONE rule's 422 fields, the totals, and the database's
 * last line (the issued totals must add up, BT-109 = BT-106 − BT-107 + BT-108).
 */
const setup = apiTest({ prepare: completeCompany });
const { db, staff, acme, partyId, call } = setup;
const today = todayIn();

const fields = (body: Json) =>
  ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field).sort();

const volumeDiscount = { isCharge: false, amount: '50.00', reasonCode: '95', reason: 'Volume discount' };
const freightCharge = { isCharge: true, amount: '25.00', reasonCode: 'FC', reason: null };
const loyalty = {
  isCharge: false,
  amount: '100.00',
  reasonCode: '95',
  reason: 'Loyalty discount',
  vatCode: 'S',
  vatRate: '21',
};
const packaging = {
  isCharge: true,
  amount: '30.00',
  reasonCode: 'ABL',
  reason: null,
  vatCode: 'S',
  vatRate: '21',
};

/**
 * Road transport 1 × 1000.00 − 50.00 + 25.00 at 21 %, storage 2 × 40.00 at 9 %, and on the document a
 * 100.00 discount and a 30.00 surcharge at 21 %: S 21 taxable 975 − 100 + 30 = 905.00, VAT 190.05;
 * S 9 taxable 80.00, VAT 7.20; BT-106 1055.00, BT-109 985.00, BT-112 1182.25.
 */
const body = (over: Record<string, unknown> = {}) =>
  draftBody(partyId.ACME, {
    buyerReference: 'PO-ALLOW-1',
    allowanceCharges: [loyalty, packaging],
    lines: [
      line({
        description: 'Road transport',
        unitPrice: '1000',
        allowanceCharges: [volumeDiscount, freightCharge],
      }),
      line({
        chargeCode: 'STORAGE',
        description: 'Pallet storage',
        quantity: '2',
        unit: 'DAY',
        unitPrice: '40',
        vatRate: '9',
      }),
    ],
    ...over,
  });
const expectedTotals = {
  lineExtensionAmount: '1055.00',
  allowanceTotalAmount: '100.00',
  chargeTotalAmount: '30.00',
  taxExclusiveAmount: '985.00',
  vatTotal: '197.25',
  taxInclusiveAmount: '1182.25',
};

async function draft(over: Record<string, unknown> = {}): Promise<Json> {
  const r = await call('POST', '/sales-invoices', staff, body(over));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}
async function issue(doc: Json): Promise<Json> {
  const r = await call('POST', `/sales-invoices/${doc.id}/issue`, staff, { version: doc.version });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

describe('stored, on create and edit', () => {
  it('keeps document and line allowances and charges, with the totals they give', async () => {
    const d = await draft();
    expect(d.allowanceCharges).toEqual([loyalty, packaging]);
    expect((d.lines as Json[])[0]).toMatchObject({
      lineNet: '975.00',
      allowanceCharges: [volumeDiscount, freightCharge],
    });
    expect((d.lines as Json[])[1]).toMatchObject({ lineNet: '80.00', allowanceCharges: [] });
    expect(d.totals).toMatchObject(expectedTotals);
    expect(
      ((d.totals as Json).vatGroups as Json[]).map((g) => [g.vatRate, g.taxableAmount, g.vatAmount]),
    ).toEqual([
      ['21', '905.00', '190.05'],
      ['9', '80.00', '7.20'],
    ]);
    // Stored as such: the list's total is the stored one.
    const row = await sql<Json>`select allowance_total_amount::text a, charge_total_amount::text c,
      tax_inclusive_amount::text t from sales_invoices where id = ${d.id as string}`.execute(db.db);
    expect(row.rows[0]).toEqual({ a: '100.00', c: '30.00', t: '1182.25' });
    const list = await call('GET', `/sales-invoices?q=PO-ALLOW-1&status=draft`, staff);
    expect((list.body.items as Json[]).find((i) => i.id === d.id)?.taxInclusiveAmount).toBe('1182.25');
  });

  it('an edit replaces them and the totals follow; one left out of the PATCH stays', async () => {
    const d = await draft();
    const edited = await call('PATCH', `/sales-invoices/${d.id}`, staff, {
      version: d.version,
      allowanceCharges: [{ ...loyalty, amount: '10.00' }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.totals).toMatchObject({
      allowanceTotalAmount: '10.00',
      chargeTotalAmount: '0.00',
      taxExclusiveAmount: '1045.00',
    });
    const notes = await call('PATCH', `/sales-invoices/${d.id}`, staff, {
      version: edited.body.version,
      notes: 'x',
    });
    expect(notes.body.allowanceCharges).toEqual([{ ...loyalty, amount: '10.00' }]);
    const history = await call('GET', `/sales-invoices/${d.id}/history`, staff);
    expect(JSON.stringify(history.body)).toContain('discount 10.00 Loyalty discount');
  });

  it('a refusal names the field of the broken one, on create and on edit, and writes nothing', async () => {
    const bad = await call(
      'POST',
      '/sales-invoices',
      staff,
      body({
        allowanceCharges: [{ ...loyalty, amount: '0' }],
        lines: [
          line(),
          line(),
          line({
            allowanceCharges: [
              { isCharge: true, amount: '5', reasonCode: 'XYZ' },
              { isCharge: false, amount: '5', reasonCode: 'FC' },
            ],
          }),
        ],
      }),
    );
    // The contract runs the rule per allowance (a body's shape: 400, as a line's own fields); the
    // service runs it over the document (422), so a path without the contract (seed, copy) keeps it.
    expect(bad.status, JSON.stringify(bad.body)).toBe(400);
    expect(fields(bad.body)).toEqual([
      'allowanceCharges.0.amount',
      'lines.2.allowanceCharges.0.reasonCode',
      'lines.2.allowanceCharges.1.reasonCode',
    ]);
    const reasonless = await call(
      'POST',
      '/sales-invoices',
      staff,
      body({ allowanceCharges: [{ ...loyalty, reasonCode: null, reason: ' ' }] }),
    );
    expect(reasonless.status).toBe(400);
    expect(fields(reasonless.body)).toEqual(['allowanceCharges.0.reason']);
    // A line discounted below zero is a negative line (ADR 0029); a document below zero too.
    const negativeLine = await call('POST', '/sales-invoices', staff, {
      ...draftBody(partyId.ACME),
      lines: [line({ unitPrice: '10', allowanceCharges: [{ ...volumeDiscount, amount: '10.01' }] })],
    });
    expect(negativeLine.status).toBe(422);
    expect(fields(negativeLine.body)).toEqual(['lines.0.allowanceCharges']);
    const negativeDoc = await call('POST', '/sales-invoices', staff, {
      ...draftBody(partyId.ACME),
      lines: [line({ unitPrice: '10' })],
      allowanceCharges: [{ ...loyalty, amount: '10.01' }],
    });
    expect(fields(negativeDoc.body)).toEqual(['allowanceCharges']);
    const sRateless = await call(
      'POST',
      '/sales-invoices',
      staff,
      body({ allowanceCharges: [{ ...loyalty, vatRate: null }] }),
    );
    expect(sRateless.status).toBe(400);
    expect(fields(sRateless.body)).toEqual(['allowanceCharges.0.vatRate']);

    const d = await draft();
    const edit = await call('PATCH', `/sales-invoices/${d.id}`, staff, {
      version: d.version,
      allowanceCharges: [{ ...loyalty, amount: '2000.00' }],
    });
    expect(edit.status).toBe(422);
    expect(fields(edit.body)).toEqual(['allowanceCharges']);
    const after = await call('GET', `/sales-invoices/${d.id}`, staff);
    expect(after.body.version).toBe(d.version);
    expect(after.body.allowanceCharges).toEqual([loyalty, packaging]);
  });
});

describe('issue', () => {
  it('a document allowance takes a VAT rate of the seller’s country and a VAT group of the lines', async () => {
    const wrongRate = await draft({ allowanceCharges: [{ ...loyalty, vatRate: '19' }] });
    const r1 = await call('POST', `/sales-invoices/${wrongRate.id}/issue`, staff, {
      version: wrongRate.version,
    });
    expect(r1.status).toBe(422);
    expect(fields(r1.body)).toEqual(['allowanceCharges.0.vatRate']);
    const noSuchGroup = await draft({
      allowanceCharges: [{ ...loyalty, vatCode: 'E', vatRate: '0' }],
    });
    const r2 = await call('POST', `/sales-invoices/${noSuchGroup.id}/issue`, staff, {
      version: noSuchGroup.version,
    });
    expect(r2.status).toBe(422);
    expect(fields(r2.body)).toEqual(['allowanceCharges.0.vatCode']);
  });

  it('stores the totals with them; the customer reads them; a stored draft gone bad is refused', async () => {
    const issued = await issue(await draft());
    expect(issued.totals).toMatchObject(expectedTotals);
    expect(issued.allowanceCharges).toEqual([loyalty, packaging]);
    const seen = await call('GET', `/sales-invoices/${issued.id}`, acme);
    expect(seen.status).toBe(200);
    expect(seen.body.totals).toMatchObject(expectedTotals);
    expect((seen.body.lines as Json[])[0]?.allowanceCharges).toEqual([volumeDiscount, freightCharge]);

    // Written around the API (an old draft, an operator's SQL): issuing judges it again.
    const d = await draft();
    await sql`update sales_invoices set allowance_charges = ${JSON.stringify([{ ...loyalty, amount: '5000.00' }])}::jsonb
      where id = ${d.id as string}`.execute(db.db);
    const r = await call('POST', `/sales-invoices/${d.id}/issue`, staff, { version: d.version });
    expect(r.status).toBe(422);
    expect(fields(r.body)).toContain('allowanceCharges');
  });
});

/** The PDF's text as a reader extracts it (pdf.js), whitespace collapsed. */
async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, verbosity: 0 }).promise;
  let text = '';
  for (let n = 1; n <= doc.numPages; n++)
    for (const item of (await (await doc.getPage(n)).getTextContent()).items)
      if ('str' in item) text += ` ${item.str}`;
  return text.replace(/\s+/g, ' ');
}

describe('the PDF of a stored one', () => {
  it('prints them from the database, draft and issued', async () => {
    const d = await draft();
    for (const id of [d.id, (await issue(d)).id]) {
      const pdf = await setup.app.inject({
        method: 'GET',
        url: `/api/sales-invoices/${id}/pdf`,
        headers: staff,
      });
      expect(pdf.statusCode).toBe(200);
      const text = await pdfText(pdf.rawPayload);
      expect(text).toContain('Volume discount');
      expect(text).toContain('Loyalty discount');
      expect(text).toContain('Additional packaging');
      expect(text).toMatch(/1[.,\s]?182[.,]25/);
    }
  });
});

describe('credit notes (ADR 0049)', () => {
  it('a credit note of the whole invoice copies them, and gives back exactly the total', async () => {
    const invoice = await issue(await draft());
    const cn = await call('POST', `/sales-invoices/${invoice.id}/credit-notes`, staff, {
      version: invoice.version,
    });
    expect(cn.status, JSON.stringify(cn.body)).toBe(201);
    expect(cn.body.allowanceCharges).toEqual([loyalty, packaging]);
    expect((cn.body.lines as Json[])[0]?.allowanceCharges).toEqual([volumeDiscount, freightCharge]);
    expect(cn.body.totals).toMatchObject(expectedTotals);
    // Dropping the document's discount would give back more than was invoiced.
    const dropped = await call('PATCH', `/sales-invoices/${cn.body.id}`, staff, {
      version: cn.body.version,
      allowanceCharges: [],
    });
    expect(dropped.status).toBe(422);
    expect(fields(dropped.body)).toEqual(['allowanceCharges']);
    const done = await issue(cn.body);
    expect(done.totals).toMatchObject(expectedTotals);
    expect((await call('GET', `/sales-invoices/${invoice.id}`, staff)).body.status).toBe('credited');
  });

  it('a part of an invoice with document allowances or charges is refused; line ones go with their whole line', async () => {
    const invoice = await issue(await draft());
    const [road, storage] = invoice.lines as Json[];
    const part = await call('POST', `/sales-invoices/${invoice.id}/credit-notes`, staff, {
      version: invoice.version,
      lines: [{ lineId: storage?.id, quantity: '1' }],
    });
    expect(part.status).toBe(422);
    expect(fields(part.body)).toEqual(['lines']);
    expect(JSON.stringify(part.body)).toContain('whole invoice');

    // Only line-level ones: the other line in part, the discounted line only whole.
    const lineOnly = await issue(await draft({ allowanceCharges: [] }));
    const [discounted, plain] = lineOnly.lines as Json[];
    const half = await call('POST', `/sales-invoices/${lineOnly.id}/credit-notes`, staff, {
      version: lineOnly.version,
      lines: [{ lineId: discounted?.id, quantity: '0.5' }],
    });
    expect(half.status).toBe(422);
    expect(fields(half.body)).toEqual(['lines.0.quantity']);
    const ok = await call('POST', `/sales-invoices/${lineOnly.id}/credit-notes`, staff, {
      version: lineOnly.version,
      lines: [
        { lineId: discounted?.id, quantity: '1' },
        { lineId: plain?.id, quantity: '1' },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect((ok.body.lines as Json[])[0]).toMatchObject({
      lineNet: '975.00',
      allowanceCharges: [volumeDiscount, freightCharge],
    });
    expect(ok.body.allowanceCharges).toEqual([]);
    // Editing the credited line's discount away is refused on that line.
    const edited = await call('PATCH', `/sales-invoices/${ok.body.id}`, staff, {
      version: ok.body.version,
      lines: (ok.body.lines as Json[]).map((l) => ({
        creditedLineId: l.creditedLineId,
        chargeCode: l.chargeCode,
        description: l.description,
        quantity: l.quantity,
        unit: l.unit,
        unitPrice: l.unitPrice,
        vatCode: l.vatCode,
        vatRate: l.vatRate,
      })),
    });
    expect(edited.status).toBe(422);
    expect(fields(edited.body)).toEqual(['lines.0.allowanceCharges']);
    expect(road).toBeDefined();
  });
});

describe('the database', () => {
  it('refuses issuing totals that do not add up to the lines, allowances and charges', async () => {
    const d = await draft();
    const issueBySql = (set: RawBuilder<unknown>) =>
      sql`update sales_invoices set number = ${`I-FORGED-${Math.random()}`}, status = 'issued', issue_date = ${today}::date,
            due_date = ${today}::date, seller = '{}'::jsonb, buyer = '{}'::jsonb, ${set}
          where id = ${d.id as string}`.execute(db.db);
    // A forged BT-107: the discount left out of the stored allowance total.
    await expect(issueBySql(sql`allowance_total_amount = 0`)).rejects.toMatchObject({
      constraint: 'sales_invoices_totals_add_up',
    });
    // A forged BT-112 (BT-109 + BT-110 ≠ BT-112).
    await expect(issueBySql(sql`tax_inclusive_amount = tax_inclusive_amount + 100`)).rejects.toMatchObject({
      constraint: 'sales_invoices_totals_add_up',
    });
    // A line whose net leaves out its discount.
    await sql`update sales_invoice_lines set line_net = 1025 where invoice_id = ${d.id as string} and position = 0`.execute(
      db.db,
    );
    await expect(issueBySql(sql`line_extension_amount = 1105`)).rejects.toMatchObject({
      constraint: 'sales_invoices_totals_add_up',
    });
    await sql`update sales_invoice_lines set line_net = 975 where invoice_id = ${d.id as string} and position = 0`.execute(
      db.db,
    );
    // As stored by the API they add up.
    await issueBySql(sql`version = version`);
  });

  it('keeps the shape of what is stored, and freezes it at issue', async () => {
    const d = await draft();
    await expect(
      sql`update sales_invoices set allowance_charges = '[{"isCharge": false, "amount": "-5", "reason": "x", "vatCode": "S"}]'::jsonb
        where id = ${d.id as string}`.execute(db.db),
    ).rejects.toMatchObject({ constraint: 'sales_invoices_allowance_charges_valid' });
    await expect(
      sql`update sales_invoice_lines set allowance_charges = '[{"isCharge": true, "amount": "5"}]'::jsonb
        where invoice_id = ${d.id as string}`.execute(db.db),
    ).rejects.toMatchObject({ constraint: 'sales_invoice_lines_allowance_charges_valid' });
    const issued = await issue(d);
    await expect(
      sql`update sales_invoices set allowance_charges = '[]'::jsonb where id = ${issued.id as string}`.execute(
        db.db,
      ),
    ).rejects.toThrow(/issued/);
    await expect(
      sql`update sales_invoice_lines set allowance_charges = '[]'::jsonb where invoice_id = ${issued.id as string}`.execute(
        db.db,
      ),
    ).rejects.toThrow(/issued/);
  });
});
