import { type RawBuilder, sql } from 'kysely';
import { seedContainerEvents } from '../features/container-events/container-events.repository.ts';
import { seedDocuments } from '../features/documents/seed-documents.ts';
import type { FileStore } from '../features/documents/storage.ts';
import type { Db } from './database.ts';
import { seedDemo } from './seed.ts';

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

  // The ISO 6346 check digit of a 10-character body, in SQL (letters A=10 upwards, skipping 11, 22, 33).
  const checkDigit = (body: ReturnType<typeof sql.raw>) => sql`(select (sum(
      (case when ch ~ '[0-9]' then ch::int else 10 + (ascii(ch) - 65) + (ascii(ch) - 56) / 10 end) * (1::bigint << (pos - 1)::int)
    ) % 11 % 10)::text from unnest(string_to_array(${body}, null)) with ordinality as t(ch, pos))`;

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
               case when i % 10 < 8 then (array['NL','DE','BE','FR','IT','ES','PL','DK'])[1 + i % 10] || lpad((i * 7919 % 1000000000)::text, 9, '0') end,
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
             (array['OFR','THC','DOC','CUS','TRK'])[1 + k % 5], 'Generated charge ' || k,
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
  // VACUUM as well as ANALYZE: the visibility map for index-only scans, and the GIN pending lists flushed.
  for (const t of ['parties', 'dossiers', 'dossier_charges', 'transports'])
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
