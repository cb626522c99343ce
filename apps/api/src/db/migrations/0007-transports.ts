import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table transports (
      id uuid primary key default gen_random_uuid(),
      dossier_id uuid not null references dossiers (id) on delete cascade,
      sequence integer not null,
      status text not null default 'planned',
      mode text not null,
      carrier_id uuid references parties (id),
      truck_plate text,
      trailer_plate text,
      vessel_name text,
      vessel_imo text,
      flight_number text,
      pickup_locode text,
      pickup_address text,
      pickup_from timestamptz,
      pickup_to timestamptz,
      delivery_locode text,
      delivery_address text,
      delivery_from timestamptz,
      delivery_to timestamptz,
      actual_pickup_at timestamptz,
      actual_delivery_at timestamptz,
      driver_name text,
      driver_phone text,
      containers text[] not null default '{}',
      notes text,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid references users (id),
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id),
      unique (dossier_id, sequence)
    )`.execute(db);
  for (const [name, cols] of [
    ['pickup', 'pickup_from, id'],
    ['delivery', 'delivery_from, id'],
    ['carrier', 'carrier_id, pickup_from'],
    ['status', 'status, pickup_from'],
    ['updated_at', 'updated_at, id'],
    ['truck', 'truck_plate, pickup_from'],
  ] as const) {
    await sql.raw(`create index transports_${name} on transports (${cols})`).execute(db);
  }
}
