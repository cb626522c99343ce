import {
  DECLARATION_TYPES,
  type DeclarationMessageKind,
  type DeclarationStatus,
  type DeclarationType,
  EU_STANDARD_VAT_RATES,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { seedContainerEvents } from '../../features/container-events/container-events.repository.ts';
import { labelled, summaries } from '../../features/declarations/sandbox/messages.ts';
import { SANDBOX_MRN_LETTER } from '../../features/declarations/sandbox/mrn.ts';
import { SANDBOX_RULES } from '../../features/declarations/sandbox/sandbox-rules.ts';
import { seedDocuments } from '../../features/documents/seed-documents.ts';
import type { FileStore } from '../../features/documents/storage.ts';
import { seedDemo } from '../sign-ins.ts';

/**
 * The ISO 6346 check digit of a body, in SQL (letters A=10 upwards, skipping 11, 22, 33; weights 2^0…;
 * mod 11, 10 → 0): a container number's over its 10 characters, an MRN's over its first 17.
 */
const checkDigitSql = (body: ReturnType<typeof sql.raw>) => sql`(select (sum(
      (case when ch ~ '[0-9]' then ch::int else 10 + (ascii(ch) - 65) + (ascii(ch) - 56) / 10 end) * (1::bigint << (pos - 1)::int)
    ) % 11 % 10)::text from unnest(string_to_array(${body}, null)) with ordinality as t(ch, pos))`;

export interface ScaleOptions {
  dossiers: number;
  /** Parties per dossier (default 1 per 100). */
  partiesPerDossier?: number;
  /** Charge lines per dossier (default 2). */
  chargesPerDossier?: number;
  /** Transport legs per new dossier (default 2). */
  transportsPerDossier?: number;
  log?: (line: string) => void;
}

export interface ScaleReport {
  table: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

/**
 * Realistic volume, generated inside PostgreSQL (INSERT … SELECT over generate_series, in batches):
 * parties, dossiers with valid ISO 6346 container numbers, UN/LOCODEs, Incoterms by mode, references,
 * and charge lines with totals. Adds to what is there; numbers continue each year's series.
 */
export async function seedScale(db: Db, opts: ScaleOptions): Promise<ScaleReport[]> {
  const log = opts.log ?? (() => {});
  const reports: ScaleReport[] = [];
  await seedDemo(db);
  const timed = async (table: string, rows: number, work: () => Promise<void>) => {
    const t0 = performance.now();
    await work();
    const seconds = (performance.now() - t0) / 1000;
    const r = { table, rows, seconds, rowsPerSecond: Math.round(rows / seconds) };
    reports.push(r);
    log(
      `${table}: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${r.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
    );
  };

  const checkDigit = checkDigitSql;

  const parties = Math.max(20, Math.round(opts.dossiers * (opts.partiesPerDossier ?? 0.01)));
  const partyBatch = 50_000;
  await timed('parties', parties, async () => {
    for (let from = 0; from < parties; from += partyBatch) {
      const to = Math.min(parties, from + partyBatch);
      await sql`
        insert into parties (code, name, kinds, country_code, vat_number, eori, city, street, postal_code)
        select 'P' || lpad(i::text, 7, '0') || '-' || substr(md5(random()::text), 1, 4),
               (array['Nordic','Atlas','Blue','Delta','Orient','Pacific','Rhine','Baltic','Iberia','Alpine'])[1 + i % 10] || ' ' ||
               (array['Trading','Logistics','Foods','Motors','Textiles','Chemicals','Electronics','Furniture'])[1 + (i / 10) % 8] || ' ' ||
               (array['B.V.','GmbH','S.A.','Ltd','S.p.A.','A/S','N.V.','Sp. z o.o.'])[1 + (i / 80) % 8] || ' ' || i,
               case when i % 7 = 0 then array['carrier'] when i % 5 = 0 then array['consignee','notify'] else array['customer','consignor'] end,
               (array['NL','DE','BE','FR','IT','ES','PL','DK','CN','US'])[1 + i % 10],
               -- VAT numbers whose check digits hold (issue 23): five per country, in the countries' order.
               case when i % 10 < 8 then (array['NL100079192B01','NL100158389B01','NL100237575B01','NL100316761B01','NL100395958B01','DE200079194','DE200158388','DE200237570','DE200316761','DE200395951','BE0400079171','BE0400158355','BE0400237539','BE0400316723','BE0400395907','FR82300079191','FR08300158383','FR31300237575','FR54300316767','FR53300395951','IT10000079193','IT10000158385','IT10000237577','IT10000316769','IT10000395953','ESB10079192','ESB10158384','ESB10237576','ESB10316768','ESB10395952','PL5000079197','PL5000158382','PL5000237578','PL5000316763','PL5000395952','DK10007919','DK10015838','DK10023757','DK10031676','DK10039595'])[1 + (i % 10) * 5 + (i / 10) % 5] end,
               case when i % 10 < 8 then (array['NL','DE','BE','FR','IT','ES','PL','DK'])[1 + i % 10] || lpad(i::text, 10, '0') end,
               (array['Rotterdam','Hamburg','Antwerpen','Le Havre','Genova','Valencia','Gdansk','Aarhus','Shanghai','New York'])[1 + i % 10],
               'Street ' || (i % 300 + 1), lpad((i % 9999)::text, 4, '0')
        from generate_series(${from}::int, ${to - 1}::int) i`.execute(db);
    }
  });

  const staff = (
    await db.selectFrom('users').select('id').where('role', 'in', ['admin', 'staff']).execute()
  ).map((u) => u.id);
  // Ids passed as arrays: every generated row picks from them by index, no lookups.
  const partyIds = (await db.selectFrom('parties').select('id').orderBy('id').execute()).map((p) => p.id);
  const partyCount = partyIds.length;
  const staffCount = staff.length;

  const year = new Date().getUTCFullYear();
  const start = Number(
    (
      await sql<{
        v: number;
      }>`select coalesce(max(last_value), 0)::int as v from number_series where series = 'dossier' and year = ${year}`.execute(
        db,
      )
    ).rows[0]?.v,
  );
  const batch = 50_000;
  await timed('dossiers', opts.dossiers, async () => {
    for (let from = 0; from < opts.dossiers; from += batch) {
      const to = Math.min(opts.dossiers, from + batch);
      await sql`
        with g as (
          select i, ${start} + i + 1 as seq,
                 (array['import','export','transit','warehouse','domestic','crosstrade'])[1 + i % 6] as type,
                 (array['sea','sea','sea','air','road','rail','multimodal'])[1 + (i / 6) % 7] as mode,
                 (array['requested','booked','booked','in_transit','in_transit','arrived','cleared','delivered','closed','closed','cancelled'])[1 + (i * 7) % 11] as status,
                 date '2024-01-01' + ((i * 37) % 1095) as etd
          from generate_series(${from}::int, ${to - 1}::int) i
        ), c as (
          select g.*, (select array_agg(n || ${checkDigit(sql.raw('n'))}) from (
                   select (array['MSKU','CSQU','TEXU','APZU','CMAU','GESU','MSCU','HLXU'])[1 + (g.i + k) % 8] || lpad(((g.i * 13 + k * 7919) % 1000000)::text, 6, '0') as n
                   from generate_series(1, case when g.mode in ('sea','rail','multimodal') then 1 + g.i % 3 else 0 end) k) x) as cnums
          from g
        )
        insert into dossiers (number, status, type, mode, customer_id, consignor_id, consignee_id, incoterm, origin_locode, destination_locode,
                              etd, eta, atd, ata, customer_reference, booking_number, master_bl, house_bl, cargo_description, packages,
                              package_type, gross_weight_kg, volume_m3, handler_id, containers, container_numbers,
                              created_at, updated_at, created_by, updated_by)
        select 'D-' || ${year} || '-' || case when seq < 1000000 then lpad(seq::text, 6, '0') else seq::text end, status, type, mode,
               (${partyIds}::uuid[])[1 + (i * 31) % ${partyCount}],
               (${partyIds}::uuid[])[1 + (i * 17) % ${partyCount}],
               (${partyIds}::uuid[])[1 + (i * 53) % ${partyCount}],
               case when mode = 'sea' then (array['FOB','CIF','CFR','EXW','FCA','DAP','DDP'])[1 + i % 7] else (array['EXW','FCA','CPT','CIP','DAP','DPU','DDP'])[1 + i % 7] end,
               (array['NLRTM','DEHAM','BEANR','CNSHA','USNYC','SGSIN','FRLEH','ITGOA','ESVLC','PLGDN'])[1 + i % 10],
               (array['CNSHA','USNYC','NLRTM','DEHAM','BRSSZ','JPTYO','AEJEA','ZADUR','INNSA','AUSYD'])[1 + (i / 10) % 10],
               etd, etd + (7 + i % 35),
               case when status in ('in_transit','arrived','cleared','delivered','closed') then etd + i % 2 end,
               case when status in ('arrived','cleared','delivered','closed') then etd + (8 + i % 35) end,
               'PO-' || (100000 + i), 'BKG' || lpad(i::text, 9, '0'),
               case when mode in ('sea','multimodal') then 'MBL' || lpad(i::text, 10, '0') when mode = 'air' then '020-' || lpad((i % 100000000)::text, 8, '0') end,
               case when i % 3 = 0 then 'HBL' || lpad(i::text, 10, '0') end,
               (array['Machine parts','Frozen fish','Bicycles','Electronics','Textiles','Furniture','Wine','Chemicals (non-DG)'])[1 + i % 8],
               1 + i % 400, (array['PLT','CTN','PKG','CRT'])[1 + i % 4], (100 + (i * 37) % 24000)::numeric, round(((1 + i % 60) * 1.125)::numeric, 3),
               (${staff}::uuid[])[1 + i % ${staffCount}],
               coalesce((select jsonb_agg(jsonb_build_object('number', n, 'sizeType', '45G1', 'seals', jsonb_build_array('SL' || i))) from unnest(cnums) n), '[]'::jsonb),
               coalesce(cnums, '{}'),
               now() - make_interval(mins => (${opts.dossiers} - i) % 1000000), now() - make_interval(mins => (i * 13) % 500000),
               (${staff}::uuid[])[1 + i % ${staffCount}], (${staff}::uuid[])[1 + i % ${staffCount}]
        from c`.execute(db);
      log(`  dossiers ${to.toLocaleString('en-US')} / ${opts.dossiers.toLocaleString('en-US')}`);
    }
    await sql`
      insert into number_series (series, year, last_value) values ('dossier', ${year}, ${start + opts.dossiers})
      on conflict (series, year) do update set last_value = excluded.last_value`.execute(db);
  });

  const perDossier = opts.chargesPerDossier ?? 2;
  await timed('dossier_charges', opts.dossiers * perDossier, async () => {
    await sql`
      insert into dossier_charges (dossier_id, position, kind, charge_code, description, amount, currency, exchange_rate, base_amount)
      select d.id, k, case when k % 2 = 0 then 'revenue' else 'cost' end,
             (array['FREIGHT','THC','DOCUMENTATION','CUSTOMS','FREIGHT'])[1 + k % 5], 'Generated charge ' || k,
             a.amount, a.currency, a.rate, round(a.amount * a.rate, 2)
      from dossiers d
      cross join generate_series(0, ${perDossier - 1}::int) k
      cross join lateral (select (50 + (abs(hashtext(d.number)) % 500000) / 100.0 + k * 100)::numeric(16,2) as amount,
                                 case when k % 3 = 2 then 'USD' else 'EUR' end as currency,
                                 case when k % 3 = 2 then 0.921234 else 1 end::numeric(18,6) as rate) a
      where d.number like ${`D-${year}-%`} and substr(d.number, 8)::int > ${start}`.execute(db);
    await sql`
      update dossiers d set cost_total = t.cost, revenue_total = t.revenue
      from (select dossier_id, coalesce(sum(base_amount) filter (where kind = 'cost'), 0) as cost,
                   coalesce(sum(base_amount) filter (where kind = 'revenue'), 0) as revenue
            from dossier_charges group by dossier_id) t
      where t.dossier_id = d.id and d.number like ${`D-${year}-%`} and substr(d.number, 8)::int > ${start}`.execute(
      db,
    );
  });
  const legs = opts.transportsPerDossier ?? 2;
  if (legs > 0) {
    await timed('transports', opts.dossiers * legs, () =>
      seedTransports(db, legs, sql`d.number like ${`D-${year}-%`} and substr(d.number, 8)::int > ${start}`),
    );
  }
  const thisRun = sql`d.number like ${`D-${year}-%`} and substr(d.number, 8)::int > ${start}`;
  reports.push(...(await seedSales(db, thisRun, log)));
  reports.push(...(await seedDeclarationsTimed(db, thisRun, log)));
  // VACUUM as well as ANALYZE: the visibility map for index-only scans, and the GIN pending lists flushed.
  for (const t of [
    'parties',
    'dossiers',
    'dossier_charges',
    'transports',
    ...SALES_TABLES,
    ...DECLARATION_TABLES,
  ])
    await sql.raw(`vacuum (analyze) ${t}`).execute(db);
  return reports;
}

/**
 * Road legs for the dossiers matching `where` (each with an ETD), generated in SQL: pickup around the
 * ETD, delivery the same day, a fleet of 400 trucks (so the planning list has overlaps to flag) and
 * one leg in ten without a carrier.
 */
export async function seedTransports(db: Db, legs: number, where: RawBuilder<unknown>): Promise<void> {
  const carriers = (
    await db
      .selectFrom('parties')
      .select('id')
      .where(sql<boolean>`'carrier' = any(kinds)`)
      .orderBy('id')
      .execute()
  ).map((p) => p.id);
  await sql`
    insert into transports (dossier_id, sequence, status, mode, carrier_id, truck_plate, pickup_locode, pickup_from, pickup_to,
                            delivery_locode, delivery_from, delivery_to, driver_name, containers, created_by, updated_by)
    select d.id, k, case when d.status in ('requested','booked') then 'planned' when d.status = 'cancelled' then 'cancelled'
                         when d.status = 'in_transit' then 'in_transit' else 'delivered' end,
           'road',
           case when (abs(hashtext(d.number)) + k) % 10 = 0 then null
                else (${carriers}::uuid[])[1 + (abs(hashtext(d.number)) + k) % ${Math.max(1, carriers.length)}] end,
           'NL-' || lpad(((abs(hashtext(d.number)) + k) % 400)::text, 3, '0') || '-T',
           d.origin_locode, p.at, p.at + interval '2 hours',
           d.destination_locode, p.at + interval '6 hours', p.at + interval '8 hours',
           (array['Piet','Anna','Jan','Eva','Lukas','Marta'])[1 + (abs(hashtext(d.number)) + k) % 6],
           d.container_numbers[1:1], d.created_by, d.created_by
    from dossiers d
    cross join generate_series(1, ${legs}::int) k
    cross join lateral (select (d.etd::timestamp + make_interval(hours => 6 + (abs(hashtext(d.number)) + k * 5) % 12)
                                - interval '1 day' * (${legs}::int - k)) at time zone 'UTC' as at) p
    where d.etd is not null and ${where}`.execute(db);
}

export interface OperationsScaleOptions {
  /** Equipment events per container of every dossier (default 4: 5.7 M events at 1 M dossiers). */
  eventsPerContainer?: number;
  /** Documents per dossier (default 1). */
  documentsPerDossier?: number;
  /** `none` (default at volume): rows with the size and hash of a small PDF, no file; `each`: a file per row. */
  documentFiles?: 'each' | 'none';
  log?: (line: string) => void;
}

/**
 * Container events and documents for the dossiers that have none yet: running the volume seed twice
 * does not double them, and on a database with the demo company (whose dossiers have their own
 * events and papers) the generated dossiers still get theirs.
 */
export async function seedOperations(
  db: Db,
  store: FileStore,
  opts: OperationsScaleOptions = {},
): Promise<ScaleReport[]> {
  const log = opts.log ?? (() => {});
  const reports: ScaleReport[] = [];
  // Whether some dossier (with containers, for events) has no row in the table yet.
  const lacking = async (table: 'container_events' | 'documents') =>
    (
      await sql<{ some: boolean }>`select exists (select 1 from dossiers d
        where ${table === 'container_events' ? sql`cardinality(d.container_numbers) > 0 and` : sql``}
          not exists (select 1 from ${sql.table(table)} x where x.dossier_id = d.id)) as some`.execute(db)
    ).rows[0]?.some === true;
  const report = (table: string, rows: number, seconds: number) => {
    const r = { table, rows, seconds, rowsPerSecond: Math.round(rows / seconds) };
    reports.push(r);
    log(
      `${table}: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${r.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
    );
  };
  const perContainer = opts.eventsPerContainer ?? 4;
  if (perContainer > 0 && (await lacking('container_events'))) {
    const r = await seedContainerEvents(db, {
      eventsPerDossierContainer: perContainer,
      onlyDossiersWithoutEvents: true,
      log,
    });
    report('container_events', r.events, r.seconds);
  }
  const perDossier = opts.documentsPerDossier ?? 1;
  if (perDossier > 0 && (await lacking('documents'))) {
    const r = await seedDocuments(db, store, {
      perDossier,
      onlyDossiersWithoutDocuments: true,
      files: opts.documentFiles ?? 'none',
      batchDossiers: 5000,
      log: (line) => {
        // One line per 100 000 rows, not per batch.
        const rows = Number(line.match(/([\d,]+) rows/)?.[1]?.replaceAll(',', ''));
        if (rows % 100_000 < 5000 * perDossier) log(`  ${line}`);
      },
    });
    await sql`vacuum (analyze) documents`.execute(db);
    report('documents', r.rows, r.seconds);
  }
  return reports;
}

/** The tables seedSales fills, to VACUUM (ANALYZE) after it. */
export const SALES_TABLES = [
  'sales_offers',
  'sales_offer_lines',
  'sales_invoices',
  'sales_invoice_lines',
  'sales_invoice_payments',
] as const;

/**
 * Offers and invoices for the dossiers matching `where` (a condition on `d`), timed per table as
 * the other steps are.
 */
export async function seedSales(
  db: Db,
  where: RawBuilder<unknown>,
  log: (line: string) => void = () => {},
): Promise<ScaleReport[]> {
  const reports: ScaleReport[] = [];
  const report = (table: string, rows: number, seconds: number) => {
    const r = { table, rows, seconds, rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)) };
    reports.push(r);
    log(
      `${table}: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${r.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
    );
  };
  let t0 = performance.now();
  const offers = await seedOffers(db, where);
  const offerSeconds = (performance.now() - t0) / 1000;
  // One statement writes offers and lines: the time is split by rows.
  const offerRows = Math.max(1, offers.offers + offers.offerLines);
  report('sales_offers', offers.offers, (offerSeconds * offers.offers) / offerRows);
  report('sales_offer_lines', offers.offerLines, (offerSeconds * offers.offerLines) / offerRows);
  t0 = performance.now();
  const invoices = await seedInvoices(db, where);
  const invoiceSeconds = (performance.now() - t0) / 1000;
  const invoiceRows = Math.max(1, invoices.invoices + invoices.lines + invoices.payments);
  report('sales_invoices', invoices.invoices, (invoiceSeconds * invoices.invoices) / invoiceRows);
  report('sales_invoice_lines', invoices.lines, (invoiceSeconds * invoices.lines) / invoiceRows);
  report('sales_invoice_payments', invoices.payments, (invoiceSeconds * invoices.payments) / invoiceRows);
  return reports;
}

/**
 * Issuing needs a complete seller (vat-rules' issueProblems): a volume database whose company settings
 * are still the migration's defaults gets a generated forwarder's. An admin's own data is never touched.
 */
async function completeCompany(db: Db): Promise<void> {
  await sql`
    update company_settings set legal_name = 'Volume Forwarding B.V.', street = 'Waalhaven Oostzijde 1',
           postal_code = '3087 BM', city = 'Rotterdam', vat_number = coalesce(vat_number, 'NL859437218B01'),
           registration_number = coalesce(registration_number, '24000001'),
           iban = coalesce(iban, 'NL91ABNA0417164300'), bic = coalesce(bic, 'ABNANL2A'),
           peppol_scheme = coalesce(peppol_scheme, '0106'), peppol_id = coalesce(peppol_id, '24000001')
    where legal_name = 'Your company' and street is null`.execute(db);
}

export interface InvoicesScaleReport {
  invoices: number;
  lines: number;
  payments: number;
}

/**
 * One invoice per dossier matching `where` (a condition on `d`) that has revenue charges not yet
 * invoiced and no invoice: a line per charge (quantity 1, lump sum, the charge's EUR amount) with the
 * VAT the dossier's type and customer give, totals as invoice-math computes them (VAT per rate group,
 * rounded once). A tenth stay drafts; the rest are issued the way the API issues (a draft first, then
 * numbered: the database refuses lines on an issued invoice), with numbers consecutive per issue year
 * continuing each year's series, seller and buyer frozen, the charges marked invoiced. Half are paid,
 * some partly, the rest open, most of those overdue (and marked as told, so the overdue job has no
 * backlog of generated invoices to announce). All in one transaction: a temporary table carries the
 * plan from one statement to the next.
 */
export async function seedInvoices(db: Db, where: RawBuilder<unknown>): Promise<InvoicesScaleReport> {
  await completeCompany(db);
  const company = (
    await sql<{ country_code: string; base_currency: string; payment_terms_days: number; seller: unknown }>`
      select country_code, base_currency, payment_terms_days,
             jsonb_build_object('name', legal_name, 'street', street, 'postalCode', postal_code, 'city', city,
               'countryCode', country_code, 'vatNumber', vat_number, 'registrationNumber', registration_number,
               'peppolScheme', peppol_scheme, 'peppolId', peppol_id, 'email', email, 'iban', iban, 'bic', bic,
               'footer', invoice_footer) as seller
      from company_settings limit 1`.execute(db)
  ).rows[0];
  const prefix = (
    await sql<{ prefix: string }>`select prefix from document_series where kind = 'invoice'`.execute(db)
  ).rows[0]?.prefix;
  if (!company || prefix === undefined) throw new Error('company settings and the invoice series must exist');
  const terms = company.payment_terms_days;
  // 20 buckets: 2 drafts, 10 paid, 3 partly paid, 5 open.
  const targets = [
    'draft',
    'draft',
    ...Array(10).fill('paid'),
    ...Array(3).fill('partially_paid'),
    ...Array(5).fill('issued'),
  ];
  return db.transaction().execute(async (trx) => {
    // The plan, with each invoice's id fixed up front: every later statement joins it by index, never
    // one CTE to another (whose row estimates make the planner loop over both).
    await sql`
      create temporary table seed_invoices on commit drop as
      select gen_random_uuid() as id, s.id as dossier_id, s.customer_id, s.type, s.etd, s.created_by,
             s.customer_reference, s.rn, (${targets}::text[])[1 + s.rn % 20] as target,
             least(coalesce(s.etd, s.created_at::date) + 3 + (s.rn % 10)::int, current_date - (s.rn % 20)::int) as issue_on
      from (select d.*, row_number() over (order by d.created_at, d.id) as rn
            from dossiers d
            where ${where}
              and exists (select 1 from dossier_charges c where c.dossier_id = d.id and c.kind = 'revenue' and c.invoiced_line_id is null)
              and not exists (select 1 from sales_invoices i where i.dossier_id = d.id)) s`.execute(trx);
    await sql`alter table seed_invoices add primary key (id)`.execute(trx);
    await sql`create unique index on seed_invoices (dossier_id)`.execute(trx);
    await sql`analyze seed_invoices`.execute(trx);
    await sql`
      create temporary table seed_invoice_lines on commit drop as
      select d.id as invoice_id, c.id as charge_id, row_number() over (partition by d.id order by c.position)::int as position,
             c.charge_code, c.description, c.base_amount as price,
             v.code, v.rate, v.reason
      from seed_invoices d
      join parties p on p.id = d.customer_id
      join dossier_charges c on c.dossier_id = d.dossier_id and c.kind = 'revenue' and c.invoiced_line_id is null
      ${vatOfDossier(company.country_code)}`.execute(trx);
    await sql`analyze seed_invoice_lines`.execute(trx);

    const made = await sql`
      insert into sales_invoices (id, kind, status, customer_id, dossier_id, currency, issue_date, supply_date, due_date,
                                  payment_terms_days, buyer_reference, seller, buyer, line_extension_amount, vat_total,
                                  tax_inclusive_amount, vat_total_base, created_at, created_by, updated_at, updated_by)
      select d.id, 'invoice', 'draft', d.customer_id, d.dossier_id, ${company.base_currency},
             case when d.target <> 'draft' then d.issue_on end,
             case when d.target <> 'draft' then least(coalesce(d.etd, d.issue_on), d.issue_on) end,
             case when d.target <> 'draft' then d.issue_on + ${terms}::int end,
             ${terms}::int, d.customer_reference,
             case when d.target <> 'draft' then ${JSON.stringify(company.seller)}::jsonb end,
             case when d.target <> 'draft' then jsonb_build_object('name', p.name, 'street', p.street,
               'postalCode', p.postal_code, 'city', p.city, 'countryCode', p.country_code, 'vatNumber', p.vat_number,
               'registrationNumber', null, 'peppolScheme', null, 'peppolId', null, 'email', p.email) end,
             t.net, t.vat, t.net + t.vat, t.vat,
             (d.issue_on - 1) + time '09:00', d.created_by, (d.issue_on - 1) + time '09:00', d.created_by
      from seed_invoices d
      join parties p on p.id = d.customer_id
      join (
        -- BR-CO-17: each (code, rate) group's VAT from the group's net, rounded once; totals are sums.
        select invoice_id, sum(taxable) as net, sum(vat) as vat
        from (select invoice_id, sum(price) as taxable, round(sum(price) * coalesce(rate, 0) / 100, 2) as vat
              from seed_invoice_lines group by invoice_id, code, rate) g
        group by invoice_id) t on t.invoice_id = d.id`.execute(trx);
    const lines = await sql`
      insert into sales_invoice_lines (invoice_id, position, charge_id, charge_code, description, quantity, unit,
                                       unit_price, vat_code, vat_rate, exemption_reason, line_net)
      select invoice_id, position, charge_id, charge_code, description, 1, 'LS', price, code, rate, reason, price
      from seed_invoice_lines`.execute(trx);

    // Issue: numbers in issue-date order per year, from each year's next number (as takeSeriesNumber).
    await sql`
      with numbered as (
        select s.id, s.target, i.issue_date, i.due_date, i.tax_inclusive_amount, y.yr,
               coalesce(sy.next_number, 1) - 1 + row_number() over (partition by y.yr order by i.issue_date, i.id) as n
        from seed_invoices s
        join sales_invoices i on i.id = s.id
        cross join lateral (select extract(year from i.issue_date)::int as yr) y
        left join document_series_years sy on sy.kind = 'invoice' and sy.year = y.yr
        where s.target <> 'draft'
      ), issued as (
        update sales_invoices i
        set number = ${seriesNumber(prefix, sql`n.yr`, sql`n.n`)}, status = n.target,
            paid_amount = case n.target when 'paid' then n.tax_inclusive_amount
                                        when 'partially_paid' then round(n.tax_inclusive_amount * 0.4, 2) else 0 end,
            overdue_notified_at = case when n.target <> 'paid' and n.due_date < current_date then n.due_date + time '08:00' end,
            issued_at = n.issue_date + time '10:00', issued_by = i.created_by, version = 2,
            updated_at = n.issue_date + time '10:00'
        from numbered n where i.id = n.id
        returning 1
      )
      insert into document_series_years (kind, year, next_number, last_issued)
      select 'invoice', yr, max(n) + 1, max(n) from numbered group by yr
      on conflict (kind, year) do update set next_number = excluded.next_number, last_issued = excluded.last_issued`.execute(
      trx,
    );
    const paid = await sql`
      insert into sales_invoice_payments (invoice_id, paid_on, amount, reference, created_at, created_by)
      select i.id, p.paid_on, i.paid_amount, 'Bank transfer ' || i.number, p.paid_on + time '12:00', i.created_by
      from seed_invoices s join sales_invoices i on i.id = s.id
      cross join lateral (select least(i.issue_date + (s.rn % 25)::int, current_date) as paid_on) p
      where s.target in ('paid', 'partially_paid')`.execute(trx);
    await sql`
      update dossier_charges ch set invoiced_line_id = l.id
      from seed_invoices s join sales_invoice_lines l on l.invoice_id = s.id
      where s.target <> 'draft' and l.charge_id = ch.id`.execute(trx);
    return {
      invoices: Number(made.numAffectedRows ?? 0),
      lines: Number(lines.numAffectedRows ?? 0),
      payments: Number(paid.numAffectedRows ?? 0),
    };
  });
}

export interface SalesScaleReport {
  offers: number;
  offerLines: number;
}

/**
 * The VAT a generated line gets, as `defaultVat` (contracts/vat-rules.ts) decides it, in SQL over a
 * dossier `d` and its customer `p`: `v.code`, `v.rate`, `v.reason`.
 */
function vatOfDossier(sellerCountry: string): RawBuilder<unknown> {
  const eu = Object.keys(EU_STANDARD_VAT_RATES);
  const rate = EU_STANDARD_VAT_RATES[sellerCountry] ?? '21';
  return sql`cross join lateral (
      select case when d.type in ('export', 'import') then 'E'
                  when p.country_code is not null and not (p.country_code = any(${eu}::text[])) then 'O'
                  when p.country_code <> ${sellerCountry} and nullif(btrim(p.vat_number), '') is not null then 'AE'
                  else 'S' end as code) vc
    cross join lateral (
      select vc.code,
             case vc.code when 'S' then ${rate}::numeric when 'O' then null else 0 end as rate,
             case when d.type = 'export' then 'VATEX-EU-146-1E' when d.type = 'import' then 'VATEX-EU-144'
                  when vc.code = 'AE' then 'VATEX-EU-AE' when vc.code = 'O' then 'VATEX-EU-O' end as reason) v`;
}

/** `prefix || year || '-' || 000042`, as formatSeriesNumber writes it (more digits past 999 999). */
const seriesNumber = (prefix: string, year: RawBuilder<unknown>, n: RawBuilder<unknown>) =>
  sql`${prefix} || ${year} || '-' || case when ${n} < 1000000 then lpad(${n}::text, 6, '0') else ${n}::text end`;

/**
 * Sales offers for the dossiers matching `where` (a condition on `d`), one per 4 of them, in every
 * status; the accepted half is linked to its dossier. Each offer quotes the dossier's revenue charges
 * (quantity 1, lump sum) with the VAT the dossier's type and customer give. Numbers continue each
 * creation year's `offer` series from its next number, which is moved past them, as
 * takeSeriesNumber would have done one by one.
 */
export async function seedOffers(db: Db, where: RawBuilder<unknown>): Promise<SalesScaleReport> {
  const company = (
    await sql<{ country_code: string }>`select country_code from company_settings limit 1`.execute(db)
  ).rows[0];
  const prefix = (
    await sql<{ prefix: string }>`select prefix from document_series where kind = 'offer'`.execute(db)
  ).rows[0]?.prefix;
  if (!company || prefix === undefined) throw new Error('company settings and the offer series must exist');
  // 20 buckets: half accepted, the rest spread over every other status.
  const statuses = [
    ...Array(10).fill('accepted'),
    ...['sent', 'sent', 'sent', 'draft', 'draft', 'rejected', 'rejected', 'expired', 'expired', 'cancelled'],
  ];
  return db.transaction().execute(async (trx) => {
    // The plan with ids and numbers fixed up front, so the lines join it by index (see seedInvoices).
    await sql`
      create temporary table seed_offers on commit drop as
      select gen_random_uuid() as id, k.*, ${seriesNumber(prefix, sql`k.y`, sql`k.n`)} as offer_number
      from (select pick.*, coalesce(sy.next_number, 1) - 1 + row_number() over (partition by pick.y order by pick.at, pick.dossier_id) as n
            from (select s.id as dossier_id, s.customer_id, s.type, s.mode, s.incoterm, s.origin_locode, s.destination_locode,
                         s.cargo_description, s.packages, s.package_type, s.gross_weight_kg, s.volume_m3, s.created_by,
                         s.created_at - interval '2 days' as at, extract(year from s.created_at - interval '2 days')::int as y,
                         (${statuses}::text[])[1 + (s.rn / 4) % 20] as offer_status
                  from (select d.*, row_number() over (order by d.created_at, d.id) as rn
                        from dossiers d
                        where ${where}
                          and exists (select 1 from dossier_charges c where c.dossier_id = d.id and c.kind = 'revenue')) s
                  where s.rn % 4 = 0) pick
            left join document_series_years sy on sy.kind = 'offer' and sy.year = pick.y) k`.execute(trx);
    await sql`create index on seed_offers (dossier_id)`.execute(trx);
    await sql`analyze seed_offers`.execute(trx);
    const offers = await sql`
      insert into sales_offers (id, number, status, customer_id, valid_until, origin_locode, destination_locode, mode, incoterm,
                                dossier_type, cargo_description, packages, package_type, gross_weight_kg, volume_m3, dossier_id,
                                sent_at, decided_at, decided_by, created_at, created_by, updated_at, updated_by)
      select id, offer_number, offer_status, customer_id,
             case offer_status when 'expired' then at::date + 14 when 'sent' then greatest(at::date + 30, current_date + 14)
                  else at::date + 30 end,
             origin_locode, destination_locode, mode, incoterm, type, cargo_description, packages, package_type,
             gross_weight_kg, volume_m3, case when offer_status = 'accepted' then dossier_id end,
             case when offer_status <> 'draft' then at + interval '1 hour' end,
             case when offer_status in ('accepted', 'rejected') then at + interval '1 day' end,
             case when offer_status in ('accepted', 'rejected') then created_by end,
             at, created_by, at + interval '1 day', created_by
      from seed_offers`.execute(trx);
    const lines = await sql`
      insert into sales_offer_lines (offer_id, position, charge_code, description, quantity, unit, unit_price, currency,
                                     exchange_rate, vat_code, vat_rate, line_net)
      select d.id, c.position, c.charge_code, c.description, 1, 'LS', c.amount, c.currency,
             c.exchange_rate, v.code, v.rate, c.amount
      from seed_offers d
      join parties p on p.id = d.customer_id
      join dossier_charges c on c.dossier_id = d.dossier_id and c.kind = 'revenue'
      ${vatOfDossier(company.country_code)}`.execute(trx);
    await sql`
      insert into document_series_years (kind, year, next_number, last_issued)
      select 'offer', y, max(n) + 1, max(n) from seed_offers group by y
      on conflict (kind, year) do update set next_number = excluded.next_number, last_issued = excluded.last_issued`.execute(
      trx,
    );
    return { offers: Number(offers.numAffectedRows ?? 0), offerLines: Number(lines.numAffectedRows ?? 0) };
  });
}

/** The tables seedDeclarations fills, to VACUUM (ANALYZE) after it. */
export const DECLARATION_TABLES = ['declarations', 'declaration_items', 'declaration_messages'] as const;

export interface DeclarationsScaleReport {
  declarations: number;
  items: number;
  messages: number;
}

/** The share of each status per type, in 20 buckets: most have gone their way, some are on it. */
const DECLARATION_BUCKETS: Readonly<Record<DeclarationType, DeclarationStatus[]>> = {
  import: [
    ...['draft', 'draft', 'lodged', 'accepted', 'accepted', 'under_control', 'not_released', 'rejected'],
    ...['rejected', 'cancelled', ...Array<DeclarationStatus>(10).fill('released')],
  ] as DeclarationStatus[],
  export: [
    ...['draft', 'draft', 'accepted', 'accepted', 'under_control', 'released', 'released', 'released'],
    ...['rejected', 'rejected', 'cancelled', ...Array<DeclarationStatus>(9).fill('exited')],
  ] as DeclarationStatus[],
  transit: [
    ...['draft', 'draft', 'accepted', 'accepted', 'released', 'released', 'arrived', 'arrived', 'arrived'],
    ...['rejected', 'rejected', ...Array<DeclarationStatus>(9).fill('discharged')],
  ] as DeclarationStatus[],
};

/**
 * The message log up to each status, as the sandbox writes it (ADR 0033): the lodgement, then the
 * authority's answers (or the cancellation request and its answer), minutes after lodging.
 */
const DECLARATION_CHAIN: Readonly<
  Partial<
    Record<
      DeclarationStatus,
      { kind: DeclarationMessageKind; step: string | null; minutes: number; to: DeclarationStatus | null }[]
    >
  >
> = (() => {
  const lodge = { kind: 'lodge', step: null, minutes: 0, to: null } as const;
  const accepted = { kind: 'accepted', step: 'accept', minutes: 3, to: 'accepted' } as const;
  const released = { kind: 'released', step: 'control', minutes: 25, to: 'released' } as const;
  const control = { kind: 'under_control', step: 'control', minutes: 20, to: 'under_control' } as const;
  const arrived = { kind: 'arrived', step: 'arrival', minutes: 30 * 60, to: 'arrived' } as const;
  return {
    lodged: [lodge],
    accepted: [lodge, accepted],
    under_control: [lodge, accepted, control],
    released: [lodge, accepted, released],
    not_released: [
      lodge,
      accepted,
      control,
      { kind: 'not_released', step: 'release', minutes: 26 * 60, to: 'not_released' },
    ],
    rejected: [lodge, { kind: 'rejected', step: 'accept', minutes: 3, to: 'rejected' }],
    cancelled: [
      lodge,
      accepted,
      { kind: 'cancellation_request', step: null, minutes: 120, to: null },
      { kind: 'cancellation_accepted', step: 'answer', minutes: 122, to: 'cancelled' },
    ],
    exited: [
      lodge,
      accepted,
      released,
      { kind: 'exit_confirmed', step: 'exit', minutes: 4 * 24 * 60, to: 'exited' },
    ],
    arrived: [lodge, accepted, released, arrived],
    discharged: [
      lodge,
      accepted,
      released,
      arrived,
      { kind: 'discharged', step: 'discharge', minutes: 33 * 60, to: 'discharged' },
    ],
  };
})();

/** Real-looking goods per type: CN/TARIC code, description, duty rate (import). */
const SCALE_GOODS = [
  ['8539520000', 'LED lamps', '2.7'],
  ['8504403090', 'Chargers for mobile phones', '0'],
  ['9401790000', 'Garden chairs, aluminium frames', '0'],
  ['8714910000', 'Bicycle frames', '4.7'],
  ['8507600090', 'Lithium-ion battery packs', '2.7'],
  ['8413708100', 'Centrifugal pumps', '1.7'],
  ['8443990000', 'Parts of printing machines', '1.7'],
  ['8708999790', 'Parts of motor vehicles', '3'],
  ['6109100010', 'T-shirts of cotton', '12'],
  ['8471300000', 'Laptops', '0'],
  ['0303890000', 'Frozen fish', '15'],
  ['2204210600', 'Wine in bottles', '13.1'],
] as const;

/**
 * One customs declaration per 2 dossiers matching `where` (a condition on `d`) that have none: import
 * for import dossiers, export for export, transit for transit, the others by turns; in every status
 * their type reaches (most released, exited or discharged), with 1–5 items whose duty and VAT are
 * estimated as customs-math does (rounded half away from zero; totals the sum of the items), and the
 * message log up to the status as the sandbox writes it (summaries with its label, the accepted MRN,
 * the rejection rule). LRNs continue each creation year's `declaration` series, MRNs are valid
 * (`makeMrn`'s layout and check character, computed in SQL) with a serial range of their own (`SCL`
 * and a number past the highest one there). Dated 5 days before their dossier (distinct instants, so the keyset
 * order has no long runs of ties; the longest chain, 4 days, still ends in the past).
 */
export async function seedDeclarations(db: Db, where: RawBuilder<unknown>): Promise<DeclarationsScaleReport> {
  const company = (
    await sql<{ party: unknown }>`
      select jsonb_build_object('partyId', null, 'name', legal_name, 'street', street, 'postalCode', postal_code,
               'city', city, 'countryCode', country_code, 'eori', coalesce(eori, 'NL859437215')) as party
      from company_settings limit 1`.execute(db)
  ).rows[0];
  const prefix = (
    await sql<{ prefix: string }>`select prefix from document_series where kind = 'declaration'`.execute(db)
  ).rows[0]?.prefix;
  if (!company || prefix === undefined)
    throw new Error('company settings and the declaration series must exist');
  const buckets = DECLARATION_TYPES.map((t) => sql`(${t}, ${DECLARATION_BUCKETS[t]}::text[])`);
  const chain = Object.entries(DECLARATION_CHAIN).flatMap(([status, steps]) =>
    (steps ?? []).map(
      (c, seq) =>
        sql`(${status}, ${seq + 1}::int, ${c.kind}, ${c.kind === 'lodge' || c.kind.endsWith('_request') ? 'sent' : 'received'},
             ${c.step}::text, ${c.minutes}::int, ${c.to}::text)`,
    ),
  );
  // Summaries from the sandbox's own sentences, the variable parts filled in SQL.
  const summary = (kind: DeclarationMessageKind): RawBuilder<string> => {
    const text = (s: string) => sql<string>`${labelled(s)}`;
    switch (kind) {
      case 'lodge':
        return sql<string>`replace(case s.type ${sql.join(
          DECLARATION_TYPES.map((t) => sql`when ${t} then ${text(summaries.lodge(t, '{LRN}'))}`),
          sql` `,
        )} end, '{LRN}', s.lrn)`;
      case 'accepted':
        return sql<string>`replace(${text(summaries.accepted('{MRN}'))}, '{MRN}', s.mrn)`;
      case 'rejected':
        return text(summaries.rejected([SCALE_REJECTION]));
      case 'arrived':
        return text(summaries.arrived(null));
      case 'cancellation_request':
        return sql<string>`replace(${text(summaries.cancellationRequest('{REF}', 'Shipment cancelled by the customer'))}, '{REF}', coalesce(s.mrn, s.lrn))`;
      default:
        return text((summaries[kind as 'released'] as () => string)());
    }
  };
  const kinds = [...new Set(Object.values(DECLARATION_CHAIN).flatMap((c) => (c ?? []).map((x) => x.kind)))];
  const goods = SCALE_GOODS.map(([code, text, rate]) => sql`(${code}, ${text}, ${rate}::numeric)`);

  return db.transaction().execute(async (trx) => {
    const serialFrom = Number(
      (
        await sql<{ n: string }>`
          select coalesce(max(substr(mrn, 8, 9)::bigint), 0)::text n from declarations where substr(mrn, 5, 3) = 'SCL'`.execute(
          trx,
        )
      ).rows[0]?.n,
    );
    // The plan, with ids, numbers and times fixed up front (joined by index later, see seedInvoices).
    await sql`
      create temporary table seed_declarations on commit drop as
      with pick as (
        select s.id as dossier_id, s.customer_id, s.rn, s.created_by,
               case when s.type in ('import', 'export', 'transit') then s.type
                    else (array['import', 'export', 'transit'])[1 + (s.rn / 2) % 3] end as type,
               s.created_at - interval '5 days' + interval '2 hours' as created_at
        from (select d.*, row_number() over (order by d.created_at, d.id) as rn
              from dossiers d
              where ${where} and not exists (select 1 from declarations x where x.dossier_id = d.id)) s
        where s.rn % 2 = 0
      ), typed as (
        select p.*, b.statuses[1 + (p.rn / 2) % 20] as status, extract(year from p.created_at)::int as y
        from pick p join (values ${sql.join(buckets)}) as b(type, statuses) on b.type = p.type
      ), numbered as (
        select t.*, coalesce(sy.next_number, 1) - 1 + row_number() over (partition by t.y order by t.created_at, t.dossier_id) as n,
               row_number() over (order by t.created_at, t.dossier_id) as k
        from typed t left join document_series_years sy on sy.kind = 'declaration' and sy.year = t.y
      )
      select gen_random_uuid() as id, gen_random_uuid() as lodge_id, n.*,
             ${seriesNumber(prefix, sql`n.y`, sql`n.n`)} as lrn,
             case n.type when 'export' then 'DE004851' else 'NL000396' end as office,
             case when n.status = 'draft' then null else n.created_at + interval '1 hour' end as lodged_at,
             1 + abs(hashtext(n.dossier_id::text)) % 5 as item_count
      from numbered n`.execute(trx);
    await sql`alter table seed_declarations add primary key (id)`.execute(trx);
    await sql`alter table seed_declarations add column mrn text`.execute(trx);
    // MRN: year, the office's country, SCL + 9 digits, the type's letter, the ISO 6346 check character.
    await sql`
      update seed_declarations s set mrn = m.first17 || ${checkDigitSql(sql.raw('m.first17'))}
      from (select id, to_char(lodged_at, 'YY') || left(office, 2) || 'SCL' || lpad((${serialFrom}::bigint + k)::text, 9, '0')
                       || case type when 'import' then ${SANDBOX_MRN_LETTER.import} when 'export' then ${SANDBOX_MRN_LETTER.export}
                                    else ${SANDBOX_MRN_LETTER.transit} end as first17
            from seed_declarations) m
      where m.id = s.id and s.status not in ('draft', 'lodged', 'rejected')`.execute(trx);
    await sql`
      create temporary table seed_declaration_chain (status text, seq int, kind text, direction text, step text, minutes int, to_status text)
      on commit drop`.execute(trx);
    await sql`insert into seed_declaration_chain values ${sql.join(chain)}`.execute(trx);
    await sql`analyze seed_declarations`.execute(trx);

    const made = await sql`
      insert into declarations (id, type, category, status, lrn, mrn, dossier_id, customer_id, declarant, representative,
                                representative_status, consignor, consignee, holder, office_of_lodgement, office_of_exit_entry,
                                office_of_destination, country_of_dispatch, country_of_destination, transport_mode_border,
                                transport_mode_inland, currency, exchange_rate, location_of_goods, guarantee_type,
                                guarantee_reference, guarantee_amount, rejection, last_message_kind, last_message_at, lodged_at,
                                accepted_at, released_at, exited_at, arrived_at, discharged_at, version, created_at, created_by,
                                updated_at, updated_by)
      select s.id, s.type, case s.type when 'import' then 'H1' when 'export' then 'B1' else 'T1' end, s.status, s.lrn, s.mrn,
             s.dossier_id, s.customer_id,
             case when s.type = 'transit' then ${JSON.stringify(company.party)}::jsonb else pj.party end,
             case when s.type <> 'transit' then ${JSON.stringify(company.party)}::jsonb end,
             case when s.type = 'transit' then '1' else '2' end,
             case when s.type = 'import' then jsonb_build_object('partyId', null, 'name', 'Overseas supplier ' || s.rn, 'street', null,
                    'postalCode', null, 'city', 'Shenzhen', 'countryCode', 'CN', 'eori', null) else pj.party end,
             case when s.type = 'import' then pj.party end,
             case when s.type = 'transit' then ${JSON.stringify(company.party)}::jsonb end,
             s.office,
             case s.type when 'transit' then null else s.office end,
             case when s.type = 'transit' then 'CZ590201' end,
             case s.type when 'import' then 'CN' when 'export' then 'DE' else 'NL' end,
             case s.type when 'import' then 'NL' when 'export' then 'US' else 'CZ' end,
             (array['1', '1', '3', '4', '2'])[1 + s.rn % 5], '3',
             case s.type when 'import' then 'USD' when 'export' then 'EUR' end,
             case when s.type = 'import' then 0.925 end,
             case s.type when 'export' then 'DEHAM Container Terminal Burchardkai' else 'NLRTM ECT Delta terminal' end,
             case when s.type = 'transit' then '1' end,
             case when s.type = 'transit' then to_char(s.created_at, 'YY') || 'NL' || lpad(s.rn::text, 13, '0') end,
             case when s.type = 'transit' then 25000 end,
             case when s.status = 'rejected' then ${JSON.stringify([SCALE_REJECTION])}::jsonb else '[]'::jsonb end,
             ch.last_kind, s.lodged_at + make_interval(mins => ch.last_minutes), s.lodged_at,
             s.lodged_at + make_interval(mins => ch.accepted), s.lodged_at + make_interval(mins => ch.released),
             s.lodged_at + make_interval(mins => ch.exited), s.lodged_at + make_interval(mins => ch.arrived),
             s.lodged_at + make_interval(mins => ch.discharged),
             1 + coalesce(ch.writes, 0), s.created_at, s.created_by,
             coalesce(s.lodged_at + make_interval(mins => ch.last_minutes), s.created_at), s.created_by
      from seed_declarations s
      join parties p on p.id = s.customer_id
      cross join lateral (select jsonb_build_object('partyId', p.id, 'name', p.name, 'street', p.street, 'postalCode', p.postal_code,
                                 'city', p.city, 'countryCode', p.country_code, 'eori', p.eori) as party) pj
      left join lateral (
        select (array_agg(c.kind order by c.seq desc))[1] as last_kind, max(c.minutes) as last_minutes,
               max(c.minutes) filter (where c.to_status = 'accepted') as accepted,
               max(c.minutes) filter (where c.to_status = 'released') as released,
               max(c.minutes) filter (where c.to_status = 'exited') as exited,
               max(c.minutes) filter (where c.to_status = 'arrived') as arrived,
               max(c.minutes) filter (where c.to_status = 'discharged') as discharged,
               count(*)::int as writes
        from seed_declaration_chain c where c.status = s.status) ch on true`.execute(trx);

    // Items; the estimate as customs-math computes it: duty = round(value × rate / 100), VAT base =
    // value + duty + costs, VAT = round(base × rate / 100) (numeric round is half away from zero).
    const items = await sql`
      insert into declaration_items (declaration_id, position, commodity_code, description, country_of_origin, preference,
                                     procedure_code, packages, package_kind, marks, gross_mass_kg, net_mass_kg, invoice_value,
                                     customs_value, statistical_value, duty_rate, vat_rate, vat_costs, supporting_documents,
                                     previous_documents, duty, vat_base, vat)
      select s.id, pos, case when s.type = 'transit' then left(gd.code, 8) else gd.code end, gd.text,
             case when s.type = 'import' then 'CN' when s.type = 'export' then 'DE' end,
             case when s.type = 'import' then '100' end,
             case s.type when 'import' then '4000' when 'export' then '1000' end,
             v.packages, 'CT', s.lrn || '/' || pos, v.gross, v.net, v.invoice,
             case when s.type <> 'transit' then v.customs end, case when s.type <> 'transit' then v.customs end,
             case when s.type = 'import' then gd.rate end, case when s.type = 'import' then 21 end,
             case when s.type = 'import' then v.costs end,
             case when s.type <> 'transit' then jsonb_build_array(jsonb_build_object('type', 'N380', 'reference', 'INV-' || s.rn)) else '[]'::jsonb end,
             '[]'::jsonb, e.duty, e.base, round(e.base * 21 / 100, 2)
      from seed_declarations s
      cross join generate_series(1, s.item_count) pos
      cross join lateral (select * from (values ${sql.join(goods)}) as g(code, text, rate)
                          offset (abs(hashtext(s.id::text)) + pos) % ${SCALE_GOODS.length} limit 1) gd
      cross join lateral (
        select 1 + (s.rn * 7 + pos * 13) % 200 as packages,
               (50 + (s.rn * 31 + pos * 17) % 9000)::numeric(14,3) as gross,
               (40 + (s.rn * 31 + pos * 17) % 9000)::numeric(14,3) as net,
               (100 + ((s.rn * 131 + pos * 977) % 5000000) / 100.0)::numeric(16,2) as invoice) v0
      cross join lateral (
        select v0.*, round(v0.invoice * case when s.type = 'import' then 0.925 * 1.045 else 1 end, 2) as customs,
               round(v0.invoice * 0.925 * 1.045 * 0.008, 2) as costs) v
      cross join lateral (
        select case when s.type = 'import' then round(v.customs * gd.rate / 100, 2) end as duty) e0
      cross join lateral (
        select e0.duty, case when s.type = 'import' then v.customs + e0.duty + v.costs end as base) e`.execute(
      trx,
    );
    // The header keeps the items' totals (the list shows them) and the invoice total is their sum.
    await sql`
      update declarations d
      set packages = t.packages, gross_mass_kg = t.gross, customs_value = t.customs,
          invoice_total = case when d.type <> 'transit' then t.invoice end,
          duty = t.duty, vat = t.vat, duty_and_vat = t.duty + t.vat
      from (select i.declaration_id, sum(i.packages)::int as packages, sum(i.gross_mass_kg) as gross,
                   coalesce(sum(i.customs_value), 0) as customs, sum(i.invoice_value) as invoice,
                   sum(i.duty) as duty, sum(i.vat) as vat
            from seed_declarations s join declaration_items i on i.declaration_id = s.id
            group by i.declaration_id) t
      where d.id = t.declaration_id`.execute(trx);

    const messages = await sql`
      insert into declaration_messages (id, declaration_id, direction, kind, at, summary, mrn, rules, payload, sandbox, created_by)
      select case when c.kind = 'lodge' then s.lodge_id else gen_random_uuid() end, s.id, c.direction, c.kind,
             s.lodged_at + make_interval(mins => c.minutes),
             case c.kind ${sql.join(
               kinds.map((k) => sql`when ${k} then ${summary(k)}`),
               sql` `,
             )} end,
             case when c.kind in ('lodge', 'rejected') then null else s.mrn end,
             case when c.kind = 'rejected' then ${JSON.stringify([SCALE_REJECTION])}::jsonb else '[]'::jsonb end,
             case when c.direction = 'received' then jsonb_build_object('inReplyTo', s.lodge_id, 'step', c.step)
                  when c.kind = 'lodge' then jsonb_build_object('lrn', s.lrn, 'type', s.type) end,
             true, case when c.direction = 'sent' then s.created_by end
      from seed_declarations s join seed_declaration_chain c on c.status = s.status`.execute(trx);
    await sql`
      insert into document_series_years (kind, year, next_number, last_issued)
      select 'declaration', y, max(n) + 1, max(n) from seed_declarations group by y
      on conflict (kind, year) do update set next_number = excluded.next_number, last_issued = excluded.last_issued`.execute(
      trx,
    );
    return {
      declarations: Number(made.numAffectedRows ?? 0),
      items: Number(items.numAffectedRows ?? 0),
      messages: Number(messages.numAffectedRows ?? 0),
    };
  });
}

/** seedDeclarations, timed per table as the other steps are (one transaction: the time split by rows). */
export async function seedDeclarationsTimed(
  db: Db,
  where: RawBuilder<unknown>,
  log: (line: string) => void = () => {},
): Promise<ScaleReport[]> {
  const t0 = performance.now();
  const r = await seedDeclarations(db, where);
  const seconds = (performance.now() - t0) / 1000;
  const rows = Math.max(1, r.declarations + r.items + r.messages);
  return (
    [
      ['declarations', r.declarations],
      ['declaration_items', r.items],
      ['declaration_messages', r.messages],
    ] as const
  ).map(([table, n]) => {
    const part = (seconds * n) / rows;
    const report = { table, rows: n, seconds: part, rowsPerSecond: Math.round(n / Math.max(part, 0.001)) };
    log(
      `${table}: ${n.toLocaleString('en-US')} rows in ${part.toFixed(1)} s (${report.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
    );
    return report;
  });
}

/**
 * The rule the generated rejections cite: what only an authority knows (the sandbox's R501, as its rule
 * book words it); every rule decidable before lodging is refused by the API instead (ADR 0047).
 */
const SCALE_REJECTION = {
  code: 'SBX-R501',
  text: SANDBOX_RULES['SBX-R501'],
  field: 'locationOfGoods',
} as const;
