import { type Kysely, sql } from 'kysely';

/**
 * The dashboard's figures (issue 14, ADR 0037). Counts by status over a million rows, and sums over the
 * hundreds of thousands of open or this month's invoices, cost 150–900 ms live (measured on the 1 M
 * dossier bench database), so they are kept per party, key and day by statement triggers in the writing
 * transaction: exact at commit (no lag), read in a few milliseconds. A day column keeps time-dependent
 * figures exact: overdue = open invoices by due date before today; revenue = numbered ones by issue date.
 * The short windows (this week's transports, the last 24 h of container events) stay live range counts.
 *
 * `dashboard_counts_rebuild()` recounts everything from the tables: the migration fills the tables with
 * it, and a bulk load that bypasses triggers (session_replication_role = replica) calls it afterwards.
 */
const NO_DAY = `'-infinity'::date`;
const COUNTED = [
  // area, table, party column, key, which rows count, day, amount
  ['dossiers', 'dossiers', 'customer_id', 'status', 'true', NO_DAY, '0'],
  ['declarations', 'declarations', 'customer_id', 'status', 'true', NO_DAY, '0'],
  ['stock', 'stock_records', 'owner_id', 'customs_status', 'quantity_on_hand > 0', NO_DAY, '0'],
  ['shipments', 'shipments', 'owner_id', 'status', 'true', NO_DAY, '0'],
  // The overdue filter's rows (sales-invoices.repository OVERDUE, less the date), by due date and currency.
  [
    'open-invoices',
    'sales_invoices',
    'customer_id',
    'currency',
    `kind = 'invoice' and status in ('issued', 'partially_paid') and number is not null and due_date is not null`,
    'due_date',
    'greatest(tax_inclusive_amount - paid_amount - credited_amount, 0)',
  ],
  // Revenue: numbered invoices less credit notes, each in base currency rounded to cents, by issue date.
  [
    'revenue',
    'sales_invoices',
    'customer_id',
    'kind',
    `number is not null and status in ('issued', 'partially_paid', 'paid', 'credited') and issue_date is not null`,
    'issue_date',
    `round(line_extension_amount * coalesce(exchange_rate, 1), 2) * case when kind = 'credit_note' then -1 else 1 end`,
  ],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dashboard_counts (
      area text not null,
      party_id uuid not null,
      key text not null,
      day date not null,
      n bigint not null,
      amount numeric not null,
      primary key (area, party_id, key, day)
    )`.execute(db);
  // Staff see totals over every party: summing the per-party rows reads parties × keys rows (80 000 at
  // 9 000 customers, 70 ms), so totals are kept too. One row per key would make every write of that key
  // wait for the others' commits; spread over 16 shards by backend, concurrent writers rarely meet.
  await sql`
    create table dashboard_totals (
      area text not null,
      key text not null,
      day date not null,
      shard smallint not null,
      n bigint not null,
      amount numeric not null,
      primary key (area, key, day, shard)
    )`.execute(db);

  // One function for every counted table: the trigger's arguments say which columns. Deltas are summed
  // per (party, key, day) first, so an update that changes nothing counted writes nothing, and upserts go
  // in key order (concurrent statements lock counter rows in the same order).
  await sql`
    create function dashboard_count() returns trigger language plpgsql as $fn$
    declare
      cols text := format('%s as p, %s as k, %s as dy', tg_argv[1], tg_argv[2], tg_argv[4]);
      cond text := tg_argv[3];
      amount text := tg_argv[5];
      src text;
    begin
      if tg_op = 'TRUNCATE' then
        delete from dashboard_counts c where c.area = tg_argv[0];
        delete from dashboard_totals t where t.area = tg_argv[0];
        return null;
      elsif tg_op = 'INSERT' then
        src := format('select %1$s, 1 as d, %3$s as a from new_rows where %2$s', cols, cond, amount);
      elsif tg_op = 'DELETE' then
        src := format('select %1$s, -1 as d, -(%3$s) as a from old_rows where %2$s', cols, cond, amount);
      else
        src := format('select %1$s, 1 as d, %3$s as a from new_rows where %2$s
                       union all select %1$s, -1, -(%3$s) from old_rows where %2$s', cols, cond, amount);
      end if;
      execute format($q$
        with delta as (
          select x.p, x.k, x.dy, sum(x.d) as d, sum(x.a) as a from (%2$s) x
          group by x.p, x.k, x.dy having sum(x.d) <> 0 or sum(x.a) <> 0
        ), parties as (
          insert into dashboard_counts as c (area, party_id, key, day, n, amount)
          select %1$L, p, k, dy, d, a from delta order by p, k, dy
          on conflict (area, party_id, key, day) do update set n = c.n + excluded.n, amount = c.amount + excluded.amount
        )
        insert into dashboard_totals as t (area, key, day, shard, n, amount)
        select %1$L, k, dy, pg_backend_pid() %% 16, sum(d), sum(a) from delta group by k, dy order by k, dy
        on conflict (area, key, day, shard) do update set n = t.n + excluded.n, amount = t.amount + excluded.amount$q$,
        tg_argv[0], src);
      return null;
    end $fn$`.execute(db);

  for (const [area, table, party, key, cond, day, amount] of COUNTED) {
    const args = [area, party, key, cond, day, amount].map((a) => `'${a.replaceAll("'", "''")}'`).join(', ');
    const name = `${table}_dashboard_${area.replaceAll('-', '_')}`;
    // Transition tables allow one event per trigger: four triggers share the function.
    await sql
      .raw(`
      create trigger ${name}_ins after insert on ${table}
        referencing new table as new_rows for each statement execute function dashboard_count(${args});
      create trigger ${name}_upd after update on ${table}
        referencing old table as old_rows new table as new_rows for each statement execute function dashboard_count(${args});
      create trigger ${name}_del after delete on ${table}
        referencing old table as old_rows for each statement execute function dashboard_count(${args});
      create trigger ${name}_trunc after truncate on ${table}
        for each statement execute function dashboard_count(${args});`)
      .execute(db);
  }

  await sql
    .raw(`
    create function dashboard_counts_rebuild() returns void language sql as $fn$
      delete from dashboard_counts;
      delete from dashboard_totals;
      ${COUNTED.map(
        ([area, table, party, key, cond, day, amount]) => `
      insert into dashboard_counts (area, party_id, key, day, n, amount)
        select '${area}', ${party}, ${key}, ${day}, count(*), coalesce(sum(${amount}), 0) from ${table}
        where ${cond} group by 2, 3, 4;`,
      ).join('')}
      insert into dashboard_totals (area, key, day, shard, n, amount)
        select area, key, day, 0, sum(n), sum(amount) from dashboard_counts group by 1, 2, 3;
    $fn$`)
    .execute(db);
  await sql`select dashboard_counts_rebuild()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [area, table] of COUNTED)
    for (const t of ['ins', 'upd', 'del', 'trunc'])
      await sql
        .raw(`drop trigger if exists ${table}_dashboard_${area.replaceAll('-', '_')}_${t} on ${table}`)
        .execute(db);
  await sql`drop function if exists dashboard_counts_rebuild()`.execute(db);
  await sql`drop function if exists dashboard_count()`.execute(db);
  await sql`drop table if exists dashboard_totals`.execute(db);
  await sql`drop table if exists dashboard_counts`.execute(db);
}
