import { type Kysely, sql } from 'kysely';

/**
 * Sales offers (issue 11): a quotation with its lines, numbered from the `offer` series at creation.
 * Accepting one creates its dossier: `dossier_id` is unique, so whatever races, one offer makes at most
 * one dossier. Line nets are computed by the server (q × p, 2 decimals) and stored for lists and totals.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sales_offers (
      id uuid primary key default gen_random_uuid(),
      number text not null unique,
      status text not null default 'draft'
        check (status in ('draft', 'sent', 'accepted', 'rejected', 'expired', 'cancelled')),
      customer_id uuid not null references parties (id),
      contact_name text,
      contact_email text,
      valid_until date not null,
      origin_locode text,
      destination_locode text,
      mode text not null,
      incoterm text,
      incoterm_place text,
      dossier_type text not null default 'export',
      cargo_description text,
      packages integer,
      package_type text,
      gross_weight_kg numeric(15, 3),
      volume_m3 numeric(15, 3),
      notes text,
      dossier_id uuid unique references dossiers (id) on delete set null,
      sent_at timestamptz,
      decided_at timestamptz,
      decided_by uuid references users (id),
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id),
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id)
    )`.execute(db);
  // One index per sort (id as the keyset tie-breaker) and per filter; the expiry job finds sent offers by date.
  for (const [name, cols] of [
    ['status', 'status, id'],
    ['valid_until', 'valid_until, id'],
    ['created_at', 'created_at, id'],
    ['updated_at', 'updated_at, id'],
    ['customer', 'customer_id, updated_at, id'],
    ['status_valid_until', 'status, valid_until'],
  ] as const) {
    await sql.raw(`create index sales_offers_${name} on sales_offers (${cols})`).execute(db);
  }
  await sql`
    create index sales_offers_search_trgm on sales_offers using gin ((
      number || ' ' || coalesce(contact_name, '') || ' ' || coalesce(cargo_description, '')
    ) gin_trgm_ops)`.execute(db);

  await sql`
    create table sales_offer_lines (
      id uuid primary key default gen_random_uuid(),
      offer_id uuid not null references sales_offers (id) on delete cascade,
      position integer not null,
      charge_code text not null,
      description text not null,
      quantity numeric(14, 3) not null check (quantity > 0),
      unit text not null,
      unit_price numeric(16, 4) not null check (unit_price >= 0),
      currency char(3) not null,
      exchange_rate numeric(18, 6) not null check (exchange_rate > 0),
      vat_code text not null check (vat_code in ('S', 'Z', 'E', 'AE', 'O')),
      vat_rate numeric(5, 2) check ((vat_code = 'O') = (vat_rate is null)),
      line_net numeric(16, 2) not null,
      unique (offer_id, position)
    )`.execute(db);
}
