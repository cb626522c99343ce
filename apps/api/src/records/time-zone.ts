import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { problems } from '../http/problem.ts';

/** The first instant of calendar day `day` in time zone `tz` (IANA), as PostgreSQL computes it. */
export function dayStart(day: string, tz: string, plusDays = 0): RawBuilder<unknown> {
  return sql`((${day}::date + ${plusDays}::int)::timestamp at time zone ${tz})`;
}

/**
 * Runs a query that uses a client's time zone: a zone the browser knows but PostgreSQL's tz data
 * does not (rare, new zones) answers 400 on `tz` instead of a 500.
 */
export async function withTimeZone<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if ((e as { code?: string }).code === '22023' && /time zone/i.test(String((e as Error).message)))
      throw problems.validation([{ field: 'tz', message: 'This time zone is not known to the database' }]);
    throw e;
  }
}

/**
 * Whether PostgreSQL's tz data knows the zone: one the runtime knows but the database does not would,
 * once stored as a preference, fail every later query that uses it.
 */
export async function zoneKnownToDatabase(db: Db, tz: string): Promise<boolean> {
  try {
    await sql`select now() at time zone ${tz}`.execute(db);
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === '22023') return false;
    throw e;
  }
}
