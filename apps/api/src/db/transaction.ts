import type { Db } from './database.ts';

/** Deadlock detected, serialization failure: another transaction's locks, worth one more try. */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Runs `work` in a transaction of `db`, or in `db` itself when it is one already: the demo seed runs
 * the services inside its own transaction, and Kysely cannot nest one (its work, its rollback).
 *
 * `retry: true` runs `work` once more on a deadlock or serialization failure. Only for work whose
 * whole effect is in the database (a retry repeats it): the lock order is one for everyone
 * (ADR 0035), so a retry is the rare case of another path's locks, not a loop. Inside a caller's
 * transaction there is no retry: it could not undo what the caller did before.
 */
export async function inTransaction<T>(
  db: Db,
  work: (trx: Db) => Promise<T>,
  opts: { retry?: boolean } = {},
): Promise<T> {
  if (db.isTransaction) return work(db);
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (opts.retry && attempt === 0 && code !== undefined && RETRYABLE.has(code)) continue;
      throw e;
    }
  }
}

/** `inTransaction` with its one retry on a deadlock or serialization failure (`retry: true`). */
export function inRetriedTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return inTransaction(db, work, { retry: true });
}
