import { makeWorkerUtils } from 'graphile-worker';
import type pg from 'pg';

/**
 * Returns to the queue the jobs that workers of an earlier run had taken and never finished: on
 * Ctrl+C the embedded PostgreSQL (in the app's process group) gets the signal as the app does and
 * aborts a running job's transaction before the worker can finish or release it; a hard kill does the
 * same. graphile-worker would leave such a job locked for four hours. Called only when no other
 * process can be running a worker: this process has just started the embedded server itself
 * (issue 24 item 7). Returns how many jobs went back.
 */
export async function returnAbandonedJobs(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ locked_by: string; jobs: number }>(
    `select locked_by, count(*)::int as jobs from graphile_worker._private_jobs
      where locked_by is not null group by locked_by`,
  );
  if (rows.length === 0) return 0;
  const utils = await makeWorkerUtils({ pgPool: pool });
  try {
    await utils.forceUnlockWorkers(rows.map((r) => r.locked_by));
  } finally {
    await utils.release();
  }
  return rows.reduce((n, r) => n + r.jobs, 0);
}
