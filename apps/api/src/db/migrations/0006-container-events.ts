import { type Kysely, sql } from 'kysely';

/**
 * Container events (DCSA Track & Trace), the containers list they feed, and the API keys the
 * integrations that post them sign in with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A key is shown once; only its SHA-256 is kept (it has 256 random bits: no salt or slow hash needed).
  await sql`
    create table integration_api_keys (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      key_prefix text not null,
      key_hash text not null unique,
      created_by uuid references users (id),
      created_at timestamptz not null default now(),
      revoked_at timestamptz,
      last_used_at timestamptz
    )`.execute(db);

  // uuidv7() is built into PostgreSQL 18; on older servers (an external DATABASE_URL) the same
  // time-ordered UUID comes from this function: 48 bits of Unix milliseconds, version 7, random rest.
  await sql`
    do $$ begin
      if not exists (select 1 from pg_proc where proname = 'uuidv7') then
        create function uuidv7() returns uuid language sql volatile as $f$
          select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                 placing substring(int8send((extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
                 from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
        $f$;
      end if;
    end $$`.execute(db);

  // Container numbers in the "C" collation: byte order, so every btree on them also serves prefix LIKE.
  // Ids are UUIDv7 (time-ordered): inserts append to the primary key instead of splitting pages all
  // over it. event_id is the DCSA eventID, a UUID: as uuid its unique index is half the size of text.
  await sql`
    create table container_events (
      id uuid primary key default uuidv7(),
      event_id uuid not null,
      event_type text not null check (event_type in ('EQUIPMENT', 'TRANSPORT', 'SHIPMENT')),
      classifier text not null check (classifier in ('PLN', 'EST', 'ACT')),
      event_date_time timestamptz not null,
      event_created_date_time timestamptz not null,
      equipment_event_type_code text,
      transport_event_type_code text,
      shipment_event_type_code text,
      equipment_reference text collate "C",
      iso_equipment_code text,
      empty_indicator_code text,
      un_location_code text,
      facility_code text,
      facility_type_code text,
      mode_of_transport text,
      vessel_imo text,
      vessel_name text,
      voyage text,
      document_type_code text,
      document_id text,
      document_references text[] not null default '{}',
      raw jsonb not null,
      dossier_id uuid references dossiers (id) on delete set null,
      source text not null check (source in ('api', 'csv', 'manual')),
      created_at timestamptz not null default now(),
      created_by uuid references users (id),
      api_key_id uuid references integration_api_keys (id),
      constraint container_events_event_id_key unique (event_id),
      constraint container_events_type_code check (
        (event_type = 'EQUIPMENT') = (equipment_event_type_code is not null) and
        (event_type = 'TRANSPORT') = (transport_event_type_code is not null) and
        (event_type = 'SHIPMENT') = (shipment_event_type_code is not null)
      )
    )`.execute(db);
  // A container's timeline (and its latest event, read backwards); prefix search by container number.
  await sql`create index container_events_timeline on container_events (equipment_reference, event_date_time, id)`.execute(
    db,
  );
  // The dossier's events tab; also what the foreign key's ON DELETE needs.
  await sql`create index container_events_dossier on container_events (dossier_id, event_date_time, id)`.execute(
    db,
  );
  // The unlinked list staff work through: small, so partial indexes keep it cheap at any volume.
  await sql`create index container_events_unlinked on container_events (event_date_time, id) where dossier_id is null`.execute(
    db,
  );
  await sql`create index container_events_unlinked_received on container_events (created_at, id) where dossier_id is null`.execute(
    db,
  );
  // "Events in the last 24 hours" (dashboard) and ingest monitoring.
  await sql`create index container_events_created_at on container_events (created_at)`.execute(db);

  /*
   * The latest event per container and dossier, kept by every ingest in the same statement: the
   * containers list pages over this (a few rows per container) instead of grouping millions of
   * events. A container number is reused from voyage to voyage, so the row is per dossier; events no
   * dossier claims share one row with a null dossier (NULLS NOT DISTINCT).
   */
  await sql`
    create table container_summaries (
      id uuid not null default uuidv7(),
      equipment_reference text collate "C" not null,
      dossier_id uuid references dossiers (id) on delete cascade,
      iso_equipment_code text,
      event_count integer not null,
      latest_event_id uuid not null,
      latest_is_act boolean not null,
      latest_event_date_time timestamptz not null,
      latest_event_created_date_time timestamptz not null,
      latest_event_type text not null,
      latest_type_code text not null,
      updated_at timestamptz not null default now(),
      -- Also the list's order by container number (id is the keyset tie-breaker).
      primary key (equipment_reference, id),
      constraint container_summaries_key unique nulls not distinct (equipment_reference, dossier_id)
    ) with (fillfactor = 80)`.execute(db);
  // Every ingest rewrites its containers' rows, and each index costs an entry per rewrite: only the
  // orders and filters the list needs.
  await sql`create index container_summaries_last_event on container_summaries (latest_event_date_time, id)`.execute(
    db,
  );
  await sql`create index container_summaries_dossier on container_summaries (dossier_id, latest_event_date_time, id)`.execute(
    db,
  );
}
