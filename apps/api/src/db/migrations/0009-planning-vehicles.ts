import { type Kysely, sql } from 'kysely';

/**
 * The planning list flags legs whose vehicle is busy with another leg at the same time. With paging,
 * a page cannot compare its legs with each other only: the other leg may be on another page or
 * outside the range. So each leg names its vehicle in one normalised column (truck plate without
 * spaces and hyphens, vessel IMO or name, flight) and a GiST index over (vehicle, span) finds an
 * overlapping leg of the same vehicle in one probe. btree_gist is a trusted extension: the database
 * owner may create it without superuser rights (PostgreSQL 13 and later).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists btree_gist`.execute(db);
  await sql`
    alter table transports add column vehicle text generated always as (
      case
        when nullif(truck_plate, '') is not null then 'truck:' || upper(regexp_replace(truck_plate, '[[:space:]-]', '', 'g'))
        when nullif(vessel_imo, '') is not null then 'vessel:' || vessel_imo
        when nullif(vessel_name, '') is not null then 'vessel:' || upper(vessel_name)
        when nullif(flight_number, '') is not null then 'flight:' || flight_number
      end
    ) stored`.execute(db);
  await sql`create index transports_vehicle_span on transports using gist (vehicle, span)
    where vehicle is not null and status <> 'cancelled'`.execute(db);
  await sql`analyze transports`.execute(db);
}
