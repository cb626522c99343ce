import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type DeclarationStatus,
  type DeclarationType,
  declarationTotals,
  defaultVat,
  documentTotals,
  type EstimateInput,
  type InvoiceKind,
  type IssueParty,
  issueProblems,
  isValidContainerNumber,
  isValidMrn,
  itemEstimate,
  SANDBOX_LABEL,
  STATUSES_OF_TYPE,
  trimDecimal,
  type VatCode,
  type VatExemptionReason,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStore } from '../../features/documents/storage.ts';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { seedFirstStart } from '../demo/index.ts';
import { seedOperations, seedScale } from './scale.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('seed:scale', () => {
  it('generates valid, consistent volume data and continues the number series', async () => {
    const reports = await seedScale(db.db, { dossiers: 600, chargesPerDossier: 2 });
    const tableCounts = (
      await sql<{ items: number; messages: number }>`
        select (select count(*)::int from declaration_items) items, (select count(*)::int from declaration_messages) messages`.execute(
        db.db,
      )
    ).rows[0];
    expect(reports.map((r) => [r.table, r.rows])).toEqual([
      ['parties', 20],
      ['dossiers', 600],
      ['dossier_charges', 1200],
      ['transports', 1200],
      ['sales_offers', 150],
      ['sales_offer_lines', 150],
      ['sales_invoices', 600],
      ['sales_invoice_lines', 600],
      ['sales_invoice_payments', 390],
      ['declarations', 300],
      ['declaration_items', tableCounts?.items],
      ['declaration_messages', tableCounts?.messages],
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

    await expectSalesConsistent(db.db);
    await expectDeclarationsConsistent(db.db);

    // A second run adds more and the series continues without duplicates.
    await seedScale(db.db, { dossiers: 10, chargesPerDossier: 1 });
    await expectSalesConsistent(db.db);
    await expectDeclarationsConsistent(db.db);
    expect(
      (await sql<{ n: number }>`select count(*)::int n from declarations`.execute(db.db)).rows[0]?.n,
    ).toBe(305);
    expect(
      (await sql<{ n: number }>`select count(*)::int n from sales_invoices`.execute(db.db)).rows[0]?.n,
    ).toBe(610);
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
      // The generated offers, invoices and declarations continue the demo's series.
      await expectSeriesConsecutive(demo.db);
      await expectDeclarationsConsistent(demo.db);
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

/**
 * What every declaration must satisfy, generated or demo: MRNs valid for the type (check character
 * and letter, `isValidMrn`), one per declaration past lodging; LRNs of each year's series 1…last without
 * gap or duplicate, the counter past them; item estimates exactly `itemEstimate`'s and header totals
 * `declarationTotals`' (what the API computes); the message log a lodgement and then answers whose last
 * one brought the status, each received message replying to the lodgement; no date in the future.
 */
async function expectDeclarationsConsistent(db: TestDatabase['db']) {
  const rows = (
    await sql<{
      id: string;
      type: DeclarationType;
      status: DeclarationStatus;
      lrn: string;
      mrn: string | null;
      packages: number;
      gross_mass_kg: string;
      customs_value: string;
      duty: string | null;
      vat: string | null;
      duty_and_vat: string | null;
      last_message_kind: string | null;
      future: boolean;
      items: (EstimateInput & {
        packages: number | null;
        grossMassKg: string | null;
        netMassKg: string | null;
        invoiceValue: string | null;
        statisticalValue: string | null;
        duty: string | null;
        vatBase: string | null;
        vat: string | null;
      })[];
      messages: { kind: string; direction: string; summary: string; mrn: string | null; replies: boolean }[];
    }>`
      select d.id, d.type, d.status, d.lrn, d.mrn, d.packages, d.gross_mass_kg::text, d.customs_value::text,
             d.duty::text, d.vat::text, d.duty_and_vat::text, d.last_message_kind,
             greatest(d.created_at, d.updated_at, d.lodged_at, d.last_message_at) > now() future,
             coalesce((select json_agg(json_build_object('packages', i.packages, 'grossMassKg', i.gross_mass_kg::text,
                       'netMassKg', i.net_mass_kg::text, 'invoiceValue', i.invoice_value::text,
                       'customsValue', i.customs_value::text, 'statisticalValue', i.statistical_value::text,
                       'dutyRate', i.duty_rate::text, 'vatRate', i.vat_rate::text, 'vatCosts', i.vat_costs::text,
                       'duty', i.duty::text, 'vatBase', i.vat_base::text, 'vat', i.vat::text) order by i.position)
                       from declaration_items i where i.declaration_id = d.id), '[]') items,
             coalesce((select json_agg(json_build_object('kind', m.kind, 'direction', m.direction, 'summary', m.summary,
                       'mrn', m.mrn,
                       'replies', m.direction = 'sent' or m.payload->>'inReplyTo' = (select l.id::text from declaration_messages l
                          where l.declaration_id = d.id and l.kind = 'lodge'))
                       order by m.at, m.kind = 'lodge' desc)
                       from declaration_messages m where m.declaration_id = d.id), '[]') messages
      from declarations d`.execute(db)
  ).rows;
  expect(rows.length).toBeGreaterThan(0);
  for (const d of rows) {
    expect(STATUSES_OF_TYPE[d.type]).toContain(d.status);
    expect(d.future).toBe(false);
    const pastLodging = !['draft', 'lodged', 'rejected'].includes(d.status);
    expect({ lrn: d.lrn, mrn: pastLodging && d.mrn !== null && isValidMrn(d.mrn, d.type) }).toEqual({
      lrn: d.lrn,
      mrn: pastLodging,
    });
    if (!pastLodging) expect(d.mrn).toBeNull();
    expect(d.items.length).toBeGreaterThan(0);
    // Only an import's items carry a stored estimate (the API's storedItems); a transit's rates give
    // the amount at stake, computed, never stored per item.
    const estimates = d.items.map((i) => (d.type === 'import' ? itemEstimate(i) : null));
    expect(d.items.map((i) => [i.duty, i.vatBase, i.vat])).toEqual(
      estimates.map((e) => [e?.duty ?? null, e?.vatBase ?? null, e?.vat ?? null]),
    );
    const t = declarationTotals(d.type, d.items);
    expect({
      packages: d.packages,
      gross: Number(d.gross_mass_kg),
      customs: d.customs_value,
      duty: d.duty,
      vat: d.vat,
      dutyAndVat: d.duty_and_vat,
    }).toEqual({
      packages: t.packages,
      gross: Number(t.grossMassKg),
      customs: t.customsValue,
      duty: t.duty,
      vat: t.vat,
      dutyAndVat: t.dutyAndVat,
    });
    if (d.status === 'draft') {
      expect(d.messages).toEqual([]);
      continue;
    }
    expect(d.messages[0]).toMatchObject({ kind: 'lodge', direction: 'sent' });
    expect(d.messages.every((m) => m.replies && m.summary.startsWith(SANDBOX_LABEL))).toBe(true);
    expect(d.last_message_kind).toBe(d.messages.at(-1)?.kind);
    const accepted = d.messages.find((m) => m.kind === 'accepted');
    if (accepted) expect(accepted.mrn).toBe(d.mrn);
  }
  await expectSeriesConsecutiveOf(db, 'declaration', 'declarations', 'lrn');
}

/**
 * What the generated offers and invoices must satisfy whatever their number: every series consecutive
 * per year (1…last issued, no gap, no duplicate, the series' counters moved past them), the totals
 * exactly what invoice-math computes from the lines, nothing issueProblems would refuse, payments
 * adding up to the paid amount and the status, every issued line marking its charge.
 */
async function expectSalesConsistent(db: TestDatabase['db']) {
  await expectSeriesConsecutive(db);

  const offers = (
    await sql<{ accepted: number; linked: number; statuses: number; bad_lines: number }>`
      select count(*) filter (where status = 'accepted')::int accepted,
             count(*) filter (where dossier_id is not null)::int linked,
             count(distinct status)::int statuses,
             (select count(*)::int from sales_offer_lines where line_net <> round(quantity * unit_price, 2)) bad_lines
      from sales_offers`.execute(db)
  ).rows[0];
  expect(offers?.linked).toBe(offers?.accepted);
  expect(offers).toMatchObject({ statuses: 6, bad_lines: 0 });

  const invoices = (
    await sql<{
      id: string;
      number: string | null;
      status: string;
      seller: IssueParty | null;
      buyer: IssueParty | null;
      line_extension_amount: string;
      vat_total: string;
      tax_inclusive_amount: string;
      paid_amount: string;
      payments: string;
      overdue: boolean;
      dossier_type: Parameters<typeof defaultVat>[0]['dossierType'];
      lines: {
        quantity: string;
        unitPrice: string;
        vatCode: VatCode;
        vatRate: string | null;
        exemptionReason: VatExemptionReason | null;
        lineNet: string;
        marks: boolean;
      }[];
    }>`
      select i.id, i.number, i.status, i.seller, i.buyer, i.line_extension_amount::text, i.vat_total::text,
             (select type from dossiers d where d.id = i.dossier_id) dossier_type,
             i.tax_inclusive_amount::text, i.paid_amount::text,
             (select coalesce(sum(amount), 0)::numeric(16, 2)::text from sales_invoice_payments p where p.invoice_id = i.id) payments,
             (i.status in ('issued', 'partially_paid') and i.due_date < current_date) overdue,
             (select json_agg(json_build_object('quantity', l.quantity::text, 'unitPrice', l.unit_price::text,
                       'vatCode', l.vat_code, 'vatRate', l.vat_rate::text, 'exemptionReason', l.exemption_reason,
                       'lineNet', l.line_net::text,
                       'marks', exists (select 1 from dossier_charges c where c.id = l.charge_id and c.invoiced_line_id = l.id))
                     order by l.position)
              from sales_invoice_lines l where l.invoice_id = i.id) lines
      from sales_invoices i`.execute(db)
  ).rows;
  const statuses = new Set(invoices.map((i) => i.status));
  expect([...statuses].sort()).toEqual(['draft', 'issued', 'paid', 'partially_paid']);
  expect(invoices.filter((i) => i.overdue).length).toBeGreaterThan(0);
  for (const inv of invoices) {
    const t = documentTotals(inv.lines);
    expect({
      id: inv.id,
      nets: inv.lines.map((l) => l.lineNet),
      net: inv.line_extension_amount,
      vat: inv.vat_total,
      gross: inv.tax_inclusive_amount,
    }).toEqual({
      id: inv.id,
      nets: t.lineNets,
      net: t.lineExtensionAmount,
      vat: t.vatTotal,
      gross: t.taxInclusiveAmount,
    });
    expect(inv.payments).toBe(inv.paid_amount);
    const paidInFull = inv.paid_amount === inv.tax_inclusive_amount;
    expect(inv.status === 'paid').toBe(paidInFull && inv.number !== null);
    if (inv.number === null) {
      expect(inv.lines.every((l) => !l.marks)).toBe(true);
      continue;
    }
    expect(inv.lines.every((l) => l.marks)).toBe(true);
    // The SQL's VAT is defaultVat's, line by line.
    const vat = defaultVat({
      dossierType: inv.dossier_type,
      sellerCountry: inv.seller?.countryCode ?? '',
      buyerCountry: inv.buyer?.countryCode ?? '',
      buyerVatNumber: inv.buyer?.vatNumber ?? null,
    });
    for (const l of inv.lines)
      expect({
        vatCode: l.vatCode,
        vatRate: l.vatRate === null ? null : trimDecimal(l.vatRate),
        exemptionReason: l.exemptionReason,
      }).toEqual(vat);
    const kind: InvoiceKind = 'invoice';
    expect(
      issueProblems({
        seller: inv.seller ?? {},
        buyer: inv.buyer ?? {},
        lines: inv.lines,
        currency: 'EUR',
        baseCurrency: 'EUR',
        exchangeRate: null,
        kind,
        precedingInvoiceNumber: null,
      }),
    ).toEqual([]);
  }
}

/** Every offer and invoice series is 1…last issued per year: no gap, no duplicate, the counter past them. */
async function expectSeriesConsecutive(db: TestDatabase['db']) {
  for (const [table, kind] of [
    ['sales_offers', 'offer'],
    ['sales_invoices', 'invoice'],
  ] as const) {
    await expectSeriesConsecutiveOf(
      db,
      kind,
      table,
      'number',
      table === 'sales_invoices' ? sql`t.kind = 'invoice'` : sql`true`,
    );
  }
}

type SeriesRow = Record<'year' | 'n' | 'distinct_n' | 'lo' | 'hi' | 'last_issued' | 'next_number', number>;

/** One document series is 1…last issued per year: no gap, no duplicate, the series' counter past them. */
async function expectSeriesConsecutiveOf(
  db: TestDatabase['db'],
  kind: string,
  table: string,
  column: 'lrn' | 'number',
  where: RawBuilder<unknown> = sql`true`,
) {
  const number = sql.ref(`t.${column}`);
  const series = (
    await sql<SeriesRow>`
      select y.year, count(${number})::int n, count(distinct ${number})::int distinct_n,
             min(substring(${number} from '-([0-9]+)$')::int) lo, max(substring(${number} from '-([0-9]+)$')::int) hi,
             y.last_issued, y.next_number
      from document_series_years y
      join ${sql.table(table)} t on ${number} like '%' || y.year || '-%'
      where y.kind = ${kind} and ${number} is not null and ${where}
      group by y.year, y.last_issued, y.next_number order by y.year`.execute(db)
  ).rows;
  expect(series.length, kind).toBeGreaterThan(0);
  for (const y of series)
    expect(y).toEqual({ ...y, distinct_n: y.n, lo: 1, hi: y.n, last_issued: y.n, next_number: y.n + 1 });
}
