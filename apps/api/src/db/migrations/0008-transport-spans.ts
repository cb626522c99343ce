import { type Kysely, sql } from 'kysely';

/**
 * The time span of a leg (pickup start to delivery end) as a range with a GiST index: the planning
 * list asks "which legs touch these days", an overlap that one index answers, where comparisons on
 * four nullable columns joined by OR make PostgreSQL read every earlier leg.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table transports add column span tstzrange generated always as (
      tstzrange(
        coalesce(pickup_from, delivery_from),
        greatest(coalesce(pickup_from, delivery_from), coalesce(delivery_to, delivery_from, pickup_to, pickup_from)),
        '[]')
    ) stored`.execute(db);
  await sql`create index transports_span on transports using gist (span)`.execute(db);
  await sql`analyze transports`.execute(db);
}
