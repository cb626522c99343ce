import { NON_UNION_STATUSES } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { SANDBOX_MRN_LETTER } from '../../features/declarations/sandbox/mrn.ts';

/** The tables seedWarehouse fills, to VACUUM (ANALYZE) after it. */
export const WAREHOUSE_TABLES = [
  'stock_receipts',
  'stock_records',
  'handling_units',
  'stock_movements',
  'shipments',
  'shipment_lines',
  'shipment_allocations',
] as const;

export interface WarehouseScaleOptions {
  /** Stock records (receipt lines), 10 a receipt; each has a pallet with two cartons (3 handling units). */
  stockRecords: number;
  /** Shipments, one line and (once released) one allocation each; at most one per stock record. */
  shipments: number;
  /** Distinct article numbers (default 5 000). */
  skus?: number;
  /** Owners: the first parties that are customers (default 200; ACME first when it exists). */
  owners?: number;
  /** Records per statement (default 100 000). */
  batch?: number;
  log?: (line: string) => void;
}

export interface WarehouseScaleReport {
  table: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

/** The GS1 company prefix the volume data's SSCCs use when the company has none (a plausible NL one). */
export const SCALE_GS1_PREFIX = '8712345';

/** A shipment's status by k % 20 for Union goods: most have gone, some are on their way, a few drafts. */
const UNION_BUCKETS = [
  ...['draft', 'draft', 'released', 'released', 'released', 'picking', 'packed', 'cancelled'],
  ...Array<string>(12).fill('shipped'),
];
/**
 * Non-Union goods leave only with a released outbound declaration (one per shipment, see the demo):
 * the volume data does not ship them, it holds them reserved or in drafts.
 */
const NON_UNION_BUCKETS = ['draft', 'released', 'released', 'picking', 'packed', 'cancelled', 'draft'];

const GOODS = [
  ['8539520000', 'LED lamps, E27, 9 W', '2.40'],
  ['8504403090', 'USB-C chargers, 20 W', '6.10'],
  ['9401790000', 'Garden chairs, aluminium', '34.00'],
  ['8714910000', 'Bicycle frames, aluminium', '88.00'],
  ['8507600090', 'Li-ion battery packs, 36 V', '210.00'],
  ['8413910000', 'Pump impellers', '41.50'],
  ['8443990000', 'Printing machine rollers', '75.00'],
  ['8708301099', 'Brake discs', '18.20'],
  ['6109100010', 'T-shirts of cotton', '3.10'],
  ['8471300000', 'Laptops, 14 inch', '420.00'],
  ['8544429090', 'USB-C cables, 1 m', '1.20'],
  ['2204210600', 'Wine, 0.75 l bottles', '4.80'],
] as const;

/** The GS1 mod-10 check digit of a 17-digit text expression (weights 3,1,3… from the right), in SQL. */
const gs1CheckSql = (body: RawBuilder<unknown>) => sql`(select ((10 - sum(
      substr(${body}, p, 1)::int * case when (17 - p) % 2 = 0 then 3 else 1 end) % 10) % 10)::text
    from generate_series(1, 17) p)`;

/** The ISO 6346-style check character of an MRN's first 17 characters (as seed-scale's declarations). */
const mrnCheckSql = (body: RawBuilder<unknown>) => sql`(select (sum(
      (case when ch ~ '[0-9]' then ch::int else 10 + (ascii(ch) - 65) + (ascii(ch) - 56) / 10 end) * (1::bigint << (pos - 1)::int)
    ) % 11 % 10)::text from unnest(string_to_array(${body}, null)) with ordinality as t(ch, pos))`;

/** `prefix || year || '-' || 000042`, as formatSeriesNumber writes it. */
const seriesNumber = (prefix: string, year: RawBuilder<unknown>, n: RawBuilder<unknown>) =>
  sql`${prefix} || ${year} || '-' || case when ${n} < 1000000 then lpad(${n}::text, 6, '0') else ${n}::text end`;

/**
 * The customs warehouse at volume, generated inside PostgreSQL (INSERT … SELECT, in batches of
 * records, on one connection so the plan tables live across them): receipts of 10 lines each spread
 * over the last two years (a third of them non-Union with a valid inbound MRN), stock records with a
 * pallet (an SSCC from the company prefix and the `sscc_serial` sequence) holding two cartons, a
 * receipt movement each; shipments in every status with one line and, once released, one allocation
 * of the record's pallet. Nothing is updated after the fact: each record's quantities are written
 * as they stand after its shipment (on hand = received − shipped, reserved = what open shipments
 * hold, the pallet's and cartons' quantities the same way, cartons emptied in position order) and the
 * shipped ones' pick movements go with them, so the invariants (on hand = Σ movements, parent = Σ
 * children, reserved = Σ open allocations) hold row by row. Numbers continue the series.
 */
export async function seedWarehouse(db: Db, opts: WarehouseScaleOptions): Promise<WarehouseScaleReport[]> {
  const log = opts.log ?? (() => {});
  const N = opts.stockRecords;
  const S = Math.min(opts.shipments, N);
  const skus = Math.max(1, opts.skus ?? 5000);
  const batch = Math.max(1000, opts.batch ?? 100_000);
  const receipts = Math.ceil(N / 10);
  // One shipment per `stride` records, spread over all of them (and so over time and owners).
  const stride = S > 0 ? Math.max(1, Math.floor(N / S)) : 1;
  const reports: WarehouseScaleReport[] = [];
  const report = (table: string, rows: number, seconds: number) => {
    const r = { table, rows, seconds, rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)) };
    reports.push(r);
    log(
      `${table}: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${r.rowsPerSecond.toLocaleString('en-US')} rows/s)`,
    );
  };

  await db.connection().execute(async (c) => {
    const settings = (
      await sql<{ prefix: string; ext: number }>`
        update company_settings set gs1_company_prefix = coalesce(gs1_company_prefix, ${SCALE_GS1_PREFIX})
        returning gs1_company_prefix as prefix, sscc_extension_digit as ext`.execute(c)
    ).rows[0];
    if (!settings) throw new Error('company settings must exist (seed the demo or seed:scale first)');
    const width = 16 - settings.prefix.length;
    const series = Object.fromEntries(
      (
        await sql<{ kind: string; prefix: string }>`
          select kind, prefix from document_series where kind in ('stock_receipt', 'shipment')`.execute(c)
      ).rows.map((r) => [r.kind, r.prefix]),
    );
    if (!series.stock_receipt || !series.shipment) throw new Error('the warehouse number series must exist');
    const owners = (
      await sql<{ id: string }>`
        select id from parties where 'customer' = any(kinds) order by code = 'ACME' desc, code
        limit ${opts.owners ?? 200}`.execute(c)
    ).rows.map((r) => r.id);
    if (owners.length === 0) throw new Error('no customer party to own the stock');
    const staff = (
      await sql<{ id: string }>`select id from users where role in ('admin', 'staff') order by email`.execute(
        c,
      )
    ).rows.map((r) => r.id);
    const ssccFrom = Number(
      (await sql<{ n: string }>`select nextval('sscc_serial')::text n`.execute(c)).rows[0]?.n,
    );
    const mrnFrom = Number(
      (
        await sql<{ n: string }>`
          select coalesce(max(substr(inbound_mrn, 8, 9)::bigint), 0)::text n from stock_receipts
          where substr(inbound_mrn, 5, 3) = 'SCW'`.execute(c)
      ).rows[0]?.n,
    );

    // The plan of receipts: owner, date, customs status, MRN and number, fixed up front.
    const t0 = performance.now();
    await sql`drop table if exists seed_wh_receipts, seed_wh_shipments`.execute(c);
    await sql`
      create temporary table seed_wh_receipts as
      with g as (
        select r, (${owners}::uuid[])[1 + r % ${owners.length}] as owner_id,
               current_date - 730 + (r::bigint * 730 / ${receipts})::int as received_on,
               case when r % 20 < 13 then 'union' when r % 20 < 19 then 'non_union_customs_warehousing'
                    else 'temporary_storage' end as customs_status,
               (${staff}::uuid[])[1 + r % ${staff.length}] as created_by
        from generate_series(0, ${receipts - 1}::int) r
      ), y as (
        select g.*, extract(year from g.received_on)::int as y from g
      ), n as (
        select y.*, coalesce(sy.next_number, 1) - 1 + row_number() over (partition by y.y order by y.r) as n
        from y left join document_series_years sy on sy.kind = 'stock_receipt' and sy.year = y.y
      )
      select gen_random_uuid() as id, n.*, ${seriesNumber(series.stock_receipt, sql`n.y`, sql`n.n`)} as number,
             case when n.customs_status <> 'union' then
               to_char(n.received_on, 'YY') || 'NLSCW' || lpad((${mrnFrom}::bigint + n.r + 1)::text, 9, '0')
               || ${SANDBOX_MRN_LETTER.import} end as mrn17,
             n.received_on + interval '9 hours' + make_interval(secs => n.r % 3600) as created_at
      from n`.execute(c);
    await sql`alter table seed_wh_receipts add primary key (r)`.execute(c);
    await sql`
      insert into stock_receipts (id, number, owner_id, received_on, customs_status, inbound_mrn, inbound_mrn_external, notes, version,
                                  created_at, created_by, updated_at, updated_by)
      select id, number, owner_id, received_on, customs_status, mrn17 || ${mrnCheckSql(sql`mrn17`)}, mrn17 is not null,
             null, 1, created_at, created_by, created_at, created_by
      from seed_wh_receipts`.execute(c);
    await sql`
      insert into document_series_years (kind, year, next_number, last_issued)
      select 'stock_receipt', y, max(n) + 1, max(n) from seed_wh_receipts group by y
      on conflict (kind, year) do update set next_number = excluded.next_number, last_issued = excluded.last_issued`.execute(
      c,
    );
    report('stock_receipts', receipts, (performance.now() - t0) / 1000);

    // The plan of shipments: which record (index k·stride), status, quantity, times, number.
    const t1 = performance.now();
    await sql`
      create temporary table seed_wh_shipments as
      with g as (
        select k, k * ${stride} as i, (k * ${stride}) / 10 as r from generate_series(0, ${S - 1}::int) k
      ), s as (
        select g.*, rc.owner_id, rc.customs_status, rc.received_on, rc.created_by,
               case when rc.customs_status = 'union' then (${UNION_BUCKETS}::text[])[1 + g.k % 20]
                    else (${NON_UNION_BUCKETS}::text[])[1 + g.k % 7] end as status,
               least(now() - interval '6 hours', rc.created_at + make_interval(days => 1 + g.k % 20)) as created_at
        from g join seed_wh_receipts rc on rc.r = g.r
      ), y as (
        select s.*, extract(year from s.created_at)::int as y from s
      ), n as (
        select y.*, coalesce(sy.next_number, 1) - 1 + row_number() over (partition by y.y order by y.created_at, y.k) as n
        from y left join document_series_years sy on sy.kind = 'shipment' and sy.year = y.y
      )
      select gen_random_uuid() as id, gen_random_uuid() as line_id, n.*,
             ${seriesNumber(series.shipment, sql`n.y`, sql`n.n`)} as number,
             null::int as quantity
      from n`.execute(c);
    await sql`alter table seed_wh_shipments add primary key (i)`.execute(c);
    // The record's received quantity is a function of i (below): a third of it, at least 1.
    await sql`update seed_wh_shipments set quantity = greatest(1, (12 + (i * 7) % 189) / 3)`.execute(c);
    await sql`analyze seed_wh_shipments`.execute(c);
    const stamp = (after: string, reached: string[]) =>
      sql`case when status in (${sql.join(reached.map((s) => sql.lit(s)))}) then created_at + interval ${sql.lit(after)} end`;
    await sql`
      insert into shipments (id, number, owner_id, status, consignee_name, delivery_address, planned_date,
                             outbound_procedure, customer_reference, released_at, picking_at, packed_at, shipped_at,
                             cancelled_at, cancel_reason, version, created_at, created_by, updated_at, updated_by)
      select id, number, owner_id, status, 'Consignee ' || (k % 997 + 1), 'Distribution centre ' || (k % 97 + 1) || ', Venlo',
             (created_at + interval '3 days')::date,
             -- The procedure the goods' status allows (ADR 0046, 0050): 4071 from customs warehousing, 4000 from temporary storage.
             case customs_status when 'non_union_customs_warehousing' then '4071' when 'temporary_storage' then '4000' end,
             'ORD-' || lpad(k::text, 7, '0'),
             ${stamp('1 hour', ['released', 'picking', 'packed', 'shipped', 'cancelled'])},
             ${stamp('2 hours', ['picking', 'packed', 'shipped'])},
             ${stamp('3 hours', ['packed', 'shipped'])},
             ${stamp('4 hours', ['shipped'])},
             ${stamp('5 hours', ['cancelled'])},
             case when status = 'cancelled' then 'Order withdrawn by the customer' end,
             1 + case status when 'draft' then 0 when 'released' then 1 when 'picking' then 2 when 'packed' then 3
                             when 'shipped' then 4 else 2 end,
             created_at, created_by, created_at + interval '5 hours', created_by
      from seed_wh_shipments`.execute(c);
    await sql`
      insert into document_series_years (kind, year, next_number, last_issued)
      select 'shipment', y, max(n) + 1, max(n) from seed_wh_shipments group by y
      on conflict (kind, year) do update set next_number = excluded.next_number, last_issued = excluded.last_issued`.execute(
      c,
    );
    report('shipments', S, (performance.now() - t1) / 1000);

    // Records, their units, movements and the shipments' lines and allocations, batch by batch.
    const goods = GOODS.map(
      ([code, text, price], k) => sql`(${k + 1}::int, ${code}, ${text}, ${price}::numeric)`,
    );
    const nonUnion = [...NON_UNION_STATUSES];
    let tRecords = 0;
    let tUnits = 0;
    let tMovements = 0;
    let tLines = 0;
    let movements = 0;
    let allocations = 0;
    for (let from = 0; from < N; from += batch) {
      const to = Math.min(N, from + batch);
      let t = performance.now();
      await sql`drop table if exists seed_wh_batch`.execute(c);
      await sql`
        create temporary table seed_wh_batch as
        select g.i as i, rc.id as receipt_id, 1 + g.i % 10 as line_no, rc.owner_id, rc.customs_status, rc.received_on,
               rc.created_at, rc.created_by, rc.mrn17,
               'ART-' || lpad((1 + g.i % ${skus})::text, 5, '0') as sku, 1 + (g.i % ${skus}) % ${GOODS.length} as goods,
               12 + (g.i * 7) % 189 as q,
               'RTM1-' || chr(65 + g.i % 6) || '-' || lpad((1 + (g.i / 6) % 40)::text, 2, '0') || '-' || lpad((1 + (g.i / 240) % 5)::text, 2, '0') as location,
               gen_random_uuid() as id, gen_random_uuid() as pallet_id, gen_random_uuid() as carton1_id, gen_random_uuid() as carton2_id,
               s.id as shipment_id, s.line_id, s.status as shipment_status, s.created_at as shipment_at,
               coalesce(case when s.status = 'shipped' then s.quantity end, 0) as shipped,
               coalesce(case when s.status in ('released', 'picking', 'packed') then s.quantity end, 0) as reserved,
               s.quantity as shipment_quantity
        from generate_series(${from}::int, ${to - 1}::int) as g(i)
        join seed_wh_receipts rc on rc.r = g.i / 10
        left join seed_wh_shipments s on s.i = g.i`.execute(c);
      await sql`
        insert into stock_records (id, receipt_id, line_no, owner_id, sku, description, commodity_code, country_of_origin, unit,
                                   quantity_received, quantity_on_hand, quantity_reserved, customs_status, inbound_mrn, received_on,
                                   location, location_count, packages, gross_mass_kg, net_mass_kg, value, currency, version,
                                   created_at, created_by, updated_at, updated_by)
        select b.id, b.receipt_id, b.line_no, b.owner_id, b.sku, g.text || ' (' || b.sku || ')', g.code,
               case when b.customs_status = any(${nonUnion}::text[]) then 'CN' else 'NL' end, 'H87',
               b.q, b.q - b.shipped, b.reserved, b.customs_status,
               case when b.mrn17 is not null then b.mrn17 || ${mrnCheckSql(sql`b.mrn17`)} end, b.received_on,
               b.location, 1, 2, round(b.q * 0.85 + 25, 3), round(b.q * 0.8, 3), round(b.q * g.price, 2), 'EUR', 1,
               b.created_at, b.created_by, coalesce(b.shipment_at, b.created_at), b.created_by
        from seed_wh_batch b join (values ${sql.join(goods)}) as g(k, code, text, price) on g.k = b.goods`.execute(
        c,
      );
      tRecords += performance.now() - t;
      t = performance.now();
      // Pallet = both cartons; a shipment empties carton 1 first (position order), then carton 2.
      await sql`
        insert into handling_units (id, stock_record_id, parent_id, kind, sscc, reference, quantity, quantity_reserved, location, position, created_at)
        select u.* from seed_wh_batch b cross join lateral (values
          (b.pallet_id, b.id, null::uuid, 'pallet',
           ${settings.ext}::text || ${settings.prefix} || lpad((${ssccFrom}::bigint + b.i)::text, ${width}, '0')
             || ${gs1CheckSql(sql`${settings.ext}::text || ${settings.prefix} || lpad((${ssccFrom}::bigint + b.i)::text, ${width}, '0')`)},
           null::text, b.q - b.shipped, b.reserved, b.location, 1, b.created_at),
          (b.carton1_id, b.id, b.pallet_id, 'carton', null, 'CTN-1', (b.q + 1) / 2 - least(b.shipped, (b.q + 1) / 2), 0, b.location, 2, b.created_at),
          (b.carton2_id, b.id, b.pallet_id, 'carton', null, 'CTN-2', b.q / 2 - (b.shipped - least(b.shipped, (b.q + 1) / 2)), 0, b.location, 3, b.created_at)
        ) as u(id, stock_record_id, parent_id, kind, sscc, reference, quantity, quantity_reserved, location, position, created_at)`.execute(
        c,
      );
      tUnits += performance.now() - t;
      t = performance.now();
      const m = await sql`
        insert into stock_movements (stock_record_id, handling_unit_id, kind, quantity, from_location, to_location, reason, shipment_id, at, created_by)
        select b.id, b.pallet_id, 'receipt', b.q, null, b.location, null, null, b.created_at, b.created_by from seed_wh_batch b
        union all
        select b.id, b.pallet_id, 'pick', -b.shipped, b.location, null, null, b.shipment_id, b.shipment_at + interval '4 hours', b.created_by
        from seed_wh_batch b where b.shipped > 0`.execute(c);
      movements += Number(m.numAffectedRows ?? 0);
      tMovements += performance.now() - t;
      t = performance.now();
      await sql`
        insert into shipment_lines (id, shipment_id, position, sku, stock_record_id, quantity, description)
        select b.line_id, b.shipment_id, 1, b.sku, null, b.shipment_quantity, null
        from seed_wh_batch b where b.shipment_id is not null`.execute(c);
      const a = await sql`
        insert into shipment_allocations (shipment_id, line_id, stock_record_id, handling_unit_id, quantity, state, created_at)
        select b.shipment_id, b.line_id, b.id, b.pallet_id, b.shipment_quantity,
               case b.shipment_status when 'shipped' then 'shipped' when 'packed' then 'picked'
                                      when 'cancelled' then 'freed' else 'reserved' end,
               b.shipment_at + interval '1 hour'
        from seed_wh_batch b where b.shipment_id is not null and b.shipment_status <> 'draft'`.execute(c);
      allocations += Number(a.numAffectedRows ?? 0);
      tLines += performance.now() - t;
      log(`  stock records ${to.toLocaleString('en-US')} / ${N.toLocaleString('en-US')}`);
    }
    await sql`select setval('sscc_serial', ${ssccFrom + N}::bigint)`.execute(c);
    await sql`drop table if exists seed_wh_batch, seed_wh_receipts, seed_wh_shipments`.execute(c);
    report('stock_records', N, tRecords / 1000);
    report('handling_units', 3 * N, tUnits / 1000);
    report('stock_movements', movements, tMovements / 1000);
    report('shipment_lines + allocations', S + allocations, tLines / 1000);
  });
  const t = performance.now();
  for (const table of WAREHOUSE_TABLES) await sql.raw(`vacuum (analyze) ${table}`).execute(db);
  report('vacuum (analyze)', 0, (performance.now() - t) / 1000);
  return reports;
}
