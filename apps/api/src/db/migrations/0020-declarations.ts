import { type Kysely, sql } from 'kysely';

/**
 * Customs declarations (issue 12): import, export and transit, with their goods items and the log of
 * messages exchanged with the customs gateway (the sandbox authority). A draft may be incomplete; the
 * API checks what lodging needs. The header keeps the items' totals (packages, gross mass, customs
 * value, duty and VAT estimate) so the list sorts and shows them without reading the items. The
 * checks below hold whatever the API does: code lists, positive masses with net ≤ gross, one MRN per
 * declaration, one pending request at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table declarations (
      id uuid primary key default gen_random_uuid(),
      type text not null check (type in ('import', 'export', 'transit')),
      category text not null check (
        (type = 'import' and category = 'H1') or (type = 'export' and category = 'B1')
        or (type = 'transit' and category in ('T1', 'T2'))),
      status text not null default 'draft' check (status in ('draft', 'lodged', 'accepted', 'under_control',
        'released', 'not_released', 'rejected', 'cancelled', 'exited', 'arrived', 'discharged')),
      lrn text not null check (char_length(lrn) between 1 and 22),
      mrn text check (mrn ~ '^[0-9]{2}[A-Z]{2}[A-Z0-9]{14}$'),
      gateway text not null default 'sandbox',
      dossier_id uuid references dossiers (id),
      customer_id uuid not null references parties (id),
      declarant jsonb,
      representative jsonb,
      consignor jsonb,
      consignee jsonb,
      holder jsonb,
      representative_status text check (representative_status in ('1', '2', '3')),
      office_of_lodgement text,
      office_of_exit_entry text,
      office_of_destination text,
      offices_of_transit text[] not null default '{}',
      country_of_dispatch char(2),
      country_of_destination char(2),
      transport_mode_border text check (transport_mode_border in ('1', '2', '3', '4', '5', '7', '8', '9')),
      transport_mode_inland text check (transport_mode_inland in ('1', '2', '3', '4', '5', '7', '8', '9')),
      means_at_departure text,
      means_at_departure_country char(2),
      means_at_border text,
      means_at_border_country char(2),
      container_indicator boolean not null default false,
      incoterm text,
      incoterm_place text,
      nature_of_transaction text,
      currency char(3) check (currency ~ '^[A-Z]{3}$'),
      invoice_total numeric(16, 2) check (invoice_total >= 0),
      exchange_rate numeric(18, 6) check (exchange_rate > 0),
      location_of_goods text,
      warehouse_reference text,
      guarantee_type text check (guarantee_type in ('0', '1', '2', '3', '4', '5', '8', '9', 'A', 'R')),
      guarantee_reference text check (char_length(guarantee_reference) <= 24),
      guarantee_amount numeric(16, 2) check (guarantee_amount > 0),
      notes text,
      packages integer not null default 0,
      gross_mass_kg numeric(16, 3) not null default 0,
      customs_value numeric(16, 2) not null default 0,
      duty numeric(16, 2),
      vat numeric(16, 2),
      duty_and_vat numeric(16, 2),
      pending_request text check (pending_request in ('amendment', 'cancellation')),
      pending_amendment jsonb,
      rejection jsonb not null default '[]' check (jsonb_typeof(rejection) = 'array'),
      last_message_kind text,
      last_message_at timestamptz,
      lodged_at timestamptz,
      accepted_at timestamptz,
      released_at timestamptz,
      exited_at timestamptz,
      arrived_at timestamptz,
      discharged_at timestamptz,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null,
      constraint declarations_lrn_key unique (lrn),
      constraint declarations_mrn_key unique (mrn),
      constraint declarations_amendment_pending check ((pending_amendment is null) or (pending_request = 'amendment')),
      constraint declarations_draft_unlodged check (status <> 'draft' or (mrn is null and lodged_at is null))
    )`.execute(db);
  await sql`create index declarations_updated on declarations (updated_at desc, id)`.execute(db);
  await sql`create index declarations_created on declarations (created_at desc, id)`.execute(db);
  await sql`create index declarations_status on declarations (status, updated_at desc, id)`.execute(db);
  await sql`create index declarations_customer on declarations (customer_id, updated_at desc, id)`.execute(
    db,
  );
  await sql`create index declarations_dossier on declarations (dossier_id) where dossier_id is not null`.execute(
    db,
  );
  await sql`create index declarations_customs_value on declarations (customs_value, id)`.execute(db);
  await sql`create index declarations_pending on declarations (updated_at desc, id) where pending_request is not null`.execute(
    db,
  );
  // The reference filter is a case-insensitive prefix of the LRN or the MRN (both stored upper-case).
  await sql`create index declarations_lrn_prefix on declarations (lrn text_pattern_ops)`.execute(db);
  await sql`create index declarations_mrn_prefix on declarations (mrn text_pattern_ops) where mrn is not null`.execute(
    db,
  );

  await sql`
    create table declaration_items (
      id uuid primary key default gen_random_uuid(),
      declaration_id uuid not null references declarations (id) on delete cascade,
      position integer not null check (position between 1 and 999),
      commodity_code text check (commodity_code ~ '^[0-9]{8}([0-9]{2})?$'),
      description text,
      country_of_origin char(2),
      preference text check (preference ~ '^[0-9]{3}$'),
      procedure_code text check (procedure_code ~ '^[0-9]{4}$'),
      packages integer check (packages >= 0),
      package_kind text,
      marks text,
      gross_mass_kg numeric(14, 3) check (gross_mass_kg > 0),
      net_mass_kg numeric(14, 3) check (net_mass_kg > 0),
      invoice_value numeric(16, 2) check (invoice_value >= 0),
      customs_value numeric(16, 2) check (customs_value >= 0),
      statistical_value numeric(16, 2) check (statistical_value >= 0),
      duty_rate numeric(7, 3) check (duty_rate >= 0),
      vat_rate numeric(5, 2) check (vat_rate between 0 and 100),
      vat_costs numeric(16, 2) check (vat_costs >= 0),
      containers text[] not null default '{}',
      supporting_documents jsonb not null default '[]' check (jsonb_typeof(supporting_documents) = 'array'),
      previous_documents jsonb not null default '[]' check (jsonb_typeof(previous_documents) = 'array'),
      duty numeric(16, 2),
      vat_base numeric(16, 2),
      vat numeric(16, 2),
      constraint declaration_items_position_key unique (declaration_id, position),
      constraint declaration_items_net_within_gross check (net_mass_kg is null or gross_mass_kg is null or net_mass_kg <= gross_mass_kg)
    )`.execute(db);

  await sql`
    create table declaration_messages (
      id uuid primary key default gen_random_uuid(),
      declaration_id uuid not null references declarations (id) on delete cascade,
      direction text not null check (direction in ('sent', 'received')),
      kind text not null,
      at timestamptz not null default now(),
      summary text not null,
      mrn text,
      rules jsonb not null default '[]' check (jsonb_typeof(rules) = 'array'),
      payload jsonb,
      sandbox boolean not null,
      created_by uuid references users (id) on delete set null
    )`.execute(db);
  // Documents attach to declarations (record_type 'declaration' is allowed since 0005). A declaration
  // made from scratch has no dossier, which is what scopes a document to its customer: the party it
  // belongs to is kept on the document for those.
  await sql`alter table documents add column party_id uuid references parties (id)`.execute(db);

  await sql`create index declaration_messages_declaration on declaration_messages (declaration_id, at, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table documents drop column party_id`.execute(db);
  await sql`drop table declaration_messages`.execute(db);
  await sql`drop table declaration_items`.execute(db);
  await sql`drop table declarations`.execute(db);
}
