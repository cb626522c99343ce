import { type Logger, runMigrations } from 'graphile-worker';
import type pg from 'pg';

/**
 * Creates or updates graphile-worker's own schema (`graphile_worker`, ADR 0027); safe from several
 * processes. Part of the database's schema like the app's migrations, so opening a database sets it up
 * without db/ knowing about the job runner (jobs/ adds its logger through `migrateJobs`).
 */
export async function migrateJobSchema(pool: pg.Pool, logger?: Logger): Promise<void> {
  await runMigrations({ pgPool: pool, ...(logger ? { logger } : {}) });
}
