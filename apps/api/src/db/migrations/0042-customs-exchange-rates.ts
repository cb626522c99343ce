import { type Kysely, sql } from 'kysely';

/**
 * Issue 26 item 2: the customs exchange rates the company keeps, one per currency and calendar month
 * (UCC art. 53; ADR 0070), in EUR per unit of the currency. A month is stored as its first day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table customs_exchange_rates (
      month date not null check (extract(day from month) = 1),
      currency char(3) not null check (currency ~ '^[A-Z]{3}$' and currency <> 'EUR'),
      rate numeric(18,6) not null check (rate > 0),
      updated_at timestamptz not null default now(),
      updated_by uuid references users(id) on delete set null,
      primary key (month, currency)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists customs_exchange_rates`.execute(db);
}
