import { type Kysely, sql } from 'kysely';

/**
 * The profile's preferences (issue 14, ADR 0039): one row per user who changed something; no row reads
 * as the defaults (USD, '.', ',', 'D MMM YYYY', 'HH:mm', the browser's zone, English), so existing
 * users need no backfill. Typed columns with the same lists the contract allows: a value the web
 * cannot show never gets stored, whoever writes it. Currency and zone are checked by the API (the
 * ISO 4217 list and the runtime's zone database move faster than a migration).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_preferences (
      user_id uuid primary key references users (id) on delete cascade,
      currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
      decimal_separator text not null default '.' check (decimal_separator in ('.', ',')),
      thousands_separator text not null default ',' check (thousands_separator in (',', '.', ' ', '''', '')),
      date_format text not null default 'D MMM YYYY'
        check (date_format in ('D MMM YYYY', 'DD-MM-YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY')),
      time_format text not null default 'HH:mm' check (time_format in ('HH:mm', 'h:mm A')),
      time_zone text check (time_zone is null or length(time_zone) between 1 and 64),
      language text not null default 'en' check (language in ('en')),
      updated_at timestamptz not null default now(),
      check (decimal_separator <> thousands_separator)
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists user_preferences`.execute(db);
}
