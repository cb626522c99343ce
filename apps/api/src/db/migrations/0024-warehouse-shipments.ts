import { type Kysely, sql } from 'kysely';

/**
 * Shipments out of the customs warehouse (issue 13, ADR 0035): a shipment's lines name a SKU or a given
 * stock record; releasing it reserves stock first-in first-out and records each take as an allocation
 * (a stock record and, when the record has units, one root handling unit). The allocation's state
 * follows the shipment: reserved while it waits, picked once shipped, freed when cancelled. What is
 * reserved is counted on stock_records/handling_units (0023), whose checks make an oversell impossible.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table shipments (
      id uuid primary key default gen_random_uuid(),
      number text not null,
      owner_id uuid not null references parties (id),
      status text not null default 'draft'
        check (status in ('draft', 'released', 'picking', 'packed', 'shipped', 'cancelled')),
      consignee_id uuid references parties (id),
      consignee_name text,
      delivery_address text,
      planned_date date,
      outbound_procedure text check (outbound_procedure in ('4071', '3171')),
      declaration_id uuid references declarations (id),
      customer_reference text,
      notes text,
      released_at timestamptz,
      picking_at timestamptz,
      packed_at timestamptz,
      shipped_at timestamptz,
      cancelled_at timestamptz,
      cancel_reason text,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id) on delete set null,
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id) on delete set null,
      constraint shipments_number_key unique (number)
    )`.execute(db);
  // The list's default order is (created_at desc, id desc); each filter has an index ending the same way.
  await sql`create index shipments_created on shipments (created_at desc, id desc)`.execute(db);
  await sql`create index shipments_updated on shipments (updated_at desc, id desc)`.execute(db);
  await sql`create index shipments_status on shipments (status, created_at desc, id desc)`.execute(db);
  await sql`create index shipments_owner on shipments (owner_id, created_at desc, id desc)`.execute(db);
  await sql`create index shipments_planned on shipments (planned_date desc, id desc)`.execute(db);
  await sql`create index shipments_number_prefix on shipments (number text_pattern_ops)`.execute(db);
  await sql`create index shipments_customer_reference_prefix on shipments (upper(customer_reference) text_pattern_ops) where customer_reference is not null`.execute(
    db,
  );
  await sql`create index shipments_declaration on shipments (declaration_id) where declaration_id is not null`.execute(
    db,
  );

  await sql`
    create table shipment_lines (
      id uuid primary key default gen_random_uuid(),
      shipment_id uuid not null references shipments (id) on delete cascade,
      position integer not null check (position >= 1),
      sku text not null check (sku = upper(sku) and char_length(sku) between 1 and 40),
      stock_record_id uuid references stock_records (id),
      quantity integer not null check (quantity > 0),
      description text,
      constraint shipment_lines_position_key unique (shipment_id, position)
    )`.execute(db);
  await sql`create index shipment_lines_sku on shipment_lines (sku text_pattern_ops, shipment_id)`.execute(
    db,
  );
  await sql`create index shipment_lines_record on shipment_lines (stock_record_id) where stock_record_id is not null`.execute(
    db,
  );

  await sql`
    create table shipment_allocations (
      id uuid primary key default gen_random_uuid(),
      shipment_id uuid not null references shipments (id) on delete cascade,
      line_id uuid not null references shipment_lines (id) on delete cascade,
      stock_record_id uuid not null references stock_records (id),
      handling_unit_id uuid references handling_units (id),
      quantity integer not null check (quantity > 0),
      state text not null default 'reserved' check (state in ('reserved', 'picked', 'freed')),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index shipment_allocations_reserved on shipment_allocations (stock_record_id) where state = 'reserved'`.execute(
    db,
  );
  await sql`create index shipment_allocations_shipment on shipment_allocations (shipment_id, line_id)`.execute(
    db,
  );
  await sql`create index shipment_allocations_unit on shipment_allocations (handling_unit_id) where handling_unit_id is not null`.execute(
    db,
  );

  await sql`
    alter table stock_movements
      add constraint stock_movements_shipment_fkey foreign key (shipment_id) references shipments (id)`.execute(
    db,
  );
  await sql`create index stock_movements_shipment on stock_movements (shipment_id) where shipment_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index stock_movements_shipment`.execute(db);
  await sql`alter table stock_movements drop constraint stock_movements_shipment_fkey`.execute(db);
  await sql`drop table shipment_allocations`.execute(db);
  await sql`drop table shipment_lines`.execute(db);
  await sql`drop table shipments`.execute(db);
}
