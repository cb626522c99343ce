import path from 'node:path';
import type { BackupOverview, BackupStatus } from '@fvg/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { BackupConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { FileStore } from '../features/documents/storage.ts';
import type { Jobs } from '../jobs/jobs.ts';
import { type BackupResult, createBackup, rotateBackups } from './backup.ts';

/** The last backup's outcome lives in `settings`: every node (and the operator command) sees the same. */
const LAST_BACKUP = 'backup.last';

export async function recordBackup(db: Db, status: BackupStatus): Promise<void> {
  const value = JSON.stringify(status);
  await db
    .insertInto('settings')
    .values({ key: LAST_BACKUP, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

export async function lastBackup(db: Db): Promise<BackupStatus | null> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', LAST_BACKUP)
    .executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(row.value) as BackupStatus;
  } catch {
    return null;
  }
}

export async function backupOverview(db: Db, config: BackupConfig): Promise<BackupOverview> {
  return { last: await lastBackup(db), schedule: config.cron ?? null, keep: config.keep, dir: config.dir };
}

/** One line, for the status and the log. */
function reason(e: unknown): string {
  return e instanceof Error ? e.message.split('\n')[0] || e.name : String(e);
}

/**
 * Takes a backup into `dir`, records its outcome (success or failure) and, for the schedule, keeps
 * the newest `keep` files. The one path of the scheduled job and the operator command.
 */
export async function runBackup(opts: {
  db: Db;
  url: string;
  store: FileStore;
  dir: string;
  trigger: BackupStatus['trigger'];
  keep?: number;
}): Promise<BackupResult> {
  const started = Date.now();
  try {
    const result = await createBackup({ url: opts.url, store: opts.store, outDir: opts.dir });
    if (opts.keep) await rotateBackups(opts.dir, opts.keep);
    await recordBackup(opts.db, {
      at: new Date().toISOString(),
      ok: true,
      file: path.basename(result.file),
      bytes: result.bytes,
      durationMs: Date.now() - started,
      message: null,
      trigger: opts.trigger,
    }).catch(() => {});
    return result;
  } catch (e) {
    await recordBackup(opts.db, {
      at: new Date().toISOString(),
      ok: false,
      file: null,
      bytes: null,
      durationMs: Date.now() - started,
      message: reason(e),
      trigger: opts.trigger,
    }).catch(() => {});
    throw e;
  }
}

/**
 * The scheduled backup (`BACKUP_CRON`, once per tick across nodes). A failure is recorded and logged,
 * not retried: the next tick tries again, and the admin screen and /api/health show it meanwhile.
 */
export function registerBackupJob(
  jobs: Jobs,
  deps: { db: Db; url: string | undefined; store: FileStore; config: BackupConfig; log: FastifyBaseLogger },
): void {
  jobs.register('backup.run', async () => {
    if (!deps.url) return;
    try {
      const r = await runBackup({
        db: deps.db,
        url: deps.url,
        store: deps.store,
        dir: deps.config.dir,
        keep: deps.config.keep,
        trigger: 'schedule',
      });
      deps.log.info({ file: r.file, bytes: r.bytes }, 'backup written');
    } catch (e) {
      deps.log.error({ err: e }, `backup failed: ${reason(e)}`);
    }
  });
  if (deps.config.cron) {
    try {
      jobs.schedule('backup.run', deps.config.cron);
    } catch (e) {
      throw new Error(
        `BACKUP_CRON "${deps.config.cron}" is not a schedule the job queue takes: ${reason(e)}`,
      );
    }
  }
}
