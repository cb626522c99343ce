import { type Kysely, sql } from 'kysely';

/**
 * The dashboard's figures (issue 14, ADR 0037). Counts by status over a million rows cost 150–900 ms
 * live (measured on the 1 M-dossier bench database), so they are kept per party and key by statement
 * triggers in the writing transaction: exact at commit (no lag), read in a few milliseconds. Figures over
 * a bounded window (today's transports, the last 24 h of container events, this month's invoices, the
 * overdue ones) stay live counts, served by the covering indexes below.
 *
 * `dashboard_counts_rebuild()` recounts everything from the tables: the migration fills the table with
 * it, and a bulk load that bypasses triggers (session_replication_role = replica) calls it afterwards.
 */
const COUNTED = [
  // area, table, party column, key expression, which rows count
  ['dossiers', 'dossiers', 'customer_id', 'status', 'true'],
  ['declarations', 'declarations', 'customer_id', 'status', 'true'],
  ['stock', 'stock_records', 'owner_id', 'customs_status', 'quantity_on_hand > 0'],
  ['shipments', 'shipments', 'owner_id', 'status', 'true'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dashboard_counts (
      area text not null,
      party_id uuid not null,
      key text not null,
      n bigint not null,
      primary key (area, party_id, key)
    )`.execute(db);

  // One function for every counted table: the trigger's arguments say which columns. Deltas are summed
  // per (party, key) first, so an update that does not move a row between keys writes nothing, and the
  // upsert goes in key order (concurrent statements lock counter rows in the same order).
  await sql`
    create function dashboard_count() returns trigger language plpgsql as $fn$
    declare
      area text := tg_argv[0];
      party text := tg_argv[1];
      k text := tg_argv[2];
      cond text := tg_argv[3];
      src text;
    begin
      if tg_op = 'TRUNCATE' then
        delete from dashboard_counts c where c.area = tg_argv[0];
        return null;
      elsif tg_op = 'INSERT' then
        src := format('select %1$s as p, %2$s as k, 1 as d from new_rows where %3$s', party, k, cond);
      elsif tg_op = 'DELETE' then
        src := format('select %1$s as p, %2$s as k, -1 as d from old_rows where %3$s', party, k, cond);
      else
        src := format('select %1$s as p, %2$s as k, 1 as d from new_rows where %3$s
                       union all select %1$s, %2$s, -1 from old_rows where %3$s', party, k, cond);
      end if;
      execute format($q$
        insert into dashboard_counts as c (area, party_id, key, n)
        select %L, x.p, x.k, sum(x.d) from (%s) x group by x.p, x.k having sum(x.d) <> 0 order by x.p, x.k
        on conflict (area, party_id, key) do update set n = c.n + excluded.n$q$, area, src);
      return null;
    end $fn$`.execute(db);

  for (const [area, table, party, key, cond] of COUNTED) {
    const args = [area, party, key, cond].map((a) => `'${a.replaceAll("'", "''")}'`).join(', ');
    // Transition tables allow one event per trigger: three triggers share the function.
    await sql
      .raw(`
      create trigger ${table}_dashboard_ins after insert on ${table}
        referencing new table as new_rows for each statement execute function dashboard_count(${args});
      create trigger ${table}_dashboard_upd after update on ${table}
        referencing old table as old_rows new table as new_rows for each statement execute function dashboard_count(${args});
      create trigger ${table}_dashboard_del after delete on ${table}
        referencing old table as old_rows for each statement execute function dashboard_count(${args});
      create trigger ${table}_dashboard_trunc after truncate on ${table}
        for each statement execute function dashboard_count(${args});`)
      .execute(db);
  }

  await sql
    .raw(`
    create function dashboard_counts_rebuild() returns void language sql as $fn$
      delete from dashboard_counts;
      ${COUNTED.map(
        ([area, table, party, key, cond]) => `
      insert into dashboard_counts (area, party_id, key, n)
        select '${area}', ${party}, ${key}, count(*) from ${table} where ${cond} group by 1, 2, 3;`,
      ).join('')}
    $fn$`)
    .execute(db);
  await sql`select dashboard_counts_rebuild()`.execute(db);

  // Open invoices past due (count and open amount per currency), read from the index alone.
  await sql`create index sales_invoices_dashboard_open on sales_invoices (due_date)
    include (customer_id, currency, tax_inclusive_amount, paid_amount, credited_amount)
    where kind = 'invoice' and status in ('issued', 'partially_paid')`.execute(db);
  // This month's revenue by issue date: numbered invoices and credit notes, from the index alone.
  await sql`create index sales_invoices_dashboard_issued on sales_invoices (issue_date)
    include (customer_id, kind, status, line_extension_amount, exchange_rate)
    where number is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists sales_invoices_dashboard_issued`.execute(db);
  await sql`drop index if exists sales_invoices_dashboard_open`.execute(db);
  for (const [, table] of COUNTED)
    for (const t of ['ins', 'upd', 'del', 'trunc'])
      await sql.raw(`drop trigger if exists ${table}_dashboard_${t} on ${table}`).execute(db);
  await sql`drop function if exists dashboard_counts_rebuild()`.execute(db);
  await sql`drop function if exists dashboard_count()`.execute(db);
  await sql`drop table if exists dashboard_counts`.execute(db);
}
