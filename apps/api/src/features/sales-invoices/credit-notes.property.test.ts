import fc from 'fast-check';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { invoiceRuleBreaks } from './invoice-invariants.ts';
import { completeCompany, draftBody, line } from './test-support.ts';

/**
 * Issue 23, done-when: random sequences of credit-note drafts, edits and issues (two at once among
 * them, and drafts made stale behind the API's back) on one invoice never credit more than the
 * invoice, per line or in total, and every number of both series stays gap-free.
 */
const setup = apiTest({ prepare: completeCompany });
const { db, staff, partyId, call } = setup;

type Step =
  | { kind: 'draft'; quantities: (string | null)[] }
  | { kind: 'edit'; pick: number; quantities: (string | null)[] }
  | { kind: 'stale'; pick: number; quantity: string }
  | { kind: 'issue'; pick: number }
  | { kind: 'issueTwo'; pick: number; other: number };

const quantity = fc.constantFrom('0.5', '1', '1.5', '2', '3', '4');
const quantities = fc.array(fc.option(quantity, { nil: null }), { minLength: 2, maxLength: 2 });
const pick = fc.nat(20);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('draft' as const), quantities }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('edit' as const), pick, quantities }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('stale' as const), pick, quantity }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('issue' as const), pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('issueTwo' as const), pick, other: pick }), weight: 2 },
);

/** What one invoice's issued credit notes give back, and its lines credited past or short of their quantity. */
interface Sums {
  credited: string;
  notes: number;
  total: string;
  over: number;
  open: number;
}

/** Every number of a series is the one after the previous, up to the series' last issued. */
async function gapFree(kind: 'invoice' | 'credit_note') {
  const r = await sql<{ number: string; year: number }>`
    select number, extract(year from issue_date)::int as year from sales_invoices
    where kind = ${kind} and number is not null`.execute(db.db);
  const byYear = new Map<number, number[]>();
  for (const x of r.rows) {
    const n = Number(/(\d+)$/.exec(x.number)?.[1]);
    byYear.set(x.year, [...(byYear.get(x.year) ?? []), n]);
  }
  for (const [year, ns] of byYear) {
    ns.sort((a, b) => a - b);
    const last = await sql<{ last_issued: number }>`
      select last_issued from document_series_years where kind = ${kind} and year = ${year}`.execute(db.db);
    expect(ns, `${kind} ${year}`).toEqual(Array.from({ length: ns.length }, (_, i) => (ns[0] as number) + i));
    expect(ns.at(-1)).toBe(last.rows[0]?.last_issued);
  }
}

it('credit notes never credit more than their invoice, and the numbers stay gap-free', async () => {
  const seen = { issued: 0, refused: 0, roundedOver: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('0.50', '33.33', '100', '0.35'),
      fc.array(step, { minLength: 4, maxLength: 12 }),
      async (price, steps) => {
        const d = await call(
          'POST',
          '/sales-invoices',
          staff,
          draftBody(partyId.ACME, {
            lines: [line({ quantity: '3', unitPrice: price }), line({ quantity: '2', unitPrice: '10' })],
          }),
        );
        expect(d.status).toBe(201);
        const inv = await call('POST', `/sales-invoices/${d.body.id}/issue`, staff, {
          version: d.body.version,
        });
        expect(inv.status).toBe(200);
        const invoiceLines = inv.body.lines as Json[];
        const drafts: string[] = [];
        const draftAt = (i: number) => drafts[i % Math.max(drafts.length, 1)];
        const issue = async (id: string | undefined) => {
          if (!id) return;
          const cn = await call('GET', `/sales-invoices/${id}`, staff);
          if (cn.body.status !== 'draft') return;
          const r = await call('POST', `/sales-invoices/${id}/issue`, staff, { version: cn.body.version });
          expect([200, 409, 422], JSON.stringify(r.body)).toContain(r.status);
          if (r.status === 200) seen.issued++;
          if (r.status === 422) seen.refused++;
        };
        for (const s of steps) {
          if (s.kind === 'draft') {
            const chosen = s.quantities.flatMap((q, i) =>
              q ? [{ lineId: (invoiceLines[i] as Json).id as string, quantity: q }] : [],
            );
            const now = await call('GET', `/sales-invoices/${inv.body.id}`, staff);
            const r = await call('POST', `/sales-invoices/${inv.body.id}/credit-notes`, staff, {
              version: now.body.version,
              ...(chosen.length ? { lines: chosen } : {}),
            });
            expect([201, 409, 422], JSON.stringify(r.body)).toContain(r.status);
            if (r.status === 201) drafts.push(r.body.id as string);
          } else if (s.kind === 'edit') {
            const id = draftAt(s.pick);
            if (!id) continue;
            const cn = await call('GET', `/sales-invoices/${id}`, staff);
            if (cn.body.status !== 'draft') continue;
            const lines = s.quantities.flatMap((q, i) => {
              const l = invoiceLines[i] as Json;
              return q
                ? [
                    {
                      creditedLineId: l.id,
                      chargeCode: l.chargeCode,
                      description: l.description,
                      quantity: q,
                      unit: l.unit,
                      unitPrice: l.unitPrice,
                      vatCode: l.vatCode,
                      vatRate: l.vatRate,
                    },
                  ]
                : [];
            });
            if (!lines.length) continue;
            const r = await call('PATCH', `/sales-invoices/${id}`, staff, {
              version: cn.body.version,
              lines,
            });
            expect([200, 422], JSON.stringify(r.body)).toContain(r.status);
          } else if (s.kind === 'stale') {
            // A draft promising more than is left (as one written before the rule, or by another tool).
            const id = draftAt(s.pick);
            if (!id) continue;
            await sql`
              update sales_invoice_lines set quantity = ${s.quantity}::numeric,
                line_net = round(${s.quantity}::numeric * unit_price, 2)
              where invoice_id = ${id} and exists (select 1 from sales_invoices where id = ${id} and number is null)`.execute(
              db.db,
            );
            // Its stored totals as the lines give them (what the API would compute).
            const cn = await call('GET', `/sales-invoices/${id}`, staff);
            if (cn.body.status === 'draft')
              await sql`update sales_invoices set tax_inclusive_amount = ${(cn.body.totals as Json).taxInclusiveAmount as string}::numeric
                where id = ${id}`.execute(db.db);
          } else if (s.kind === 'issue') {
            await issue(draftAt(s.pick));
          } else {
            const a = draftAt(s.pick);
            const b = draftAt(s.other);
            if (a === b) await issue(a);
            else await Promise.all([issue(a), issue(b)]);
          }
          // The invariants, after every step.
          const sums = await sql<Sums>`
            select coalesce((select sum(cn.tax_inclusive_amount) from sales_invoices cn
                             where cn.credited_invoice_id = i.id and cn.number is not null), 0)::text as credited,
              (select count(*)::int from sales_invoices cn
                where cn.credited_invoice_id = i.id and cn.number is not null) as notes,
              i.tax_inclusive_amount::text as total,
              (select count(*)::int from sales_invoice_lines l where l.invoice_id = i.id and l.quantity >
                 (select coalesce(sum(cl.quantity), 0) from sales_invoice_lines cl join sales_invoices cn on cn.id = cl.invoice_id
                  where cl.credited_line_id = l.id and cn.number is not null)) as open,
              (select count(*)::int from sales_invoice_lines l where l.invoice_id = i.id and l.quantity <
                 (select coalesce(sum(cl.quantity), 0) from sales_invoice_lines cl join sales_invoices cn on cn.id = cl.invoice_id
                  where cl.credited_line_id = l.id and cn.number is not null)) as over
            from sales_invoices i where i.id = ${inv.body.id as string}`.execute(db.db);
          const row = sums.rows[0] as Sums;
          // ADR 0040: VAT is rounded per note, so the note that credits every line's last quantity may
          // round past the total by 0.01 per earlier note; while any quantity is left, never past it.
          const rounding = row.open === 0 ? Math.max(row.notes - 1, 0) : 0;
          expect(Math.round(Number(row.credited) * 100)).toBeLessThanOrEqual(
            Math.round(Number(row.total) * 100) + rounding,
          );
          if (Number(row.credited) > Number(row.total)) seen.roundedOver++;
          expect(row.over).toBe(0);
          const after = await call('GET', `/sales-invoices/${inv.body.id}`, staff);
          expect(Number(after.body.openAmount)).toBeGreaterThanOrEqual(0);
        }
        await gapFree('credit_note');
        await gapFree('invoice');
        expect(await invoiceRuleBreaks(db.db)).toEqual([]);
      },
    ),
    {
      numRuns: 30,
      // Always among the runs (whatever the seed): the rounding case below, and a part issued, the rest
      // drafted, that draft made stale and refused at issue.
      examples: [
        // Found by a CI run: 0.5 of 3 at 0.35 credited first (0.18), the rest (0.88) last; with VAT the
        // two notes give back 25.48 of 25.47, the 0.01 of rounding ADR 0040 allows the completing note.
        [
          '0.35',
          [
            { kind: 'draft', quantities: ['0.5', null] },
            { kind: 'draft', quantities: [null, null] },
            { kind: 'draft', quantities: [null, null] },
            { kind: 'issueTwo', pick: 0, other: 7 },
          ],
        ],
        // The stale draft refused at issue.
        [
          '0.50',
          [
            { kind: 'draft', quantities: ['1', null] },
            { kind: 'issue', pick: 0 },
            { kind: 'draft', quantities: [null, null] },
            { kind: 'stale', pick: 1, quantity: '4' },
            { kind: 'issue', pick: 1 },
            { kind: 'issueTwo', pick: 0, other: 1 },
          ],
        ],
      ],
    },
  );
  // The runs did exercise both outcomes of issuing.
  expect(seen.issued).toBeGreaterThan(0);
  expect(seen.refused).toBeGreaterThan(0);
  // ... and the completing note that rounds past the total (ADR 0040) was issued.
  expect(seen.roundedOver).toBeGreaterThan(0);
}, 240_000);
