import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { type Json, nextEvent, type RecordChange, recordChanges } from '../../test/helpers.ts';
import { todayIn } from './sales-invoices.service.ts';
import { completeCompany, draftBody, line } from './test-support.ts';

const setup = apiTest({ prepare: completeCompany, files: 'fvg-invoices-', hub: true });
const { db, staff, acme, globex, partyId, call, hub } = setup;
const year = Number(todayIn().slice(0, 4));

const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];
const fields = (body: Json) => errors(body).map((e) => e.field);

/** A dossier of `type` for `customerId` with revenue (and one cost) charges. */
async function dossierWith(
  type: string,
  customerId: string,
  revenue: { amount: string; currency?: string; exchangeRate?: string; chargeCode?: string }[],
) {
  const d = await call('POST', '/dossiers', staff, {
    type,
    mode: 'sea',
    customerId,
    originLocode: 'NLRTM',
    destinationLocode: 'CNSHA',
  });
  expect(d.status).toBe(201);
  const charges = [
    {
      kind: 'cost',
      chargeCode: 'FREIGHT',
      description: 'Carrier freight',
      amount: '400.00',
      currency: 'EUR',
    },
    ...revenue.map((r, i) => ({
      kind: 'revenue',
      chargeCode: r.chargeCode ?? (i === 0 ? 'FREIGHT' : 'THC'),
      description: `Revenue ${i + 1}`,
      amount: r.amount,
      currency: r.currency ?? 'EUR',
      exchangeRate: r.exchangeRate ?? '1',
    })),
  ];
  const c = await call('PUT', `/dossiers/${d.body.id}/charges`, staff, { version: d.body.version, charges });
  expect(c.status).toBe(200);
  return c.body as Json & { id: string; number: string; profit: string };
}

async function draft(body: Json) {
  const r = await call('POST', '/sales-invoices', staff, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Json & { id: string; version: number; lines: Json[] };
}

async function issued(body: Json, issueDate?: string) {
  const d = await draft(body);
  const r = await call('POST', `/sales-invoices/${d.id}/issue`, staff, {
    version: d.version,
    ...(issueDate ? { issueDate } : {}),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Json & { id: string; number: string; version: number; lines: (Json & { id: string })[] };
}

/**
 * Issued today, then aged `days` as if issued then: issue dates follow the numbers (issue 23), so a
 * document older than those already issued cannot be issued now. The fixture alone steps past the
 * triggers to age it.
 */
async function issuedDaysAgo(body: Json, days: number) {
  const inv = await issued(body);
  await db.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`update sales_invoices set issue_date = issue_date - ${days}::int, due_date = due_date - ${days}::int
      where id = ${inv.id}`.execute(trx);
  });
  const r = await call('GET', `/sales-invoices/${inv.id}`, staff);
  return r.body as typeof inv;
}

const daysAgo = (n: number) => {
  const d = new Date(`${todayIn()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

describe('drafting from a dossier', () => {
  it('bills the open revenue charges as lump-sum lines with the VAT the dossier and customer imply', async () => {
    const domestic = await dossierWith('domestic', partyId.ACME, [
      { amount: '1200.00' },
      { amount: '150.50' },
    ]);
    const r = await draft({ dossierId: domestic.id });
    expect(r).toMatchObject({
      kind: 'invoice',
      number: null,
      status: 'draft',
      currency: 'EUR',
      exchangeRate: null,
      dossier: { id: domestic.id, number: domestic.number },
      customer: { code: 'ACME' },
      paymentTermsDays: 30,
      allowedActions: ['edit', 'delete', 'issue'],
    });
    expect(r.lines).toMatchObject([
      {
        chargeCode: 'FREIGHT',
        quantity: '1',
        unit: 'LS',
        unitPrice: '1200.00',
        vatCode: 'S',
        vatRate: '21',
        lineNet: '1200.00',
      },
      { chargeCode: 'THC', unitPrice: '150.50', vatCode: 'S', vatRate: '21', lineNet: '150.50' },
    ]);
    expect(r.totals).toMatchObject({
      lineExtensionAmount: '1350.50',
      vatTotal: '283.61',
      taxInclusiveAmount: '1634.11',
    });
    // The live seller and buyer while a draft.
    expect(r.seller).toMatchObject({ name: 'FVG Forwarding B.V.', vatNumber: 'NL859437218B01' });
    expect(r.buyer).toMatchObject({ name: 'Acme Trading B.V.', countryCode: 'NL' });

    const again = await call('POST', '/sales-invoices', staff, { dossierId: domestic.id });
    expect(again.status).toBe(422);
    expect(errors(again.body)).toEqual([
      { field: 'dossierId', message: `Every revenue charge of ${domestic.number} is invoiced` },
    ]);
  });

  it('exempts export (146-1E) and import (144), reverse-charges an EU business (AE)', async () => {
    const exp = await draft({
      dossierId: (await dossierWith('export', partyId.ACME, [{ amount: '10' }])).id,
    });
    expect(exp.lines[0]).toMatchObject({ vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' });
    const imp = await draft({
      dossierId: (await dossierWith('import', partyId.ACME, [{ amount: '10' }])).id,
    });
    expect(imp.lines[0]).toMatchObject({ vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-144' });
    const eu = await draft({
      dossierId: (await dossierWith('crosstrade', partyId.GLOBEX, [{ amount: '10' }])).id,
    });
    expect(eu.lines[0]).toMatchObject({ vatCode: 'AE', vatRate: '0', exemptionReason: 'VATEX-EU-AE' });
    expect((eu.totals as Json).vatTotal).toBe('0.00');
  });

  it('asks for one currency when the charges are in several, and bills only that one', async () => {
    const d = await dossierWith('domestic', partyId.ACME, [
      { amount: '500.00' },
      { amount: '300.00', currency: 'USD', exchangeRate: '0.920000' },
    ]);
    const r = await call('POST', '/sales-invoices', staff, { dossierId: d.id });
    expect(r.status).toBe(422);
    expect(fields(r.body)).toEqual(['currency']);
    expect(errors(r.body)[0]?.message).toContain('EUR and USD');
    const usd = await draft({ dossierId: d.id, currency: 'USD' });
    expect(usd).toMatchObject({ currency: 'USD', exchangeRate: '0.92' });
    expect(usd.lines).toHaveLength(1);
    expect((usd.totals as Json).vatTotalBase).toBe('57.96'); // 300 × 21 % = 63.00 USD × 0.92
    const eur = await draft({ dossierId: d.id });
    expect(eur).toMatchObject({ currency: 'EUR' });
    expect(eur.lines).toHaveLength(1);
  });
});

describe('drafts from scratch, edits and deletes', () => {
  it('stores lines with their nets, replaces them on edit, and refuses bad lines with their paths', async () => {
    const d = await draft(
      draftBody(partyId.ACME, { lines: [line(), line({ quantity: '2.5', unitPrice: '19.99' })] }),
    );
    expect(d.lines.map((l) => l.lineNet)).toEqual(['1000.00', '49.98']);
    const bad = await call('PATCH', `/sales-invoices/${d.id}`, staff, {
      version: d.version,
      lines: [
        line(),
        line({ vatRate: null }),
        line({ vatCode: 'O' }),
        line({ quantity: '0' }),
        line({ unit: 'XX' }),
      ],
    });
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual([
      'lines.1.vatRate',
      'lines.2.vatRate',
      'lines.3.quantity',
      'lines.4.unit',
    ]);
    const edited = await call('PATCH', `/sales-invoices/${d.id}`, staff, {
      version: d.version,
      notes: 'Call before sending',
      lines: [line({ unitPrice: '80', vatCode: 'O', vatRate: null })],
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      notes: 'Call before sending',
      totals: { taxInclusiveAmount: '80.00' },
    });
    const stale = await call('PATCH', `/sales-invoices/${d.id}`, staff, { version: d.version, notes: 'x' });
    expect(stale.status).toBe(409);
    expect(fields(stale.body)).toEqual(['version']);
    expect((await call('DELETE', `/sales-invoices/${d.id}`, staff)).status).toBe(204);
    expect((await call('GET', `/sales-invoices/${d.id}`, staff)).status).toBe(404);
  });

  it('refuses a create body of neither shape with the fields of the one meant', async () => {
    const noLines = await call('POST', '/sales-invoices', staff, { customerId: partyId.ACME });
    expect(fields(noLines.body)).toEqual(['currency', 'lines']);
    const unknown = await call('POST', '/sales-invoices', staff, { dossierId: partyId.ACME, colour: 'red' });
    expect(unknown.status).toBe(400);
    expect(fields(unknown.body)).toEqual(['colour']);
    const noParty = await call(
      'POST',
      '/sales-invoices',
      staff,
      draftBody('0b5e3a52-7c1d-4e8f-9a6b-2c3d4e5f6a7b'),
    );
    expect(noParty.status).toBe(400);
    expect(fields(noParty.body)).toEqual(['customerId']);
  });
});

describe('issuing', () => {
  it('numbers, freezes the parties, marks the charges invoiced and leaves the profit alone', async () => {
    const d = await dossierWith('domestic', partyId.ACME, [{ amount: '1000.00' }]);
    const inv = await issued({ dossierId: d.id }, daysAgo(3));
    expect(inv.number).toMatch(new RegExp(`^I-${year}-\\d{6}$`));
    expect(inv).toMatchObject({ status: 'issued', issueDate: daysAgo(3), allowedActions: ['credit', 'pay'] });
    expect(inv.dueDate).toBe(daysAgo(-27));
    const charges = await sql<{ invoiced_line_id: string | null; kind: string }>`
      select invoiced_line_id, kind from dossier_charges where dossier_id = ${d.id} order by kind`.execute(
      db.db,
    );
    expect(charges.rows).toEqual([
      { kind: 'cost', invoiced_line_id: null },
      { kind: 'revenue', invoiced_line_id: inv.lines[0]?.id },
    ]);
    const after = await call('GET', `/dossiers/${d.id}`, staff);
    expect(after.body.profit).toBe(d.profit);
    // Saving the dossier's charges again (a cost added) keeps the billed one billed.
    const resaved = await call('PUT', `/dossiers/${d.id}/charges`, staff, {
      version: after.body.version,
      charges: [
        ...(after.body.charges as Json[]).map(
          ({ kind, chargeCode, description, amount, currency, exchangeRate }) => ({
            kind,
            chargeCode,
            description,
            amount,
            currency,
            exchangeRate,
          }),
        ),
        { kind: 'cost', chargeCode: 'THC', description: 'Terminal', amount: '50', currency: 'EUR' },
      ],
    });
    expect(resaved.status).toBe(200);
    expect((await call('POST', '/sales-invoices', staff, { dossierId: d.id })).status).toBe(422);
    const kept = await sql<{ n: number }>`
      select count(*)::int as n from dossier_charges where dossier_id = ${d.id} and invoiced_line_id is not null`.execute(
      db.db,
    );
    expect(kept.rows[0]?.n).toBe(1);
    // A later edit of the company does not change what was issued.
    await db.db.updateTable('company_settings').set({ legal_name: 'Renamed B.V.' }).execute();
    const again = await call('GET', `/sales-invoices/${inv.number}`, staff);
    expect((again.body.seller as Json).name).toBe('FVG Forwarding B.V.');
    await db.db.updateTable('company_settings').set({ legal_name: 'FVG Forwarding B.V.' }).execute();
    const job = await sql<{ n: number }>`
      select count(*)::int as n from graphile_worker.jobs where task_identifier = 'invoice.pdf'
        and key = ${`invoice.pdf:${inv.id}`}`.execute(db.db);
    expect(job.rows[0]?.n).toBe(1);
    // Issued: no edit, no delete, no second issue.
    expect(
      (await call('PATCH', `/sales-invoices/${inv.id}`, staff, { version: inv.version, notes: 'x' })).status,
    ).toBe(409);
    expect((await call('DELETE', `/sales-invoices/${inv.id}`, staff)).status).toBe(409);
    expect(
      (await call('POST', `/sales-invoices/${inv.id}/issue`, staff, { version: inv.version })).status,
    ).toBe(409);
  });

  it('refuses what the law would refuse with field errors, and takes no number', async () => {
    const before = await sql<{ last_issued: number }>`
      select last_issued from document_series_years where kind = 'invoice' and year = ${year}`.execute(db.db);
    const d = await draft(
      draftBody(partyId.GLOBEX, {
        lines: [line({ vatCode: 'E', vatRate: '0' }), line({ vatCode: 'AE', vatRate: '0' })],
      }),
    );
    await db.db
      .updateTable('parties')
      .set({ vat_number: null, street: null })
      .where('id', '=', partyId.GLOBEX)
      .execute();
    const r = await call('POST', `/sales-invoices/${d.id}/issue`, staff, { version: d.version });
    await db.db
      .updateTable('parties')
      .set({ vat_number: 'DE123456788', street: 'Am Sandtorkai 5' })
      .where('id', '=', partyId.GLOBEX)
      .execute();
    expect(r.status).toBe(422);
    expect(fields(r.body)).toEqual(
      expect.arrayContaining(['buyer.street', 'lines.0.exemptionReason', 'buyer.vatNumber']),
    );
    const after = await sql<{ last_issued: number }>`
      select last_issued from document_series_years where kind = 'invoice' and year = ${year}`.execute(db.db);
    expect(after.rows[0]?.last_issued).toBe(before.rows[0]?.last_issued);
    expect((await call('GET', `/sales-invoices/${d.id}`, staff)).body).toMatchObject({
      status: 'draft',
      number: null,
    });
  });

  it('is immutable in the database: a direct update or delete of an issued invoice is refused', async () => {
    const inv = await issued(draftBody(partyId.ACME));
    await expect(
      sql`update sales_invoices set tax_inclusive_amount = 1 where id = ${inv.id}`.execute(db.db),
    ).rejects.toThrow(/cannot change/);
    await expect(sql`delete from sales_invoices where id = ${inv.id}`.execute(db.db)).rejects.toThrow(
      /cannot be deleted/,
    );
    await expect(
      sql`update sales_invoice_lines set unit_price = 1 where invoice_id = ${inv.id}`.execute(db.db),
    ).rejects.toThrow(/cannot change/);
    await expect(
      sql`delete from sales_invoice_lines where invoice_id = ${inv.id}`.execute(db.db),
    ).rejects.toThrow(/cannot change/);
    // What stays writable: the status and the payments' effect.
    await sql`update sales_invoices set status = 'issued', paid_amount = 0 where id = ${inv.id}`.execute(
      db.db,
    );
  });
});

describe('credit notes', () => {
  it('credits part, refuses more than is left, and a full credit reopens the charges', async () => {
    const d = await dossierWith('domestic', partyId.ACME, [{ amount: '100.00' }, { amount: '50.00' }]);
    const inv = await issued({ dossierId: d.id });
    const [l0, l1] = inv.lines;
    const partial = await call('POST', `/sales-invoices/${inv.id}/credit-notes`, staff, {
      version: inv.version,
      lines: [{ lineId: l1?.id, quantity: '0.5' }],
    });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({
      kind: 'credit_note',
      status: 'draft',
      creditedInvoice: { id: inv.id, number: inv.number, issueDate: inv.issueDate },
      lines: [{ quantity: '0.5', unitPrice: '50.00', lineNet: '25.00' }],
    });
    const tooMuch = await call('POST', `/sales-invoices/${inv.id}/credit-notes`, staff, {
      version: inv.version,
      lines: [
        { lineId: l0?.id, quantity: '1' },
        { lineId: l1?.id, quantity: '0.6' },
      ],
    });
    expect(tooMuch.status).toBe(422);
    expect(errors(tooMuch.body)).toEqual([
      { field: 'lines.1.quantity', message: 'Only 0.5 of this line is left to credit' },
    ]);
    const cn = await call('POST', `/sales-invoices/${partial.body.id}/issue`, staff, {
      version: partial.body.version,
    });
    expect(cn.status).toBe(200);
    expect(cn.body.number).toMatch(new RegExp(`^C-${year}-\\d{6}$`));
    const half = await call('GET', `/sales-invoices/${inv.id}`, staff);
    expect(half.body).toMatchObject({
      status: 'issued',
      openAmount: '151.25',
      creditNotes: [{ number: cn.body.number }],
    });

    const rest = await call('POST', `/sales-invoices/${inv.id}/credit-notes`, staff, {
      version: half.body.version,
    });
    expect(rest.status).toBe(201);
    expect((rest.body.lines as Json[]).map((l) => l.quantity)).toEqual(['1', '0.5']);
    const restIssued = await call('POST', `/sales-invoices/${rest.body.id}/issue`, staff, {
      version: rest.body.version,
    });
    expect(restIssued.status).toBe(200);
    const full = await call('GET', `/sales-invoices/${inv.id}`, staff);
    expect(full.body).toMatchObject({ status: 'credited', openAmount: '0.00', allowedActions: [] });
    // The export signs them as the lists do: a credit note's total is negative (issue 27 item 3).
    const csv = await call('GET', `/sales-invoices/export?format=csv&dossierId=${d.id}`, staff);
    const rowOf = (number: unknown) => csv.raw.split('\r\n').find((l) => l.startsWith(`${number},`)) ?? '';
    const column = (csv.raw.replace(/^\uFEFF/, '').split('\r\n')[0] ?? '').split(',').indexOf('Total');
    expect(column).toBeGreaterThan(0);
    // No quoted cell before Total (number, words, ISO dates): a plain split finds it.
    const total = (row: string) => Number(row.split(',')[column]);
    expect(rowOf(cn.body.number)).toContain('Credit note');
    expect(total(rowOf(cn.body.number))).toBe(-Number((cn.body.totals as Json).taxInclusiveAmount));
    expect(total(rowOf(inv.number))).toBe(Number((inv.totals as Json).taxInclusiveAmount));
    expect(total(rowOf(inv.number))).toBeGreaterThan(0);
    // The credit notes give back exactly what was invoiced, to the cent.
    const credited = (cn.body.totals as Json).taxInclusiveAmount as string;
    const restTotal = (restIssued.body.totals as Json).taxInclusiveAmount as string;
    expect((Number(credited) * 100 + Number(restTotal) * 100) / 100).toBe(
      Number((inv.totals as Json).taxInclusiveAmount),
    );
    const open = await sql<{ n: number }>`
      select count(*)::int as n from dossier_charges where dossier_id = ${d.id} and kind = 'revenue'
        and invoiced_line_id is null`.execute(db.db);
    expect(open.rows[0]?.n).toBe(2);
    expect((await call('POST', '/sales-invoices', staff, { dossierId: d.id })).status).toBe(201);
  });
});

describe('payments', () => {
  it('moves issued → partially paid → paid, refuses overpayment, removes only the last', async () => {
    const inv = await issued(draftBody(partyId.ACME, { lines: [line({ unitPrice: '100' })] })); // 121.00
    const p1 = await call('POST', `/sales-invoices/${inv.id}/payments`, staff, {
      paidOn: todayIn(),
      amount: '1.00',
    });
    expect(p1.status).toBe(201);
    expect(p1.body).toMatchObject({ status: 'partially_paid', paidAmount: '1.00', openAmount: '120.00' });
    const over = await call('POST', `/sales-invoices/${inv.id}/payments`, staff, {
      paidOn: todayIn(),
      amount: '120.01',
    });
    expect(over.status).toBe(422);
    expect(errors(over.body)).toEqual([{ field: 'amount', message: 'Only 120.00 EUR is open' }]);
    const p2 = await call('POST', `/sales-invoices/${inv.id}/payments`, staff, {
      paidOn: todayIn(),
      amount: '120',
      reference: 'Bank 4711',
    });
    expect(p2.body).toMatchObject({ status: 'paid', openAmount: '0.00', allowedActions: ['credit'] });
    const payments = p2.body.payments as { id: string }[];
    const notLast = await call('DELETE', `/sales-invoices/${inv.id}/payments/${payments[0]?.id}`, staff, {
      reason: 'Typo',
    });
    expect(notLast.status).toBe(409);
    const removed = await call('DELETE', `/sales-invoices/${inv.id}/payments/${payments[1]?.id}`, staff, {
      reason: 'Booked on the wrong invoice',
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ status: 'partially_paid', paidAmount: '1.00' });
    expect(removed.body.payments).toHaveLength(1);
    const kept = await sql<{ delete_reason: string | null }>`
      select delete_reason from sales_invoice_payments where id = ${payments[1]?.id}`.execute(db.db);
    expect(kept.rows[0]?.delete_reason).toBe('Booked on the wrong invoice');
    const history = await call('GET', `/sales-invoices/${inv.id}/history`, staff);
    expect((history.body as unknown as { action: string }[]).map((h) => h.action).slice(0, 4)).toEqual([
      'payment removed',
      'payment recorded',
      'payment recorded',
      'issued',
    ]);
    const draftOnly = await draft(draftBody(partyId.ACME));
    expect(
      (
        await call('POST', `/sales-invoices/${draftOnly.id}/payments`, staff, {
          paidOn: todayIn(),
          amount: '1',
        })
      ).status,
    ).toBe(409);
  });
});

describe('overdue', () => {
  it('is computed from the due date, filters the list, and notifies once', async () => {
    const late = await issuedDaysAgo(draftBody(partyId.ACME, { buyerReference: 'LATE-1' }), 45);
    const onTime = await issuedDaysAgo(draftBody(partyId.ACME, { buyerReference: 'ONTIME-1' }), 5);
    expect(late).toMatchObject({ overdue: true });
    expect(onTime).toMatchObject({ overdue: false });
    const list = await call('GET', '/sales-invoices?overdue=true&pageSize=200', staff);
    const numbers = (list.body.items as Json[]).map((i) => i.number);
    expect(numbers).toContain(late.number);
    expect(numbers).not.toContain(onTime.number);
    expect(setup.app.services.jobs.crontab).toContain('invoices.mark-overdue');
    const notified = await setup.app.services.salesInvoices.markOverdue();
    expect(notified).toBeGreaterThanOrEqual(1);
    expect(await setup.app.services.salesInvoices.markOverdue()).toBe(0);
    const notes = await sql<{ n: number }>`
      select count(*)::int as n from notifications where kind = 'invoice-overdue' and title like ${`%${late.number}%`}`.execute(
      db.db,
    );
    expect(notes.rows[0]?.n).toBeGreaterThanOrEqual(1);
    // The notice is read by people: the due day as the app writes days, never an ISO date.
    const body = await sql<{ body: string }>`
      select body from notifications where kind = 'invoice-overdue' and title like ${`%${late.number}%`} limit 1`.execute(
      db.db,
    );
    expect(body.rows[0]?.body).toMatch(/due \d{1,2} [A-Z][a-z]{2} \d{4}\.$/);
  });
});

describe('customers', () => {
  it('see their own issued invoices only, without the internal notes', async () => {
    const own = await issued(draftBody(partyId.ACME, { notes: 'Difficult payer' }));
    const ownDraft = await draft(draftBody(partyId.ACME));
    const other = await issued(draftBody(partyId.GLOBEX));
    const r = await call('GET', `/sales-invoices/${own.id}`, acme);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ notes: null, allowedActions: [] });
    expect(JSON.stringify(r.body)).not.toContain('Difficult payer');
    expect((await call('GET', `/sales-invoices/${ownDraft.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/sales-invoices/${other.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/sales-invoices/${other.number}`, acme)).status).toBe(404);
    expect((await call('GET', `/sales-invoices/${own.id}`, globex)).status).toBe(404);
    const history = (await call('GET', `/sales-invoices/${own.id}/history`, acme)).body as unknown as {
      action: string;
    }[];
    expect(history.map((h) => h.action)).toEqual(['issued']);
    const list = await call('GET', '/sales-invoices?pageSize=200', acme);
    const items = list.body.items as Json[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => (i.customer as Json).code === 'ACME' && i.number !== null)).toBe(true);
    expect(
      (await call('POST', `/sales-invoices/${own.id}/payments`, acme, { paidOn: todayIn(), amount: '1' }))
        .status,
    ).toBe(403);
    const ubl = await call('GET', `/sales-invoices/${ownDraft.id}/ubl`, staff);
    expect(ubl.status).toBe(409);
  });
});

describe('PDF and UBL', () => {
  it('stores the PDF of an issued invoice once, as a customer-visible document, and answers it unchanged', async () => {
    const d = await dossierWith('domestic', partyId.ACME, [{ amount: '750.00' }]);
    const inv = await issued({ dossierId: d.id });
    await setup.app.services.invoiceFiles.storePdf(inv.id);
    await setup.app.services.invoiceFiles.storePdf(inv.id); // a retried job
    const docs = await db.db
      .selectFrom('documents')
      .select(['file_name', 'visible_to_customer', 'dossier_id', 'sha256', 'document_type'])
      .where('record_type', '=', 'invoice')
      .where('record_id', '=', inv.id)
      .execute();
    // Filed as what it is, not "Other" (issue 27 item 3).
    expect(docs).toMatchObject([
      {
        file_name: `${inv.number}.pdf`,
        visible_to_customer: true,
        dossier_id: d.id,
        document_type: 'sales_invoice',
      },
    ]);
    // Its credit note's PDF is filed as a credit note.
    const draftNote = await call('POST', `/sales-invoices/${inv.id}/credit-notes`, staff, {
      version: inv.version,
      lines: [{ lineId: inv.lines[0]?.id, quantity: '1' }],
    });
    expect(draftNote.status, JSON.stringify(draftNote.body)).toBe(201);
    const note = await call('POST', `/sales-invoices/${draftNote.body.id}/issue`, staff, {
      version: draftNote.body.version,
    });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    await setup.app.services.invoiceFiles.storePdf(note.body.id as string);
    const noteDocs = await db.db
      .selectFrom('documents')
      .select(['document_type'])
      .where('record_id', '=', note.body.id as string)
      .execute();
    expect(noteDocs).toEqual([{ document_type: 'credit_note' }]);
    const first = await setup.app.inject({
      method: 'GET',
      url: `/api/sales-invoices/${inv.id}/pdf`,
      headers: acme,
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(first.rawPayload).digest('hex')).toBe(docs[0]?.sha256);

    const ubl = await setup.app.inject({
      method: 'GET',
      url: `/api/sales-invoices/${inv.number}/ubl`,
      headers: acme,
    });
    expect(ubl.statusCode).toBe(200);
    expect(ubl.headers['content-type']).toMatch(/^application\/xml/);
    expect(ubl.body).toContain(`<cbc:ID>${inv.number}</cbc:ID>`);

    const draftOne = await draft(draftBody(partyId.ACME));
    const draftPdf = await setup.app.inject({
      method: 'GET',
      url: `/api/sales-invoices/${draftOne.id}/pdf`,
      headers: staff,
    });
    expect(draftPdf.statusCode).toBe(200);
    expect(draftPdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('the hub', () => {
  it('announces invoices to staff at once, and to their customer only from issuing on', async () => {
    const staffConn = await hub.connect(staff);
    const acmeConn = await hub.connect(acme);
    const globexConn = await hub.connect(globex);
    const acmeHeard = recordChanges(acmeConn);
    const globexHeard = recordChanges(globexConn);
    const staffCreated = nextEvent<RecordChange>(
      staffConn,
      'RecordChanged',
      (c) => c.kind === 'sales-invoice' && c.action === 'created',
    );
    const d = await draft(draftBody(partyId.ACME));
    expect(await staffCreated).toEqual({ kind: 'sales-invoice', id: d.id, action: 'created' });
    const acmeIssued = nextEvent<RecordChange>(acmeConn, 'RecordChanged', (c) => c.id === d.id);
    expect((await call('POST', `/sales-invoices/${d.id}/issue`, staff, { version: d.version })).status).toBe(
      200,
    );
    expect(await acmeIssued).toEqual({ kind: 'sales-invoice', id: d.id, action: 'updated' });
    // One connection's messages arrive in order: the draft's creation would have come first.
    expect(acmeHeard.filter((c) => c.id === d.id)).toEqual([
      { kind: 'sales-invoice', id: d.id, action: 'updated' },
    ]);
    expect(globexHeard.some((c) => c.id === d.id)).toBe(false);
  });
});

describe('every refusal names its field', () => {
  it('on drafts, issuing, credit notes and payments', async () => {
    const d = await dossierWith('domestic', partyId.ACME, [{ amount: '300.00' }]);
    const other = await dossierWith('domestic', partyId.ACME, [{ amount: '20.00' }]);
    const otherCharge = (
      await db.db
        .selectFrom('dossier_charges')
        .select('id')
        .where('dossier_id', '=', other.id)
        .where('kind', '=', 'revenue')
        .executeTakeFirstOrThrow()
    ).id;
    const cases: [string, 'POST' | 'PATCH' | 'DELETE', string, Json, number, string[]][] = [
      [
        'a line of another dossier',
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, { dossierId: d.id, lines: [line(), line({ chargeId: otherCharge })] }),
        422,
        ['lines.1.chargeId'],
      ],
      [
        'an unknown dossier',
        'POST',
        '/sales-invoices',
        { dossierId: '0b5e3a52-7c1d-4e8f-9a6b-2c3d4e5f6a7b' },
        422,
        ['dossierId'],
      ],
      [
        'no lines at all',
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, { lines: 'none' }),
        400,
        ['lines'],
      ],
      [
        'a currency that is none',
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, { currency: 'EURO' }),
        400,
        ['currency'],
      ],
      [
        'a rate of 0',
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, { currency: 'USD', exchangeRate: '0' }),
        400,
        ['exchangeRate'],
      ],
      [
        'a description too long',
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, { lines: [line({ description: 'x'.repeat(201) })] }),
        400,
        ['lines.0.description'],
      ],
      [
        'a price below 0',
        'POST',
        '/sales-invoices',
        draftBody(partyId.ACME, { lines: [line({ unitPrice: '-1' })] }),
        400,
        ['lines.0.unitPrice'],
      ],
    ];
    for (const [what, method, url, body, status, paths] of cases) {
      const r = await call(method, url, staff, body);
      expect({ what, status: r.status, fields: fields(r.body) }).toEqual({ what, status, fields: paths });
    }
    const inv = await issued(draftBody(partyId.ACME));
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const more: [string, 'POST' | 'DELETE', string, Json, number, string[]][] = [
      [
        'an issue date in the future',
        'POST',
        `/sales-invoices/${(await draft(draftBody(partyId.ACME))).id}/issue`,
        { version: 1, issueDate: later },
        400,
        ['issueDate'],
      ],
      [
        'a line credited twice',
        'POST',
        `/sales-invoices/${inv.id}/credit-notes`,
        {
          version: inv.version,
          lines: [
            { lineId: inv.lines[0]?.id, quantity: '0.1' },
            { lineId: inv.lines[0]?.id, quantity: '0.1' },
          ],
        },
        400,
        ['lines.1.lineId'],
      ],
      [
        'a line of another invoice',
        'POST',
        `/sales-invoices/${inv.id}/credit-notes`,
        { version: inv.version, lines: [{ lineId: otherCharge, quantity: '1' }] },
        422,
        ['lines.0.lineId'],
      ],
      [
        'a stale version',
        'POST',
        `/sales-invoices/${inv.id}/credit-notes`,
        { version: inv.version - 1 },
        409,
        ['version'],
      ],
      [
        'a payment in the future',
        'POST',
        `/sales-invoices/${inv.id}/payments`,
        { paidOn: later, amount: '1' },
        400,
        ['paidOn'],
      ],
      [
        'a payment of nothing',
        'POST',
        `/sales-invoices/${inv.id}/payments`,
        { paidOn: todayIn(), amount: '0' },
        400,
        ['amount'],
      ],
      [
        'a removal without reason',
        'DELETE',
        `/sales-invoices/${inv.id}/payments/${otherCharge}`,
        { reason: ' ' },
        400,
        ['reason'],
      ],
    ];
    for (const [what, method, url, body, status, paths] of more) {
      const r = await call(method, url, staff, body);
      expect({ what, status: r.status, fields: fields(r.body) }).toEqual({ what, status, fields: paths });
    }
  });
});

describe('the list', () => {
  it('filters by kind, status, customer, dossier and issue dates, sorts by total, and exports what it shows', async () => {
    const d = await dossierWith('domestic', partyId.GLOBEX, [{ amount: '64.00' }]);
    const inv = await issuedDaysAgo({ dossierId: d.id }, 10);
    const byDossier = await call('GET', `/sales-invoices?dossierId=${d.id}`, staff);
    expect((byDossier.body.items as Json[]).map((i) => i.id)).toEqual([inv.id]);
    const filtered = await call(
      'GET',
      `/sales-invoices?kind=invoice&status=issued,paid&customerId=${partyId.GLOBEX}&issuedFrom=${daysAgo(10)}&issuedTo=${daysAgo(10)}&sort=-total`,
      staff,
    );
    const items = filtered.body.items as Json[];
    expect(items.map((i) => i.id)).toContain(inv.id);
    expect(items.every((i) => i.issueDate === daysAgo(10) && (i.customer as Json).code === 'GLOBEX')).toBe(
      true,
    );
    const totals = items.map((i) => Number(i.taxInclusiveAmount));
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const csv = await call('GET', `/sales-invoices/export?format=csv&dossierId=${d.id}`, staff);
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain(`${inv.number},Invoice,Issued,Globex GmbH`);
    const bad = await call('GET', '/sales-invoices?status=open&sort=notes', staff);
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['status.0']);
  });
});
