import { type Kysely, sql } from 'kysely';

/**
 * The customs warehouse's stock (issue 13, ADR 0034): receipts make stock records; a record's goods sit
 * in handling units (pallets by SSCC, cartons, items) kept as a tree whose parents hold the sum of their
 * children; every change of quantity or place is a movement, and movements are never changed or
 * deleted (a trigger refuses it), so on hand is always their sum. What must hold whatever the API does
 * is a check here: 0 ≤ reserved ≤ on hand on records and root units (an oversell is impossible even
 * if the code were wrong), one SSCC per unit in the whole warehouse.
 *
 * Also: the company's GS1 prefix and SSCC extension digit with the sequence SSCC serials come from, and
 * import declarations of category H2 (customs warehousing, procedure 71) whose entry a receipt links.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table company_settings
      add column gs1_company_prefix text check (gs1_company_prefix ~ '^[0-9]{6,12}$'),
      add column sscc_extension_digit smallint not null default 0 check (sscc_extension_digit between 0 and 9)`.execute(
    db,
  );
  // Serial references of generated SSCCs: never reused, even when the transaction that took one rolls back.
  await sql`create sequence sscc_serial`.execute(db);

  // 0020 wrote the category check inline, so PostgreSQL named it; found by what it checks.
  await sql`
    do $$
    declare c text;
    begin
      for c in select conname from pg_constraint
        where conrelid = 'declarations'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%''H1''%'
      loop
        execute format('alter table declarations drop constraint %I', c);
      end loop;
    end $$`.execute(db);
  await sql`
    alter table declarations add constraint declarations_category_check check (
      (type = 'import' and category in ('H1', 'H2')) or (type = 'export' and category = 'B1')
      or (type = 'transit' and category in ('T1', 'T2')))`.execute(db);

  const customsStatus = sql.raw(
    `customs_status text not null check (customs_status in ('union', 'non_union_customs_warehousing', 'temporary_storage'))`,
  );

  await sql`
    create table stock_receipts (
      id uuid primary key default gen_random_uuid(),
      number text not null,
      owner_id uuid not null references parties (id),
      received_on date not null,
      ${customsStatus},
      inbound_mrn text check (inbound_mrn ~ '^[0-9]{2}[A-Z]{2}[A-Z0-9]{14}$'),
      entry_declaration_id uuid references declarations (id),
      notes text,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null,
      constraint stock_receipts_number_key unique (number)
    )`.execute(db);
  await sql`create index stock_receipts_received on stock_receipts (received_on desc, id desc)`.execute(db);
  await sql`create index stock_receipts_created on stock_receipts (created_at desc, id desc)`.execute(db);
  await sql`create index stock_receipts_owner on stock_receipts (owner_id, received_on desc, id desc)`.execute(
    db,
  );
  await sql`create index stock_receipts_number_prefix on stock_receipts (number text_pattern_ops)`.execute(
    db,
  );
  await sql`create index stock_receipts_mrn_prefix on stock_receipts (inbound_mrn text_pattern_ops) where inbound_mrn is not null`.execute(
    db,
  );
  await sql`create index stock_receipts_entry on stock_receipts (entry_declaration_id) where entry_declaration_id is not null`.execute(
    db,
  );

  await sql`
    create table stock_records (
      id uuid primary key default gen_random_uuid(),
      receipt_id uuid not null references stock_receipts (id),
      line_no integer not null check (line_no >= 1),
      owner_id uuid not null references parties (id),
      sku text not null check (sku = upper(sku) and char_length(sku) between 1 and 40),
      description text not null,
      commodity_code text check (commodity_code ~ '^[0-9]{8}([0-9]{2})?$'),
      country_of_origin char(2),
      unit text not null,
      quantity_received integer not null check (quantity_received > 0),
      quantity_on_hand integer not null check (quantity_on_hand >= 0),
      quantity_reserved integer not null default 0 check (quantity_reserved >= 0),
      quantity_available integer generated always as (quantity_on_hand - quantity_reserved) stored,
      ${customsStatus},
      inbound_mrn text,
      received_on date not null,
      location text not null,
      location_count integer not null default 1 check (location_count >= 0),
      packages integer check (packages >= 0),
      gross_mass_kg numeric(14, 3) check (gross_mass_kg > 0),
      net_mass_kg numeric(14, 3) check (net_mass_kg > 0),
      value numeric(16, 2) check (value >= 0),
      currency char(3) check (currency ~ '^[A-Z]{3}$'),
      notes text,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null,
      constraint stock_records_reserved_within_on_hand check (quantity_reserved <= quantity_on_hand),
      constraint stock_records_line_key unique (receipt_id, line_no),
      constraint stock_records_value_currency check (value is null or currency is not null)
    )`.execute(db);
  // The list's default order is (received_on desc, id desc); each filter has an index ending the same way.
  await sql`create index stock_records_received on stock_records (received_on desc, id desc)`.execute(db);
  await sql`create index stock_records_updated on stock_records (updated_at desc, id desc)`.execute(db);
  await sql`create index stock_records_owner on stock_records (owner_id, received_on desc, id desc)`.execute(
    db,
  );
  await sql`create index stock_records_sku_prefix on stock_records (sku text_pattern_ops)`.execute(db);
  await sql`create index stock_records_location_prefix on stock_records (location text_pattern_ops)`.execute(
    db,
  );
  await sql`create index stock_records_status on stock_records (customs_status, received_on desc, id desc)`.execute(
    db,
  );
  await sql`create index stock_records_available on stock_records (received_on desc, id desc) where quantity_available > 0`.execute(
    db,
  );
  await sql`create index stock_records_receipt on stock_records (receipt_id, line_no)`.execute(db);
  // Release's FIFO lookup: the owner's records of a SKU with something left, oldest first.
  await sql`create index stock_records_fifo on stock_records (owner_id, sku, received_on, id) where quantity_available > 0`.execute(
    db,
  );

  await sql`
    create table handling_units (
      id uuid primary key default gen_random_uuid(),
      stock_record_id uuid not null references stock_records (id),
      parent_id uuid references handling_units (id),
      kind text not null check (kind in ('pallet', 'carton', 'item')),
      sscc char(18) check (sscc ~ '^[0-9]{18}$'),
      reference text,
      quantity integer not null check (quantity >= 0),
      -- Kept on root units only: a reservation takes (part of) a root unit.
      quantity_reserved integer not null default 0 check (quantity_reserved between 0 and quantity),
      location text not null,
      position integer not null,
      created_at timestamptz not null default now(),
      constraint handling_units_sscc_key unique (sscc),
      constraint handling_units_pallet_root check (kind <> 'pallet' or parent_id is null),
      constraint handling_units_reserved_on_roots check (parent_id is null or quantity_reserved = 0),
      constraint handling_units_sscc_kind check (sscc is null or kind in ('pallet', 'carton'))
    )`.execute(db);
  await sql`create index handling_units_record on handling_units (stock_record_id, position)`.execute(db);
  await sql`create index handling_units_parent on handling_units (parent_id) where parent_id is not null`.execute(
    db,
  );

  await sql`
    create table stock_movements (
      id uuid primary key default gen_random_uuid(),
      stock_record_id uuid not null references stock_records (id),
      handling_unit_id uuid references handling_units (id),
      kind text not null check (kind in ('receipt', 'transfer', 'pick', 'adjustment')),
      quantity integer not null,
      from_location text,
      to_location text,
      reason text,
      shipment_id uuid,
      at timestamptz not null default now(),
      created_by uuid references users (id),
      constraint stock_movements_sign check (
        (kind = 'receipt' and quantity > 0) or (kind = 'pick' and quantity < 0)
        or (kind = 'transfer' and quantity = 0) or (kind = 'adjustment' and quantity <> 0)),
      constraint stock_movements_adjustment_reason check (kind <> 'adjustment' or reason is not null)
    )`.execute(db);
  await sql`create index stock_movements_record on stock_movements (stock_record_id, at, id)`.execute(db);
  await sql`create index stock_movements_unit on stock_movements (handling_unit_id) where handling_unit_id is not null`.execute(
    db,
  );
  // Append-only: the history of a quantity is never rewritten (a correction is a new adjustment).
  // Hence created_by has no `on delete set null` (that would be an UPDATE): users are deactivated, never deleted.
  await sql`
    create function stock_movements_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'stock movements are append-only: % refused', tg_op
        using errcode = 'restrict_violation';
    end $$`.execute(db);
  await sql`
    create trigger stock_movements_append_only before update or delete on stock_movements
    for each row execute function stock_movements_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table stock_movements`.execute(db);
  await sql`drop function stock_movements_append_only()`.execute(db);
  await sql`drop table handling_units`.execute(db);
  await sql`drop table stock_records`.execute(db);
  await sql`drop table stock_receipts`.execute(db);
  await sql`alter table declarations drop constraint declarations_category_check`.execute(db);
  await sql`
    alter table declarations add constraint declarations_category_check check (
      (type = 'import' and category = 'H1') or (type = 'export' and category = 'B1')
      or (type = 'transit' and category in ('T1', 'T2')))`.execute(db);
  await sql`drop sequence sscc_serial`.execute(db);
  await sql`alter table company_settings drop column gs1_company_prefix, drop column sscc_extension_digit`.execute(
    db,
  );
}
