import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table parties add column contacts jsonb not null default '[]'`.execute(db);
  await sql`create index parties_name on parties (name, id)`.execute(db);
  await sql`
    create index parties_search_trgm on parties using gin ((
      name || ' ' || code || ' ' || coalesce(vat_number, '') || ' ' || coalesce(eori, '') || ' ' || coalesce(city, '')
    ) gin_trgm_ops)`.execute(db);
  await sql`create index parties_updated_at on parties (updated_at, id)`.execute(db);

  // Gap-free numbers per series and year: the row is locked by the insert/update until commit.
  await sql`
    create table number_series (
      series text not null,
      year integer not null,
      last_value integer not null,
      primary key (series, year)
    )`.execute(db);

  await sql`
    create table audit_log (
      id bigint generated always as identity primary key,
      record_kind text not null,
      record_id uuid not null,
      action text not null,
      actor_id uuid references users (id),
      at timestamptz not null default now(),
      changes jsonb not null default '[]'
    )`.execute(db);
  await sql`create index audit_log_record on audit_log (record_kind, record_id, id)`.execute(db);

  await sql`
    create table dossiers (
      id uuid primary key default gen_random_uuid(),
      number text not null unique,
      status text not null default 'booked',
      type text not null,
      mode text not null,
      customer_id uuid not null references parties (id),
      consignor_id uuid references parties (id),
      consignee_id uuid references parties (id),
      notify_party_id uuid references parties (id),
      incoterm text,
      incoterm_place text,
      origin_locode text,
      destination_locode text,
      etd date,
      eta date,
      atd date,
      ata date,
      customer_reference text,
      booking_number text,
      master_bl text,
      house_bl text,
      cmr_number text,
      cargo_description text,
      packages integer,
      package_type text,
      gross_weight_kg numeric(15, 3),
      volume_m3 numeric(15, 3),
      chargeable_weight_kg numeric(15, 3),
      handler_id uuid references users (id),
      containers jsonb not null default '[]',
      container_numbers text[] not null default '{}',
      cost_total numeric(16, 2) not null default 0,
      revenue_total numeric(16, 2) not null default 0,
      profit numeric(16, 2) generated always as (revenue_total - cost_total) stored,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id),
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id)
    )`.execute(db);
  // One index per sort the list offers (each with id as the keyset tie-breaker), and per filter.
  for (const [name, cols] of [
    ['number', 'number, id'],
    ['status', 'status, id'],
    ['etd', 'etd, id'],
    ['eta', 'eta, id'],
    ['created_at', 'created_at, id'],
    ['updated_at', 'updated_at, id'],
    ['profit', 'profit, id'],
    ['customer', 'customer_id, updated_at, id'],
    ['handler', 'handler_id, updated_at, id'],
    ['status_updated', 'status, updated_at, id'],
    ['origin', 'origin_locode, id'],
    ['destination', 'destination_locode, id'],
  ] as const) {
    await sql.raw(`create index dossiers_${name} on dossiers (${cols})`).execute(db);
  }
  await sql`create index dossiers_containers on dossiers using gin (container_numbers)`.execute(db);
  // Free-text search over the number and references (trigram: substring and prefix matches).
  await sql`
    create index dossiers_search_trgm on dossiers using gin ((
      number || ' ' || coalesce(customer_reference, '') || ' ' || coalesce(booking_number, '') || ' ' ||
      coalesce(master_bl, '') || ' ' || coalesce(house_bl, '') || ' ' || coalesce(cmr_number, '')
    ) gin_trgm_ops)`.execute(db);

  await sql`
    create table dossier_charges (
      id uuid primary key default gen_random_uuid(),
      dossier_id uuid not null references dossiers (id) on delete cascade,
      position integer not null,
      kind text not null check (kind in ('cost', 'revenue')),
      charge_code text not null,
      description text not null,
      party_id uuid references parties (id),
      amount numeric(16, 2) not null,
      currency char(3) not null,
      exchange_rate numeric(18, 6) not null,
      base_amount numeric(16, 2) not null
    )`.execute(db);
  await sql`create index dossier_charges_dossier on dossier_charges (dossier_id, position)`.execute(db);
}
