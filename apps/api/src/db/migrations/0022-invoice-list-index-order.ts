import { type Kysely, sql } from 'kysely';

/**
 * The invoice list sorts `updated_at desc, id desc` (the keyset's tie-breaker follows the last sort
 * term), but its two indexes ended in `id` ascending: with equal `updated_at` values the first page
 * had to sort the ties (an incremental sort, seen on the declarations' first seed). They now say the
 * same order as the query, like the declarations' (0020); the dossiers' and offers' indexes are all
 * ascending and are read backwards, which already matches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists sales_invoices_updated`.execute(db);
  await sql`create index sales_invoices_updated on sales_invoices (updated_at desc, id desc)`.execute(db);
  await sql`drop index if exists sales_invoices_customer`.execute(db);
  await sql`create index sales_invoices_customer on sales_invoices (customer_id, updated_at desc, id desc)`.execute(
    db,
  );
}
