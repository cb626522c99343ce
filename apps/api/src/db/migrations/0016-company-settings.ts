import { type Kysely, sql } from 'kysely';

/**
 * Company settings (issue 11): the forwarder's own data, one row that exists from the start with safe
 * defaults so that reading it never finds nothing (a database without the demo too). The number series
 * of the documents the company issues: a prefix per kind, and per kind and year the next number and the
 * last one issued. Issuing takes a number with one statement that locks the row until commit:
 *   update document_series_years set next_number = next_number + 1, last_issued = next_number
 *   where kind = $1 and year = $2 returning last_issued
 * and the check keeps an edited next number above what was issued, whoever writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table company_settings (
      -- One row: its id is fixed, so the audit trail (keyed by uuid) has a record to hang on.
      id uuid primary key default '00000000-0000-0000-0000-00000000c0de'
        check (id = '00000000-0000-0000-0000-00000000c0de'),
      legal_name text not null default 'Your company',
      street text,
      postal_code text,
      city text,
      country_code text not null default 'NL' check (country_code ~ '^[A-Z]{2}$'),
      vat_number text,
      eori text,
      registration_number text,
      iban text,
      bic text,
      email text,
      peppol_scheme text check (peppol_scheme ~ '^[0-9]{4}$'),
      peppol_id text,
      base_currency text not null default 'EUR' check (base_currency ~ '^[A-Z]{3}$'),
      payment_terms_days integer not null default 30 check (payment_terms_days between 0 and 365),
      invoice_footer text,
      version integer not null default 1,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null
    )`.execute(db);
  await sql`insert into company_settings default values`.execute(db);

  await sql`
    create table document_series (
      kind text primary key
        check (kind in ('offer', 'invoice', 'credit_note', 'declaration', 'stock_receipt', 'shipment')),
      prefix text not null check (prefix ~ '^[A-Z0-9][A-Z0-9/.-]{0,11}$')
    )`.execute(db);
  await sql`
    insert into document_series (kind, prefix) values
      ('offer', 'O-'), ('invoice', 'I-'), ('credit_note', 'C-'), ('declaration', 'LRN-'),
      ('stock_receipt', 'R-'), ('shipment', 'S-')`.execute(db);

  // A year without a row starts at 1 with nothing issued; a row is written when an admin sets a next
  // number or the first number of that year is issued.
  await sql`
    create table document_series_years (
      kind text not null references document_series (kind),
      year integer not null check (year between 2000 and 9999),
      next_number integer not null check (next_number between 1 and 999999999),
      last_issued integer not null default 0 check (last_issued >= 0),
      primary key (kind, year),
      constraint document_series_years_next_above_issued check (next_number > last_issued)
    )`.execute(db);
}
