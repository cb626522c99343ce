import { type Kysely, sql } from 'kysely';

/**
 * The planning list flags legs whose vehicle is busy with another leg at the same time, a page of
 * 500 legs at a time. Each leg names its vehicle in one normalised column (truck plate without spaces
 * and hyphens, vessel IMO or name, flight), and the span index carries it with the status and id, so
 * one index-only scan yields every leg of the range with its vehicle: PostgreSQL sorts them by vehicle
 * and time and window functions find the overlaps (ADR 0013), without touching the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table transports add column vehicle text generated always as (
      case
        when nullif(truck_plate, '') is not null then 'truck:' || upper(regexp_replace(truck_plate, '[[:space:]-]', '', 'g'))
        when nullif(vessel_imo, '') is not null then 'vessel:' || vessel_imo
        when nullif(vessel_name, '') is not null then 'vessel:' || upper(vessel_name)
        when nullif(flight_number, '') is not null then 'flight:' || flight_number
      end
    ) stored`.execute(db);
  await sql`drop index transports_span`.execute(db);
  await sql`create index transports_span on transports using gist (span) include (status, id, vehicle)`.execute(
    db,
  );
  await sql`analyze transports`.execute(db);
}
