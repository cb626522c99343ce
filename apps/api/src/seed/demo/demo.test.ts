import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CUSTOMS_STATUSES,
  type CustomsStatus,
  DECLARATION_TYPES,
  type Declaration,
  type DeclarationType,
  DOSSIER_STATUSES,
  isNonUnion,
  isUnLocode,
  isValidContainerNumber,
  isValidMrn,
  isValidSscc,
  lodgingProblems,
  OFFER_STATUSES,
  SALES_CHARGE_CODES,
  SANDBOX_LABEL,
  SHIPMENT_STATUSES,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { warehouseInvariantBreaks } from '../../db/warehouse-invariants.ts';
import { loadDeclaration, lodgingContextOf } from '../../features/declarations/declarations.repository.ts';
import { LocalDiskStore } from '../../features/documents/storage.ts';
import { invoiceRuleBreaks } from '../../features/sales-invoices/invoice-invariants.ts';
import { validateNcts } from '../../ncts/validate.ts';
import {
  apiCaller,
  createTestApp,
  createTestDatabase,
  demoTokens,
  type TestDatabase,
} from '../../test/helpers.ts';
import { seedFirstStart } from './index.ts';

const NCTS_OUT = path.resolve(import.meta.dirname, '../../../../../test-results/ncts');

type Tokens = Awaited<ReturnType<typeof demoTokens>>;
type Row = Record<string, unknown>;

let db: TestDatabase;
let dataDir: string;
let app: App;
let tokens: Tokens;
let seeded: Awaited<ReturnType<typeof seedFirstStart>>;
const call = apiCaller(() => app);
const get = (pathname: string, auth: { authorization: string }, query: Record<string, string> = {}) =>
  call('GET', `${pathname}${Object.keys(query).length ? `?${new URLSearchParams(query)}` : ''}`, auth);

/** Monday of the week `d` falls in, and a day n days on (UTC calendar days). */
const monday = (d: Date) =>
  new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7)));
const plus = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000).toISOString().slice(0, 10);

async function all(
  pathname: string,
  auth: { authorization: string },
  query: Record<string, string> = {},
): Promise<Row[]> {
  const out: Row[] = [];
  for (let page = 1; ; page++) {
    const r = await get(pathname, auth, { ...query, page: String(page), pageSize: '100' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const items = r.body.items as Row[];
    out.push(...items);
    if (items.length < 100) return out;
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'fvg-demo-'));
  seeded = await seedFirstStart(db.db, {
    company: { store: new LocalDiskStore(path.join(dataDir, 'files')) },
  });
  console.log(`demo company seeded in ${seeded.seconds.toFixed(2)} s: ${JSON.stringify(seeded.timings)}`);
  app = await createTestApp(db, { dataDir });
  tokens = await demoTokens(app);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the demo company on a first start', () => {
  it('has at least 40 dossiers in every status, for both customers, with charges, routes and handlers', async () => {
    const dossiers = await all('/dossiers', tokens.staff);
    expect(dossiers.length).toBeGreaterThanOrEqual(40);
    expect(new Set(dossiers.map((d) => d.status))).toEqual(new Set(DOSSIER_STATUSES));
    const byCustomer = (code: string) =>
      dossiers.filter((d) => (d.customer as { code: string }).code === code);
    expect(byCustomer('ACME').length).toBeGreaterThanOrEqual(15);
    expect(byCustomer('GLOBEX').length).toBeGreaterThanOrEqual(15);
    expect(new Set(dossiers.map((d) => d.mode)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(dossiers.map((d) => d.type)).size).toBeGreaterThanOrEqual(5);
    for (const d of dossiers) {
      expect(isUnLocode(d.originLocode as string) && isUnLocode(d.destinationLocode as string)).toBe(true);
      // A booked dossier has someone handling it; a request waits for one.
      if (d.status !== 'requested' && d.status !== 'cancelled') expect(d.handler).not.toBeNull();
    }
    const charges = (
      await sql<{ n: number; currencies: number; costs: number; revenues: number; bad: number }>`
        select count(*)::int n, count(distinct currency)::int currencies,
               count(*) filter (where kind = 'cost')::int costs, count(*) filter (where kind = 'revenue')::int revenues,
               (select count(*)::int from dossiers d where profit <> (select coalesce(sum(case kind when 'revenue' then base_amount else -base_amount end), 0)
                  from dossier_charges where dossier_id = d.id)) bad
        from dossier_charges`.execute(db.db)
    ).rows[0];
    expect(charges?.currencies).toBeGreaterThanOrEqual(3);
    expect(charges?.costs).toBeGreaterThan(20);
    expect(charges?.revenues).toBeGreaterThan(40);
    expect(charges?.bad).toBe(0);
    // One vocabulary: every charge by a code of the shared list; terminal handling priced per container.
    const codes = await sql<{ code: string; per_container: number }>`
      select charge_code as code, count(*) filter (where unit = 'XCN')::int per_container
      from dossier_charges group by charge_code`.execute(db.db);
    expect(codes.rows.every((r) => (SALES_CHARGE_CODES as readonly string[]).includes(r.code))).toBe(true);
    expect(codes.rows.find((r) => r.code === 'THC')?.per_container).toBeGreaterThan(5);

    // The detail carries the sea facts: Incoterm, cargo, valid container numbers.
    const sea = dossiers.find((d) => d.mode === 'sea' && d.status === 'in_transit') as Row;
    const detail = (await get(`/dossiers/${sea.id}`, tokens.staff)).body;
    expect(detail.incoterm).toMatch(/^[A-Z]{3}$/);
    expect(detail.cargoDescription).toBeTruthy();
    expect(detail.atd).toBeTruthy();
    const containers = detail.containers as { number: string }[];
    expect(containers.length).toBeGreaterThan(0);
    expect(containers.every((c) => isValidContainerNumber(c.number))).toBe(true);
  });

  it('has a history for its records, as if made in the app', async () => {
    const [d] = await all('/dossiers', tokens.staff, { status: 'delivered' });
    const history = (await get(`/dossiers/${(d as Row).id}/history`, tokens.staff)).body;
    const actions = (history.items ?? history) as { action: string }[];
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['created', 'charges changed', 'status changed']),
    );
    const missing = (
      await sql<{ n: number }>`
        select count(*)::int n from (
          select id from dossiers union all select id from transports union all select id from documents
          union all select id from parties where code not in ('ACME','GLOBEX','NORDCAR','BLUESEA')) r
        where not exists (select 1 from audit_log a where a.record_id = r.id)`.execute(db.db)
    ).rows[0];
    expect(missing?.n).toBe(0);
  });

  it('a customer sees their own dossiers only', async () => {
    const staffView = await all('/dossiers', tokens.staff);
    const acme = await all('/dossiers', tokens.acme);
    expect(acme.length).toBe(
      staffView.filter((d) => (d.customer as { code: string }).code === 'ACME').length,
    );
    expect(acme.every((d) => (d.customer as { code: string }).code === 'ACME' && d.profit === null)).toBe(
      true,
    );
  });

  it('plans legs this week and next, some without a carrier, and flags exactly one vehicle overlap', async () => {
    const from = monday(new Date());
    // Eight weeks from this Monday: the seed picks its carrier-less and overlapping legs among those
    // more than 36 hours ahead, so late on a Sunday some of them lie beyond next week.
    const r = await get('/planning', tokens.staff, {
      from: plus(from, 0),
      to: plus(from, 55),
      tz: 'UTC',
      limit: '1000',
    });
    expect(r.status).toBe(200);
    const items = r.body.items as { id: string; pickupFrom: string; carrier: unknown; flags: string[] }[];
    const thisWeek = items.filter((t) => t.pickupFrom < `${plus(from, 7)}`);
    const nextWeek = items.filter((t) => t.pickupFrom >= `${plus(from, 7)}`);
    expect(thisWeek.length).toBeGreaterThan(0);
    expect(nextWeek.length).toBeGreaterThan(0);
    const unassigned = items.filter((t) => t.flags.includes('missing_carrier'));
    expect(unassigned.length).toBe(
      (seeded.company as { transports: { unassigned: number } }).transports.unassigned,
    );
    // Up to four: every second leg more than 36 hours ahead, so fewer late in the week.
    expect(unassigned.length).toBeGreaterThan(0);
    expect(unassigned.every((t) => t.carrier === null)).toBe(true);
    // One truck on two legs at once: both legs flagged, nothing else.
    expect(
      items
        .filter((t) => t.flags.includes('vehicle_overlap'))
        .map((t) => t.id)
        .sort(),
    ).toEqual([...(seeded.company as { transports: { overlap: string[] } }).transports.overlap].sort());
    expect(items.some((t) => t.flags.includes('pickup_passed'))).toBe(false);
  });

  it('has containers with planned, estimated and actual events, linked to dossiers, and one changed ETA', async () => {
    const containers = await all('/containers', tokens.staff);
    expect(containers.length).toBeGreaterThanOrEqual(10);
    const kinds = (
      await sql<{ classifier: string; unlinked: number }>`
        select classifier, count(*) filter (where dossier_id is null)::int unlinked from container_events group by classifier order by classifier`.execute(
        db.db,
      )
    ).rows;
    // Every event of a dossier's box links to it; only the terminal feed's two, of a box no dossier
    // names yet, wait under "Unlinked events".
    expect(kinds).toEqual([
      { classifier: 'ACT', unlinked: 2 },
      { classifier: 'EST', unlinked: 0 },
      { classifier: 'PLN', unlinked: 0 },
    ]);
    const box = (seeded.company as Record<string, { unlinkedBox: string }>)['container events']?.unlinkedBox;
    const unlinked = (await get('/container-events/unlinked', tokens.staff)).body.items as Row[];
    expect(unlinked.map((e) => e.equipmentReference)).toEqual([box, box]);
    const changed = (seeded.company as Record<string, { etaChanged: string }>)['container events']
      ?.etaChanged;
    const timeline = (await get(`/containers/${changed}/events`, tokens.staff, { limit: '50' })).body;
    const disc = (
      timeline.items as {
        equipmentEventTypeCode: string;
        eventClassifierCode: string;
        superseded: boolean;
        previousEventDateTime: string | null;
      }[]
    ).filter((e) => e.equipmentEventTypeCode === 'DISC');
    // The newest estimate stands, the earlier one is replaced, and the move shows.
    expect(disc.filter((e) => e.eventClassifierCode === 'EST').length).toBe(2);
    expect(disc.filter((e) => !e.superseded).length).toBe(1);
    expect(disc.find((e) => !e.superseded)?.previousEventDateTime).toBeTruthy();
  });

  it('has real PDFs, and a customer sees only the visible ones of their own dossiers, not of draft declarations', async () => {
    const staffDocs = await all('/documents', tokens.staff);
    expect(staffDocs.length).toBeGreaterThanOrEqual(20);
    expect(staffDocs.some((d) => d.visibleToCustomer === false)).toBe(true);
    const acmeDocs = await all('/documents', tokens.acme);
    expect(acmeDocs.length).toBeGreaterThan(0);
    const acmeDossiers = new Set((await all('/dossiers', tokens.acme)).map((d) => d.id));
    // A draft declaration is not the customer's to see yet, nor are its papers (marked visible or not).
    const drafts = new Set(
      (await all('/declarations', tokens.staff, { status: 'draft' })).map((d) => d.id as string),
    );
    const onDraft = staffDocs.filter(
      (d) => d.recordType === 'declaration' && drafts.has(d.recordId as string),
    );
    expect(onDraft.some((d) => d.visibleToCustomer)).toBe(true);
    const expected = staffDocs.filter(
      (d) =>
        d.visibleToCustomer &&
        acmeDossiers.has((d.dossier as { id: string } | null)?.id) &&
        !onDraft.includes(d),
    );
    expect(acmeDocs.map((d) => d.id).sort()).toEqual(expected.map((d) => d.id).sort());
    const file = await get(`/documents/${(acmeDocs[0] as Row).id}/content`, tokens.acme);
    expect(file.status).toBe(200);
    expect(file.raw.slice(0, 5)).toBe('%PDF-');
  });

  it('has chat threads with unread messages for staff and for both customers', async () => {
    const threads = (
      await sql<{ dossier_id: string }>`select distinct dossier_id from chat_messages`.execute(db.db)
    ).rows.map((r) => r.dossier_id);
    expect(threads.length).toBeGreaterThanOrEqual(6);
    const unread = async (auth: { authorization: string }) => {
      let n = 0;
      for (const id of threads) {
        const r = await get(`/dossiers/${id}/messages`, auth, { limit: '50' });
        if (r.status === 200) n += r.body.unread as number;
      }
      return n;
    };
    expect(await unread(tokens.staff)).toBeGreaterThan(0);
    expect(await unread(tokens.acme)).toBeGreaterThan(0);
    expect(await unread(tokens.globex)).toBeGreaterThan(0);
  });

  it('has sales offers in every status for both customers; two accepted became their dossiers', async () => {
    const offers = await all('/sales-offers', tokens.staff);
    expect(new Set(offers.map((o) => o.status))).toEqual(new Set(OFFER_STATUSES));
    for (const code of ['ACME', 'GLOBEX'])
      expect(
        offers.filter((o) => (o.customer as { code: string }).code === code).length,
      ).toBeGreaterThanOrEqual(5);
    const accepted = offers.filter((o) => o.status === 'accepted');
    expect(accepted).toHaveLength(2);
    for (const o of accepted) {
      const link = o.dossier as { id: string; number: string };
      const dossier = (await get(`/dossiers/${link.id}`, tokens.staff)).body;
      expect(dossier).toMatchObject({ status: 'booked', offer: { id: o.id, number: o.number } });
      expect((dossier.charges as Row[]).every((c) => c.kind === 'revenue')).toBe(true);
      expect((dossier.charges as Row[]).length).toBeGreaterThanOrEqual(3);
      // Each line kept its code and its units from the offer (issue 27 item 4).
      expect((dossier.charges as Row[]).every((c) => c.quantity !== null && c.unit !== null)).toBe(true);
    }
    // Valid-until lies around today: the sent ones are still open, the expired ones past.
    const today = new Date().toISOString().slice(0, 10);
    for (const o of offers) {
      if (o.status === 'sent') expect((o.validUntil as string) >= today).toBe(true);
      if (o.status === 'expired') expect((o.validUntil as string) < today).toBe(true);
    }
    const acme = await all('/sales-offers', tokens.acme);
    expect(acme.length).toBeGreaterThan(0);
    expect(acme.every((o) => o.status !== 'draft' && (o.customer as { code: string }).code === 'ACME')).toBe(
      true,
    );
  });

  it('has invoices for both customers: paid, partly paid, overdue, another currency, a draft, and a credit note', async () => {
    const invoices = await all('/sales-invoices', tokens.staff);
    for (const code of ['ACME', 'GLOBEX']) {
      const own = invoices.filter((i) => (i.customer as { code: string }).code === code);
      expect(new Set(own.map((i) => i.status))).toEqual(
        new Set(['draft', 'issued', 'partially_paid', 'paid']),
      );
      expect(own.some((i) => i.overdue)).toBe(true);
      expect(own.some((i) => i.currency === 'USD')).toBe(true);
    }
    const credit = invoices.filter((i) => i.kind === 'credit_note');
    expect(credit.map((i) => i.status)).toEqual(['issued']);
    // Numbered in the order of their issue dates, without gaps.
    const issued = invoices
      .filter((i) => i.kind === 'invoice' && i.number)
      .sort((a, b) => String(a.number).localeCompare(String(b.number)));
    const dates = issued.map((i) => String(i.issueDate));
    expect(dates).toEqual([...dates].sort());
    const seqs = issued.map((i) => Number(String(i.number).slice(-6)));
    expect(seqs).toEqual(seqs.map((_, k) => (seqs[0] as number) + k));
    // Issue 23: every invoice rule holds in the seeded data (dates, payments, credit notes, dossiers).
    expect(await invoiceRuleBreaks(db.db)).toEqual([]);
    // ADR 0049: an issued invoice with a discount on the whole and a surcharge on a line, a draft with one.
    const adjusted = await sql<{ number: string | null; doc: number; line: number }>`
      select i.number, jsonb_array_length(i.allowance_charges)::int as doc,
        (select count(*)::int from sales_invoice_lines l where l.invoice_id = i.id
          and jsonb_array_length(l.allowance_charges) > 0) as line
      from sales_invoices i where i.kind = 'invoice' order by i.number nulls last`.execute(db.db);
    expect(adjusted.rows.some((r) => r.number && r.doc > 0 && r.line > 0)).toBe(true);
    expect(adjusted.rows.some((r) => !r.number && r.line > 0)).toBe(true);
    // A customer sees their own issued ones, no draft.
    const mine = await all('/sales-invoices', tokens.acme);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((i) => (i.customer as { code: string }).code === 'ACME' && i.status !== 'draft')).toBe(
      true,
    );
  });

  it('has customs declarations of each type on their dossiers, in every state the sandbox reaches, with items, messages, valid MRNs and papers', async () => {
    const list = await all('/declarations', tokens.staff);
    expect(new Set(list.map((d) => d.type))).toEqual(new Set(DECLARATION_TYPES));
    expect(new Set(list.map((d) => d.status))).toEqual(
      new Set([
        'draft',
        'accepted',
        'under_control',
        'released',
        'rejected',
        'not_released',
        'exited',
        'arrived',
        'discharged',
      ]),
    );
    const dossierTypes = new Map((await all('/dossiers', tokens.staff)).map((d) => [d.id, d.type]));
    const papers = await all('/documents', tokens.staff, { recordType: 'declaration' });
    for (const row of list) {
      const link = row.dossier as { id: string } | null;
      const d = (await get(`/declarations/${row.id}`, tokens.staff)).body;
      // The customs warehouse's: the H2 entry of goods that came with an import dossier (duties
      // suspended: nothing to estimate), and the release for free circulation a shipment made (no dossier).
      const entry = d.category === 'H2';
      const outbound = link === null;
      if (outbound) expect((d.items as Row[]).every((i) => i.procedureCode === '4071')).toBe(true);
      // An import dossier gets import declarations, an export one export, the transit lane transit.
      else expect(dossierTypes.get(link.id)).toBe(row.type);
      const items = d.items as { commodityCode: string; estimate: Row | null }[];
      expect(items.length).toBeGreaterThanOrEqual(1);
      expect(items.length).toBeLessThanOrEqual(4);
      expect(items.every((i) => /^\d{8}(\d{2})?$/.test(i.commodityCode))).toBe(true);
      // The list's figures (kept on the row by the seed) are what the API computes from the items.
      const totals = d.totals as Row;
      expect([row.customsValue, row.dutyAndVat]).toEqual([totals.customsValue, totals.dutyAndVat]);
      if (d.type === 'import' && !entry && !outbound) {
        expect(items.every((i) => i.estimate !== null)).toBe(true);
        expect(Number(totals.dutyAndVat)).toBeGreaterThan(0);
      }
      const past = !['draft', 'rejected'].includes(d.status as string);
      expect(d.mrn !== null && isValidMrn(d.mrn as string, d.type as DeclarationType)).toBe(past);
      if (!outbound) expect(papers.filter((p) => p.recordId === d.id).length).toBeGreaterThanOrEqual(1);
      const log = (await get(`/declarations/${d.id}/messages`, tokens.staff)).body as unknown as Row[];
      if (d.status === 'draft') {
        expect(log).toEqual([]);
        continue;
      }
      expect(log[0]).toMatchObject({ direction: 'sent', kind: 'lodge', sandbox: true });
      expect(log.slice(1).every((m) => m.direction === 'received' && m.by === null)).toBe(true);
      expect(log.every((m) => String(m.summary).includes(SANDBOX_LABEL))).toBe(true);
      expect(d.lastMessage).toEqual({ kind: log.at(-1)?.kind, at: log.at(-1)?.at });
      const times = log.map((m) => String(m.at));
      expect(times).toEqual([...times].sort());
      expect(times.every((t) => Date.parse(t) <= Date.now())).toBe(true);
      if (d.status === 'rejected') {
        const rules = d.rejection as { code: string; text: string }[];
        expect(rules[0]?.code).toMatch(/^SBX-R\d{3}$/);
        expect(rules[0]?.text).toBeTruthy();
        expect(log.at(-1)).toMatchObject({ kind: 'rejected', rules });
      } else expect(log.find((m) => m.kind === 'accepted')?.mrn).toBe(d.mrn);
      if (d.status === 'exited') expect(d.exitedAt).toBe(log.at(-1)?.at);
      if (d.status === 'discharged') expect(d.dischargedAt).toBe(log.at(-1)?.at);
    }
    // The next new declaration takes the series' next LRN, after the demo's.
    const lrns = list.map((d) => String(d.lrn)).sort();
    const dossier = ((list.find((d) => d.type === 'import' && d.dossier) as Row).dossier as { id: string })
      .id;
    const created = await call('POST', '/declarations', tokens.staff, { type: 'import', dossierId: dossier });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(String(created.body.lrn) > (lrns.at(-1) as string)).toBe(true);
    expect((await call('DELETE', `/declarations/${created.body.id}`, tokens.staff)).status).toBe(204);
  });

  it('every demo declaration passes the pre-lodging rule function, and was lodged and answered after it was made', async () => {
    const rows = await db.db
      .selectFrom('declarations')
      .select([
        'id',
        'lrn',
        'status',
        'created_at',
        'lodged_at',
        'accepted_at',
        'released_at',
        'exited_at',
        'rejection',
      ])
      .execute();
    expect(rows.length).toBeGreaterThan(10);
    const broken: string[] = [];
    for (const row of rows) {
      const d = (await loadDeclaration(db.db, row.id)) as Declaration;
      // The same function the API runs before lodging and the sandbox re-runs (ADR 0047), with all the
      // API reads besides: cited warehouse stock, the importer's CBAM goods, the customs rate of the
      // month it was lodged in (a draft: this month's).
      const found = lodgingProblems(d, await lodgingContextOf(db.db, d));
      broken.push(...found.map((p) => `${row.lrn} (${row.status}) ${p.field}: ${p.message}`));
      const created = row.created_at.getTime();
      for (const at of [row.lodged_at, row.accepted_at, row.released_at, row.exited_at])
        if (at && at.getTime() < created)
          broken.push(`${row.lrn}: stamped ${at.toISOString()}, before its creation`);
      if (row.lodged_at && row.released_at && row.released_at < row.lodged_at)
        broken.push(`${row.lrn}: released before it was lodged`);
      // A rejection is for what only the authority knows: no rule the API checks before lodging.
      if (row.status === 'rejected')
        for (const r of row.rejection as { code: string }[])
          if (!/^SBX-R5\d\d$/.test(r.code)) broken.push(`${row.lrn} rejected under ${r.code}`);
    }
    expect(broken).toEqual([]);
    // Issue 26 item 6: each lodged demo transit went as the IE015 NCTS receives, stored with its
    // lodgement and valid against the phase 6 schema (written to test-results/ncts/ for CI's second
    // check with xmllint).
    const stored = await sql<{ lrn: string; xml: string | null }>`
      select d.lrn, m.payload ->> 'ie015' as xml from declarations d
      join declaration_messages m on m.declaration_id = d.id and m.kind = 'lodge'
      where d.type = 'transit' order by d.lrn`.execute(db.db);
    let messages = 0;
    for (const { lrn, xml } of stored.rows) {
      expect(xml, `${lrn} stores the IE015 it was lodged with`).toBeTruthy();
      const result = await validateNcts(xml as string);
      expect(result.errors, lrn).toEqual([]);
      expect(xml).toContain(`<LRN>${lrn}</LRN>`);
      await mkdir(NCTS_OUT, { recursive: true });
      await writeFile(path.join(NCTS_OUT, `demo-${lrn}.xml`), xml as string);
      messages++;
    }
    expect(messages).toBeGreaterThan(0);
    const early = await sql<{ n: number }>`
      select count(*)::int n from declaration_messages m join declarations d on d.id = m.declaration_id
      where m.at < d.created_at`.execute(db.db);
    expect(early.rows[0]?.n).toBe(0);
    // Every customs-warehouse receipt names its owner's released H2 entry, or an MRN marked external.
    const receipts = await db.db
      .selectFrom('stock_receipts as r')
      .leftJoin('declarations as x', 'x.id', 'r.entry_declaration_id')
      .select([
        'r.owner_id',
        'r.inbound_mrn',
        'r.inbound_mrn_external',
        'x.customer_id',
        'x.category',
        'x.status',
        'x.mrn',
      ])
      .where('r.customs_status', '=', 'non_union_customs_warehousing')
      .execute();
    expect(receipts.length).toBeGreaterThan(0);
    for (const r of receipts)
      if (!r.inbound_mrn_external)
        expect(r).toMatchObject({
          customer_id: r.owner_id,
          category: 'H2',
          status: 'released',
          mrn: r.inbound_mrn,
        });
  });

  it('a customer sees their own declarations only: no drafts, no internal notes', async () => {
    const staffView = await all('/declarations', tokens.staff);
    for (const [code, auth] of [
      ['ACME', tokens.acme],
      ['GLOBEX', tokens.globex],
    ] as const) {
      const own = await all('/declarations', auth);
      const expected = staffView.filter(
        (d) => (d.customer as { code: string }).code === code && d.status !== 'draft',
      );
      expect(own.length).toBeGreaterThan(0);
      expect(own.map((d) => d.id).sort()).toEqual(expected.map((d) => d.id).sort());
      const detail = (await get(`/declarations/${(own[0] as Row).id}`, auth)).body;
      expect(detail.notes).toBeNull();
      const other = staffView.find((d) => (d.customer as { code: string }).code !== code) as Row;
      expect((await get(`/declarations/${other.id}`, auth)).status).toBe(404);
    }
  });

  it('has a customs warehouse: Acme stock in every customs status on pallets, cartons and items, shipments in every status, one out under its 4071', async () => {
    // The area is behind cw_access: the demo's staff user has none, so the admin looks.
    expect((await get('/stock', tokens.staff)).status).toBe(403);
    const stock = await all('/stock', tokens.admin);
    const owned = (code: string) => stock.filter((r) => (r.owner as { code: string }).code === code);
    const acme = owned('ACME');
    expect(new Set(acme.map((r) => r.customsStatus))).toEqual(new Set(CUSTOMS_STATUSES));
    expect(owned('GLOBEX').length).toBeGreaterThan(0);
    expect(new Set(acme.map((r) => r.location)).size).toBeGreaterThanOrEqual(4);
    for (const r of acme.filter((x) => isNonUnion(x.customsStatus as CustomsStatus)))
      expect(isValidMrn(r.inboundMrn as string, 'import')).toBe(true);
    const entered = acme.find((r) => r.customsStatus === 'non_union_customs_warehousing') as Row;
    const detail = (await get(`/stock/${entered.id}`, tokens.admin)).body;
    // Received under the H2 entry declaration, whose MRN it carries.
    const entry = (await get(`/declarations/${(detail.entryDeclaration as Row).id}`, tokens.admin)).body;
    expect(entry).toMatchObject({
      type: 'import',
      category: 'H2',
      status: 'released',
      mrn: entered.inboundMrn,
    });
    const units = (
      await sql<{ kind: string; n: number }>`
      select kind, count(*)::int n from handling_units group by kind`.execute(db.db)
    ).rows;
    expect(new Set(units.map((u) => u.kind))).toEqual(new Set(['pallet', 'carton', 'item']));
    const ssccs = (
      await sql<{ sscc: string }>`select sscc from handling_units where kind = 'pallet'`.execute(db.db)
    ).rows;
    expect(ssccs.length).toBeGreaterThanOrEqual(10);
    expect(ssccs.every((u) => isValidSscc(u.sscc) && u.sscc.slice(1, 8) === '8712345')).toBe(true);
    const tree = (await get(`/stock/${entered.id}/tree`, tokens.admin)).body;
    expect((tree.units as Row[]).length).toBeGreaterThan(0);
    const kinds = (await sql<{ kind: string }>`select distinct kind from stock_movements`.execute(db.db))
      .rows;
    expect(new Set(kinds.map((k) => k.kind))).toEqual(new Set(['receipt', 'transfer', 'adjustment', 'pick']));

    // Every rule of the stock holds on what the demo made.
    expect(Object.values(await warehouseInvariantBreaks(db.db)).every((n) => n === 0)).toBe(true);

    const shipments = await all('/shipments', tokens.admin);
    expect(new Set(shipments.map((x) => x.status))).toEqual(new Set(SHIPMENT_STATUSES));
    const declared = shipments.filter((x) => x.declaration !== null);
    expect(declared).toHaveLength(1);
    const out = (await get(`/shipments/${(declared[0] as Row).id}`, tokens.admin)).body;
    expect(out).toMatchObject({ status: 'shipped', outboundProcedure: '4071', nonUnion: true });
    expect(out.declaration).toMatchObject({ type: 'import', status: 'released' });
    expect(isValidMrn((out.declaration as Row).mrn as string, 'import')).toBe(true);
    // FIFO: a released line's allocations name the records it took, oldest first.
    const released = shipments.find((x) => x.status === 'released') as Row;
    const lines = (await get(`/shipments/${released.id}`, tokens.admin)).body.lines as Row[];
    expect(((lines[0] as Row).allocations as Row[]).length).toBeGreaterThan(0);
    // Pick states as the shipments move (issue 27 item 6): one being picked is part picked.
    const stateOf = async (status: string) => {
      const one = shipments.find((x) => x.status === status) as Row;
      const detail = (await get(`/shipments/${one.id}`, tokens.admin)).body.lines as Row[];
      return new Set(detail.flatMap((l) => (l.allocations as Row[]).map((a) => a.state)));
    };
    expect(await stateOf('released')).toEqual(new Set(['reserved']));
    expect(await stateOf('picking')).toEqual(new Set(['picked', 'reserved']));
    expect(await stateOf('packed')).toEqual(new Set(['picked']));
    expect(await stateOf('cancelled')).toEqual(new Set(['freed']));

    // Acme (with warehouse access) sees its own stock and shipments, one a draft it ordered itself;
    // Globex has no warehouse access.
    const mine = await all('/stock', tokens.acme);
    expect(mine.map((r) => r.id).sort()).toEqual(acme.map((r) => r.id).sort());
    const globexRecord = owned('GLOBEX')[0] as Row;
    expect((await get(`/stock/${globexRecord.id}`, tokens.acme)).status).toBe(404);
    const theirs = await all('/shipments', tokens.acme);
    expect(theirs.length).toBe(shipments.filter((x) => (x.owner as { code: string }).code === 'ACME').length);
    const ordered = await sql<{ n: number }>`
      select count(*)::int n from shipments where status = 'draft' and created_by = (select id from users where email = 'customer@acme.example')`.execute(
      db.db,
    );
    expect(ordered.rows[0]?.n).toBe(1);
    expect((await get('/stock', tokens.globex)).status).toBe(403);
  });

  it('seeds nothing on a second start', async () => {
    const before = (await sql<{ n: number }>`select count(*)::int n from dossiers`.execute(db.db)).rows[0]?.n;
    const again = await seedFirstStart(db.db, {
      company: { store: new LocalDiskStore(path.join(dataDir, 'files')) },
    });
    expect(again).toMatchObject({ users: [], company: null });
    expect((await sql<{ n: number }>`select count(*)::int n from dossiers`.execute(db.db)).rows[0]?.n).toBe(
      before,
    );
  });
});

/** Who may open which list: every other sign-in gets 403. */
const SIGN_INS = ['admin', 'staff', 'acme', 'globex'] as const;
type SignIn = (typeof SIGN_INS)[number];
const LISTS: { path: string; query?: Record<string, string>; who: readonly SignIn[] }[] = [
  { path: '/dossiers', who: SIGN_INS },
  { path: '/transports', who: SIGN_INS },
  { path: '/documents', who: SIGN_INS },
  { path: '/containers', who: SIGN_INS },
  { path: '/parties', who: SIGN_INS },
  { path: '/sales-offers', who: SIGN_INS },
  { path: '/sales-invoices', who: SIGN_INS },
  { path: '/declarations', who: SIGN_INS },
  { path: '/stock', who: ['admin', 'acme'] },
  { path: '/stock-receipts', who: ['admin', 'acme'] },
  { path: '/shipments', who: ['admin', 'acme'] },
  {
    path: '/planning',
    query: { from: plus(new Date(), -7), to: plus(new Date(), 14) },
    who: ['admin', 'staff'],
  },
  { path: '/container-events/unlinked', who: ['admin', 'staff'] },
  { path: '/users', who: ['admin'] },
  { path: '/integration-keys', who: ['admin'] },
];

/** A list's size as its answer gives it: the page's total, or the items of an unpaged list. */
async function sizeOf(pathname: string, auth: { authorization: string }, query: Record<string, string> = {}) {
  const r = await get(pathname, auth, query);
  if (r.status !== 200) return { status: r.status, n: 0 };
  const body = r.body as unknown as Row | Row[];
  const n = Array.isArray(body)
    ? body.length
    : typeof body.total === 'number'
      ? body.total
      : (body.items as Row[]).length;
  return { status: 200, n };
}

describe('every list and every dashboard figure has demo records, for each demo sign-in', () => {
  it.each(SIGN_INS)('%s: each list it may open is not empty; the others answer 403', async (who) => {
    const sizes: Record<string, number | string> = {};
    for (const list of LISTS) {
      const { status, n } = await sizeOf(list.path, tokens[who], list.query);
      sizes[list.path] = status === 200 ? n : status;
    }
    const expected = Object.fromEntries(
      LISTS.map((l) => [l.path, l.who.includes(who) ? expect.any(Number) : 403]),
    );
    expect(sizes).toEqual(expected);
    for (const l of LISTS.filter((x) => x.who.includes(who)))
      expect(sizes[l.path], l.path).toBeGreaterThan(0);
  });

  it.each(SIGN_INS)(
    '%s: every dashboard card it gets shows figures above zero, whatever the weekday and hour',
    async (who) => {
      const index = await get('/dashboard', tokens[who]);
      expect(index.status).toBe(200);
      const cards = index.body.cards as string[];
      expect(cards.length).toBeGreaterThanOrEqual(who === 'staff' || who === 'globex' ? 5 : 7);
      const zero: string[] = [];
      for (const card of cards) {
        const r = await get(`/dashboard/${card}`, tokens[who], { tz: 'UTC' });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        for (const f of r.body.figures as { key: string; value: number | string }[])
          if (Number(f.value) === 0) zero.push(`${card}.${f.key}`);
        // The charts have more than one bar to show where they count by status.
        const bars = (r.body.series as { value: number | string }[]).filter((p) => Number(p.value) !== 0);
        if (['dossiers', 'stock', 'shipments'].includes(card))
          expect(bars.length, card).toBeGreaterThanOrEqual(2);
      }
      expect(zero).toEqual([]);
    },
  );
});

describe('seeding a fresh database', () => {
  const dossierKeys = (d: TestDatabase) =>
    sql<Row>`select number, status, customer_reference, booking_number, master_bl, container_numbers, etd, eta
             from dossiers order by number`.execute(d.db);

  // Four whole seeds: a minute or more when the machine is busy.
  it('gives the same company twice (same clock), and rolls back whole when it fails part-way', {
    timeout: 180_000,
  }, async () => {
    const now = new Date();
    const dir = await mkdtemp(path.join(tmpdir(), 'fvg-demo-'));
    const other = await createTestDatabase();
    const broken = await createTestDatabase();
    try {
      const store = new LocalDiskStore(path.join(dir, 'files'));
      await seedFirstStart(other.db, { company: { store }, now });
      const third = await createTestDatabase();
      try {
        await seedFirstStart(third.db, { company: { store }, now });
        expect((await dossierKeys(third)).rows).toEqual((await dossierKeys(other)).rows);
      } finally {
        await third.drop();
      }

      // A crash mid-seed (here: a store that fails on the 5th file) leaves no user, party or dossier:
      // the next start seeds the whole company.
      let puts = 0;
      const failing = Object.create(store) as LocalDiskStore;
      failing.put = async (...args: Parameters<LocalDiskStore['put']>) => {
        if (++puts === 5) throw new Error('disk full');
        return store.put(...args);
      };
      await expect(seedFirstStart(broken.db, { company: { store: failing }, now })).rejects.toThrow(
        'disk full',
      );
      const left = (
        await sql<{ users: number; parties: number; dossiers: number }>`
          select (select count(*)::int from users) users, (select count(*)::int from parties) parties,
                 (select count(*)::int from dossiers) dossiers`.execute(broken.db)
      ).rows[0];
      expect(left).toEqual({ users: 0, parties: 0, dossiers: 0 });
      const retry = await seedFirstStart(broken.db, { company: { store }, now });
      expect(retry.users.length).toBe(4);
      expect((await dossierKeys(broken)).rows).toEqual((await dossierKeys(other)).rows);
    } finally {
      await other.drop();
      await broken.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('without the company (SEED_DEMO=false is no seed at all; tests use the sign-ins only) adds just the sign-ins', async () => {
    const plain = await createTestDatabase();
    try {
      const r = await seedFirstStart(plain.db);
      expect(r.users.length).toBe(4);
      const counts = (
        await sql<{ parties: number; dossiers: number; events: number }>`
          select (select count(*)::int from parties) parties, (select count(*)::int from dossiers) dossiers,
                 (select count(*)::int from container_events) events`.execute(plain.db)
      ).rows[0];
      expect(counts).toEqual({ parties: 4, dossiers: 0, events: 0 });
    } finally {
      await plain.drop();
    }
  });
});
