import { isIPv6 } from 'node:net';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';

/**
 * Attempt limits kept in PostgreSQL, so that every API node and every restart sees the same counts
 * (docs/adr/0016, which replaces 0004). An attempt takes its slot in every bucket in one transaction
 * BEFORE the work it limits is done (a password verified, a mail sent), so parallel requests cannot
 * all see a free bucket: at most `max` attempts are ever evaluated per bucket and window.
 */
export interface BucketRule {
  key: string;
  max: number;
  windowSeconds: number;
  /** When false the attempt is counted in this bucket but a full bucket does not refuse it. */
  enforce?: boolean;
  /** A bucket that fills with failures blocks for window × 2^(earlier blocks), up to MAX_BLOCK_SECONDS. */
  backoff?: boolean;
}

export interface RateLimiter {
  /** Takes one slot in every bucket and answers 0, or takes none and answers the seconds to wait. */
  take(rules: BucketRule[]): Promise<number>;
  /** The attempt failed: a backoff bucket it filled starts its block. */
  fail(rules: BucketRule[]): Promise<void>;
  /**
   * The attempt succeeded: it gives its own slot back in every bucket. Failures and strikes stay, so
   * someone guessing from the owner's address gains no fresh guesses from the owner's sign-ins, and
   * the owner's own typos are forgotten with the window.
   */
  succeed(rules: BucketRule[]): Promise<void>;
  /** Forgets the bucket and its sub-buckets (`key|…`), e.g. every limit of an account after a reset. */
  clear(key: string): Promise<void>;
}

const MAX_BLOCK_SECONDS = 24 * 3600;
const PURGE_EVERY_MS = 60_000;
/** A bucket untouched this long starts over, earlier blocks forgotten. */
const FORGET_AFTER_SECONDS = 2 * MAX_BLOCK_SECONDS;

interface BucketRow {
  bucket: string;
  attempts: number;
  window_start: Date;
  strikes: number;
  blocked_until: Date | null;
  updated_at: Date;
  now: Date;
}

export function createRateLimiter(db: Db): RateLimiter {
  let lastPurge = 0;
  return {
    async take(rules) {
      const byKey = new Map(rules.map((r) => [r.key, r]));
      // One lock order for everyone (sorted keys), so two attempts sharing buckets cannot deadlock.
      const keys = [...byKey.keys()].sort();
      return inTransaction(db, async (trx) => {
        // The upsert locks each row until commit: a parallel attempt on the same bucket waits here
        // and then reads the count including this one.
        const { rows } = await sql<BucketRow>`
          insert into throttle_buckets (bucket)
          select unnest(${keys}::text[])
          on conflict (bucket) do update set bucket = excluded.bucket
          returning *, clock_timestamp() as now`.execute(trx);
        let wait = 0;
        const next = rows.map((row) => {
          const rule = byKey.get(row.bucket) as BucketRule;
          const now = row.now.getTime();
          const forgotten = now - row.updated_at.getTime() > FORGET_AFTER_SECONDS * 1000;
          const windowOver = now >= row.window_start.getTime() + rule.windowSeconds * 1000;
          const state = {
            attempts: windowOver || forgotten ? 0 : row.attempts,
            windowStart: windowOver || forgotten ? row.now : row.window_start,
            strikes: forgotten ? 0 : row.strikes,
          };
          if (rule.enforce !== false) {
            const blockedFor = row.blocked_until ? row.blocked_until.getTime() - now : 0;
            if (blockedFor > 0) wait = Math.max(wait, blockedFor);
            else if (state.attempts >= rule.max)
              wait = Math.max(wait, state.windowStart.getTime() + rule.windowSeconds * 1000 - now);
          }
          return { bucket: row.bucket, ...state };
        });
        if (wait > 0) return Math.max(1, Math.ceil(wait / 1000));
        for (const b of next) {
          await trx
            .updateTable('throttle_buckets')
            .set({
              attempts: b.attempts + 1,
              window_start: b.windowStart,
              strikes: b.strikes,
              updated_at: sql<Date>`clock_timestamp()`,
            })
            .where('bucket', '=', b.bucket)
            .execute();
        }
        return 0;
      });
    },

    async fail(rules) {
      for (const rule of rules) {
        if (!rule.backoff) continue;
        // One statement per bucket: the row lock makes the first failure that finds the bucket full
        // start the block and empty it, so parallel failures of the same window count one block.
        await sql`
          update throttle_buckets set
            blocked_until = clock_timestamp()
              + least(${rule.windowSeconds} * power(2, least(strikes, 20)), ${MAX_BLOCK_SECONDS}) * interval '1 second',
            strikes = strikes + 1,
            attempts = 0,
            window_start = clock_timestamp(),
            updated_at = clock_timestamp()
          where bucket = ${rule.key} and attempts >= ${rule.max}`.execute(db);
      }
      // Keep the table small: buckets nobody touched for long carry nothing worth keeping (take()
      // already treats them as forgotten, so once a minute is enough, off the path attackers hammer).
      if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
      lastPurge = Date.now();
      await db
        .deleteFrom('throttle_buckets')
        .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${FORGET_AFTER_SECONDS})`)
        .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', sql<Date>`now()`)]))
        .execute();
    },

    async succeed(rules) {
      if (rules.length === 0) return; // limits off
      await db
        .updateTable('throttle_buckets')
        .set({ attempts: sql<number>`greatest(attempts - 1, 0)` })
        .where(
          'bucket',
          'in',
          rules.map((r) => r.key),
        )
        .execute();
    },

    async clear(key) {
      await db
        .deleteFrom('throttle_buckets')
        .where((eb) => eb.or([eb('bucket', '=', key), eb(sql`starts_with(bucket, ${`${key}|`})`, '=', true)]))
        .execute();
    },
  };
}

/**
 * The address a limit is kept for. An IPv6 client usually holds a whole /64, so it counts as one
 * address; an IPv4-mapped IPv6 address is its IPv4 address.
 */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]?.split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
