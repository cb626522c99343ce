import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { invoiceRuleBreaks } from './invoice-invariants.ts';
import { todayIn } from './sales-invoices.service.ts';
import { completeCompany, draftBody, line } from './test-support.ts';

/**
 * Issue 23 items 1, 2, 3 and 7: where an invoice meets another record (its credit notes, its dossier,
 * its series, the company's closed books), the rule holds on every path and in the database.
 */
const setup = apiTest({ prepare: completeCompany });
const { db, admin, staff, globex, partyId, call } = setup;
let acmeDossier: string;
let globexDossier: string;
const today = todayIn();
const year = Number(today.slice(0, 4));
const dayBefore = (d: string, n = 1) => {
  const x = new Date(`${d}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() - n);
  return x.toISOString().slice(0, 10);
};
beforeAll(async () => {
  const dossier = async (customerId: string) => {
    const d = await call('POST', '/dossiers', staff, {
      type: 'export',
      mode: 'sea',
      customerId,
      originLocode: 'NLRTM',
      destinationLocode: 'CNSHA',
    });
    expect(d.status).toBe(201);
    return d.body.id as string;
  };
  acmeDossier = await dossier(partyId.ACME);
  globexDossier = await dossier(partyId.GLOBEX);
});

const errors = (body: Json) => (body.errors as { field: string; message: string }[] | undefined) ?? [];
const fields = (body: Json) => errors(body).map((e) => e.field);

/** An issued invoice of one line (1 × 100.00 at 21 % = 121.00 unless told) for `customerId`, issued today. */
async function issuedInvoice(customerId = partyId.ACME, over: Record<string, unknown> = {}) {
  const d = await call(
    'POST',
    '/sales-invoices',
    staff,
    draftBody(customerId, { lines: [line({ unitPrice: '100', ...over })] }),
  );
  expect(d.status).toBe(201);
  const i = await call('POST', `/sales-invoices/${d.body.id}/issue`, staff, { version: d.body.version });
  expect(i.status).toBe(200);
  return i.body;
}

async function creditDraft(invoice: Json, lines?: { lineId: string; quantity: string }[]) {
  const inv = await call('GET', `/sales-invoices/${invoice.id}`, staff);
  const c = await call('POST', `/sales-invoices/${invoice.id}/credit-notes`, staff, {
    version: inv.body.version,
    ...(lines ? { lines } : {}),
  });
  expect(c.status).toBe(201);
  return c.body;
}

const lineOf = (doc: Json, i = 0) => (doc.lines as Json[])[i] as Json;
/** A credit note line as PATCH takes it, from a line of the draft. */
const patchLine = (l: Json, over: Record<string, unknown> = {}) => ({
  creditedLineId: l.creditedLineId,
  chargeCode: l.chargeCode,
  description: l.description,
  quantity: l.quantity,
  unit: l.unit,
  unitPrice: l.unitPrice,
  vatCode: l.vatCode,
  vatRate: l.vatRate,
  ...over,
});

describe('item 1: a credit note stays within its invoice', () => {
  it('refuses editing a draft credit note to credit 121 000.00 on an invoice of 121.00', async () => {
    const invoice = await issuedInvoice();
    expect((invoice.totals as Json).taxInclusiveAmount).toBe('121.00');
    const cn = await creditDraft(invoice);
    // Lines typed anew (no invoice line named): the old editor let any price through.
    const typed = await call('PATCH', `/sales-invoices/${cn.id}`, staff, {
      version: cn.version,
      lines: [line({ unitPrice: '100000' })],
    });
    expect(typed.status).toBe(422);
    expect(fields(typed.body)).toContain('lines.0.creditedLineId');
    // The invoice's line at a price of its own, or a quantity beyond the invoice's.
    const price = await call('PATCH', `/sales-invoices/${cn.id}`, staff, {
      version: cn.version,
      lines: [patchLine(lineOf(cn), { unitPrice: '100000' })],
    });
    expect(price.status).toBe(422);
    expect(fields(price.body)).toContain('lines.0.unitPrice');
    const quantity = await call('PATCH', `/sales-invoices/${cn.id}`, staff, {
      version: cn.version,
      lines: [patchLine(lineOf(cn), { quantity: '1000' })],
    });
    expect(quantity.status).toBe(422);
    expect(fields(quantity.body)).toContain('lines.0.quantity');
    // Two lines that together credit more than the one line.
    const twice = await call('PATCH', `/sales-invoices/${cn.id}`, staff, {
      version: cn.version,
      lines: [patchLine(lineOf(cn), { quantity: '0.6' }), patchLine(lineOf(cn), { quantity: '0.6' })],
    });
    expect(twice.status).toBe(422);
    expect(fields(twice.body)).toContain('lines.1.quantity');
    // Within what is left: fine, and issuing it credits 60.50.
    const half = await call('PATCH', `/sales-invoices/${cn.id}`, staff, {
      version: cn.version,
      lines: [patchLine(lineOf(cn), { quantity: '0.5' })],
    });
    expect(half.status).toBe(200);
    const issued = await call('POST', `/sales-invoices/${cn.id}/issue`, staff, {
      version: half.body.version,
    });
    expect(issued.status).toBe(200);
    expect((issued.body.totals as Json).taxInclusiveAmount).toBe('60.50');
  });

  it('refuses moving a draft credit note to another customer, currency, rate or dossier', async () => {
    const invoice = await issuedInvoice();
    const cn = await creditDraft(invoice);
    for (const [field, value] of [
      ['customerId', partyId.GLOBEX],
      ['currency', 'USD'],
      ['exchangeRate', '1.1'],
      ['dossierId', globexDossier],
    ] as const) {
      const r = await call('PATCH', `/sales-invoices/${cn.id}`, staff, {
        version: cn.version,
        [field]: value,
      });
      expect(r.status, field).toBe(422);
      expect(fields(r.body), field).toContain(field);
    }
    // Sent unchanged, the fields are fine.
    const same = await call('PATCH', `/sales-invoices/${cn.id}`, staff, {
      version: cn.version,
      customerId: partyId.ACME,
      currency: 'EUR',
    });
    expect(same.status).toBe(200);
    // The database refuses it too, whatever writes it.
    await expect(
      sql`update sales_invoices set customer_id = ${partyId.GLOBEX} where id = ${cn.id as string}`.execute(
        db.db,
      ),
    ).rejects.toThrow(/credit note/);
    // Issued, the credit note is Acme's: Globex never reads it nor the invoice number on it.
    const issued = await call('POST', `/sales-invoices/${cn.id}/issue`, staff, {
      version: same.body.version,
    });
    expect(issued.status).toBe(200);
    expect((await call('GET', `/sales-invoices/${cn.id}`, globex)).status).toBe(404);
  });

  it('checks at issue, with the invoice locked: two credit notes issued at once never over-credit', async () => {
    const invoice = await issuedInvoice();
    const a = await creditDraft(invoice);
    // A second draft promising the same line (as drafts made before this rule could): written directly.
    const b = await creditDraft(await issuedInvoice());
    await sql`update sales_invoice_lines set credited_line_id = ${lineOf(a).creditedLineId as string}
      where invoice_id = ${b.id as string}`.execute(db.db);
    await sql`update sales_invoices set credited_invoice_id = ${invoice.id as string} where id = ${b.id as string}`.execute(
      db.db,
    );
    const [ra, rb] = await Promise.all([
      call('POST', `/sales-invoices/${a.id}/issue`, staff, { version: a.version }),
      call('POST', `/sales-invoices/${b.id}/issue`, staff, { version: b.version }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 422]);
    const loser = ra.status === 422 ? ra : rb;
    expect(fields(loser.body).some((f) => f.startsWith('lines'))).toBe(true);
    const after = await call('GET', `/sales-invoices/${invoice.id}`, staff);
    expect(after.body.status).toBe('credited');
    const sum = await sql<{ total: string }>`
      select coalesce(sum(tax_inclusive_amount), 0)::text as total from sales_invoices
      where credited_invoice_id = ${invoice.id as string} and number is not null`.execute(db.db);
    expect(sum.rows[0]?.total).toBe('121.00');
  });

  it('the database judges a row written already numbered as an issue (books closed, credit note dates)', async () => {
    const invoice = await issuedInvoice();
    const copy = (over: Record<string, unknown>) =>
      sql`insert into sales_invoices
          select (jsonb_populate_record(null::sales_invoices, to_jsonb(i) || ${JSON.stringify({
            id: randomUUID(),
            ...over,
          })}::jsonb)).* from sales_invoices i where i.id = ${invoice.id as string}`.execute(db.db);
    await sql`update company_settings set books_closed_up_to = '2020-12-31'`.execute(db.db);
    try {
      await expect(copy({ number: 'I-2020-999001', issue_date: '2020-06-30' })).rejects.toMatchObject({
        constraint: 'sales_invoices_books_closed',
      });
    } finally {
      await sql`update company_settings set books_closed_up_to = null`.execute(db.db);
    }
    await expect(
      copy({
        number: 'C-2020-999001',
        kind: 'credit_note',
        credited_invoice_id: invoice.id,
        issue_date: '2021-01-04',
      }),
    ).rejects.toMatchObject({ constraint: 'sales_invoices_credit_note_after_invoice' });
  });

  it('the database refuses issuing a credit note beyond its invoice, whoever writes it', async () => {
    const invoice = await issuedInvoice();
    const cn = await creditDraft(invoice);
    await sql`update sales_invoice_lines set quantity = 5, line_net = 500 where invoice_id = ${cn.id as string}`.execute(
      db.db,
    );
    await expect(
      sql`update sales_invoices set number = 'CN-TEST-1', status = 'issued', issue_date = ${today}::date,
            due_date = ${today}::date, seller = '{}'::jsonb, buyer = '{}'::jsonb, tax_inclusive_amount = 605
          where id = ${cn.id as string}`.execute(db.db),
    ).rejects.toThrow(/exceed|beyond/);
  });
});

describe('item 1: crediting what is left is never refused for rounding (ADR 0040)', () => {
  it('2 × 0.50 at 21 % = 1.21: one unit credited (0.61), the last unit (0.61 again) credits it in full', async () => {
    const invoice = await issuedInvoice(partyId.ACME, { quantity: '2', unitPrice: '0.50' });
    expect((invoice.totals as Json).taxInclusiveAmount).toBe('1.21');
    const lineId = lineOf(invoice).id as string;
    const first = await creditDraft(invoice, [{ lineId, quantity: '1' }]);
    expect((first.totals as Json).taxInclusiveAmount).toBe('0.61');
    expect(
      (await call('POST', `/sales-invoices/${first.id}/issue`, staff, { version: first.version })).status,
    ).toBe(200);
    const last = await call('POST', `/sales-invoices/${invoice.id}/credit-notes`, staff, {
      version: (await call('GET', `/sales-invoices/${invoice.id}`, staff)).body.version,
      lines: [{ lineId, quantity: '1' }],
    });
    expect(last.status, JSON.stringify(last.body)).toBe(201);
    expect((last.body.totals as Json).taxInclusiveAmount).toBe('0.61');
    const issued = await call('POST', `/sales-invoices/${last.body.id}/issue`, staff, {
      version: last.body.version,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const after = await call('GET', `/sales-invoices/${invoice.id}`, staff);
    expect(after.body).toMatchObject({ status: 'credited', openAmount: '0.00' });
  });
});

describe('item 2: an invoice on a dossier is for the dossier’s customer', () => {
  it('refuses drafting an invoice for Globex on an Acme dossier (422 on dossierId)', async () => {
    const r = await call(
      'POST',
      '/sales-invoices',
      staff,
      draftBody(partyId.GLOBEX, { dossierId: acmeDossier }),
    );
    expect(r.status).toBe(422);
    expect(fields(r.body)).toEqual(['dossierId']);
  });

  it('refuses moving a draft on a dossier to another customer, or onto another customer’s dossier', async () => {
    const d = await call(
      'POST',
      '/sales-invoices',
      staff,
      draftBody(partyId.ACME, { dossierId: acmeDossier }),
    );
    expect(d.status).toBe(201);
    const customer = await call('PATCH', `/sales-invoices/${d.body.id}`, staff, {
      version: d.body.version,
      customerId: partyId.GLOBEX,
    });
    expect(customer.status).toBe(422);
    expect(fields(customer.body)).toEqual(['customerId']);
    const dossier = await call('PATCH', `/sales-invoices/${d.body.id}`, staff, {
      version: d.body.version,
      dossierId: globexDossier,
    });
    expect(dossier.status).toBe(422);
    expect(fields(dossier.body)).toEqual(['dossierId']);
    // Both together, consistent: fine.
    const both = await call('PATCH', `/sales-invoices/${d.body.id}`, staff, {
      version: d.body.version,
      customerId: partyId.GLOBEX,
      dossierId: globexDossier,
    });
    expect(both.status).toBe(200);
    // The database refuses the mismatch too.
    await expect(
      sql`update sales_invoices set customer_id = ${partyId.ACME} where id = ${d.body.id as string}`.execute(
        db.db,
      ),
    ).rejects.toThrow(/dossier/);
  });
});

describe('item 3: chronology and closed books', () => {
  it('refuses an issue date before the latest of its series, and opening a year once a later one has numbers', async () => {
    await issuedInvoice();
    const d = await call('POST', '/sales-invoices', staff, draftBody(partyId.ACME));
    const before = await call('POST', `/sales-invoices/${d.body.id}/issue`, staff, {
      version: d.body.version,
      issueDate: dayBefore(today, 3),
    });
    expect(before.status).toBe(422);
    expect(fields(before.body)).toEqual(['issueDate']);
    const old = await call('POST', `/sales-invoices/${d.body.id}/issue`, staff, {
      version: d.body.version,
      issueDate: `${year - 2}-06-30`,
    });
    expect(old.status).toBe(422);
    expect(fields(old.body)).toEqual(['issueDate']);
    expect(errors(old.body)[0]?.message).toMatch(/cannot be opened/);
    // Nothing was taken: the next invoice today gets the next number, no gap.
    const numbers = await sql<{ n: number }>`
      select count(*)::int as n from sales_invoices where kind = 'invoice'
        and extract(year from issue_date) = ${year - 2}`.execute(db.db);
    expect(numbers.rows[0]?.n).toBe(0);
    const ok = await call('POST', `/sales-invoices/${d.body.id}/issue`, staff, { version: d.body.version });
    expect(ok.status).toBe(200);
  });

  it('refuses an issue or payment date after today in the company’s zone on every path, not only the HTTP one', async () => {
    // The service as the seed and jobs call it (no contract before it): tomorrow in Amsterdam is refused.
    const user = (await db.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'staff@fvg.local')
      .executeTakeFirstOrThrow()) as unknown as SessionUser;
    const tomorrow = dayBefore(today, -1);
    const d = await call('POST', '/sales-invoices', staff, draftBody(partyId.ACME));
    await expect(
      setup.app.services.salesInvoices.issue(user, d.body.id as string, {
        version: d.body.version as number,
        issueDate: tomorrow,
      }),
    ).rejects.toMatchObject({ status: 422 });
    const invoice = await issuedInvoice();
    await expect(
      setup.app.services.salesInvoices.pay(user, invoice.id as string, { paidOn: tomorrow, amount: '1.00' }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it('refuses a credit note dated before its invoice', async () => {
    const invoice = await issuedInvoice();
    const cn = await creditDraft(invoice);
    const r = await call('POST', `/sales-invoices/${cn.id}/issue`, staff, {
      version: cn.version,
      issueDate: dayBefore(today),
    });
    expect(r.status).toBe(422);
    expect(errors(r.body).some((e) => e.field === 'issueDate' && /not dated before/.test(e.message))).toBe(
      true,
    );
  });

  it('refuses a payment before the issue date or after today', async () => {
    const invoice = await issuedInvoice();
    const early = await call('POST', `/sales-invoices/${invoice.id}/payments`, staff, {
      paidOn: dayBefore(today, 10),
      amount: '10.00',
    });
    expect(early.status).toBe(422);
    expect(fields(early.body)).toEqual(['paidOn']);
    await expect(
      sql`insert into sales_invoice_payments (invoice_id, paid_on, amount)
          values (${invoice.id as string}, ${dayBefore(today, 10)}::date, 10)`.execute(db.db),
    ).rejects.toThrow(/before its invoice/);
  });

  it('keeps a closed period closed: no issue, payment or credit on or before the date; audited', async () => {
    const invoice = await issuedInvoice();
    const draft = await call('POST', '/sales-invoices', staff, draftBody(partyId.ACME));
    const company = await call('GET', '/company', admin);
    const future = await call('PUT', '/company', admin, {
      version: company.body.version,
      booksClosedUpTo: '2999-01-01',
    });
    expect(future.status).toBe(422);
    expect(fields(future.body)).toEqual(['booksClosedUpTo']);
    const closed = await call('PUT', '/company', admin, {
      version: company.body.version,
      booksClosedUpTo: today,
    });
    expect(closed.status).toBe(200);
    expect(closed.body.booksClosedUpTo).toBe(today);
    try {
      const issue = await call('POST', `/sales-invoices/${draft.body.id}/issue`, staff, {
        version: draft.body.version,
      });
      expect(issue.status).toBe(422);
      expect(fields(issue.body)).toContain('issueDate');
      const pay = await call('POST', `/sales-invoices/${invoice.id}/payments`, staff, {
        paidOn: today,
        amount: '1.00',
      });
      expect(pay.status).toBe(422);
      expect(fields(pay.body)).toEqual(['paidOn']);
      const cn = await creditDraft(invoice);
      const credit = await call('POST', `/sales-invoices/${cn.id}/issue`, staff, { version: cn.version });
      expect(credit.status).toBe(422);
      expect(fields(credit.body)).toContain('issueDate');
      const history = await call('GET', '/company/history', admin);
      expect(JSON.stringify(history.body)).toContain('booksClosedUpTo');
    } finally {
      const now = await call('GET', '/company', admin);
      await call('PUT', '/company', admin, { version: now.body.version, booksClosedUpTo: null });
    }
  });
});

describe('item 7: number series and documents of 0.00', () => {
  it('refuses changing a series’ next number without a reason, and keeps the reason in the history', async () => {
    const company = await call('GET', '/company', admin);
    const invoiceSeries = (company.body.series as Json[]).find((s) => s.kind === 'invoice') as Json;
    const target = (invoiceSeries.nextNumber as number) + 10;
    const bare = await call('PUT', '/company', admin, {
      version: company.body.version,
      series: [{ kind: 'invoice', prefix: invoiceSeries.prefix, nextNumber: target }],
    });
    expect(bare.status).toBe(422);
    expect(fields(bare.body)).toEqual(['series.0.reason']);
    const why = await call('PUT', '/company', admin, {
      version: company.body.version,
      series: [
        {
          kind: 'invoice',
          prefix: invoiceSeries.prefix,
          nextNumber: target,
          reason: 'Numbers 1–10 used on paper',
        },
      ],
    });
    expect(why.status).toBe(200);
    const history = await call('GET', '/company/history', admin);
    expect(JSON.stringify(history.body)).toContain('Numbers 1–10 used on paper');
  });

  it('refuses issuing an invoice of 0.00', async () => {
    const d = await call(
      'POST',
      '/sales-invoices',
      staff,
      draftBody(partyId.ACME, { lines: [line({ unitPrice: '0' })] }),
    );
    expect(d.status).toBe(201);
    const r = await call('POST', `/sales-invoices/${d.body.id}/issue`, staff, { version: d.body.version });
    expect(r.status).toBe(422);
    expect(fields(r.body)).toContain('lines');
  });
});

describe('after every refusal above', () => {
  it('the data still obeys the rules', async () => {
    expect(await invoiceRuleBreaks(db.db)).toEqual([]);
  });
});
