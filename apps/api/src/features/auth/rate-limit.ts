import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * Fixed-window counters kept in PostgreSQL, so that every API node and every restart sees the same
 * counts (docs/adr/0004). Used for failed sign-ins per account and per address, and for reset mails.
 */
export interface RateLimiter {
  /** Seconds until the bucket frees up, or 0 when another hit is allowed. */
  retryAfter(buckets: string[]): Promise<number>;
  hit(buckets: string[]): Promise<void>;
  clear(bucket: string): Promise<void>;
}

export function createRateLimiter(db: Db, max: number, windowSeconds: number): RateLimiter {
  const windowInterval = sql.raw(`interval '${windowSeconds} seconds'`);
  return {
    async retryAfter(buckets) {
      if (max === 0) return 0;
      const rows = await db
        .selectFrom('rate_limit_hits')
        .select(['bucket', sql<number>`count(*)`.as('hits'), sql<Date>`min(at)`.as('oldest')])
        .where('bucket', 'in', buckets)
        .where('at', '>', sql<Date>`now() - ${windowInterval}`)
        .groupBy('bucket')
        .execute();
      let wait = 0;
      for (const row of rows) {
        if (Number(row.hits) >= max) {
          const freeAt = new Date(row.oldest).getTime() + windowSeconds * 1000;
          wait = Math.max(wait, 1, Math.ceil((freeAt - Date.now()) / 1000));
        }
      }
      return wait;
    },
    async hit(buckets) {
      await db
        .insertInto('rate_limit_hits')
        .values(buckets.map((bucket) => ({ bucket })))
        .execute();
      // Keep the table small: forget hits older than the window.
      await db
        .deleteFrom('rate_limit_hits')
        .where('bucket', 'in', buckets)
        .where('at', '<', sql<Date>`now() - ${windowInterval}`)
        .execute();
    },
    async clear(bucket) {
      await db.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).execute();
    },
  };
}
