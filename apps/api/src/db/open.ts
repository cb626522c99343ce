import type { Config } from '../config.ts';
import type { DatabaseStatus } from './availability.ts';
import { connect, type DatabaseHandle, migrate } from './database.ts';
import { startEmbedded } from './embedded.ts';
import { migrateJobSchema } from './job-schema.ts';
import { watchDatabase } from './watch.ts';

export interface OpenDatabase extends DatabaseHandle {
  /** Where the data lives, for the log (never includes the password). */
  where: string;
  /** True when this process started the embedded server (no other process of ours was using it). */
  startedHere: boolean;
  /** Up or down, probed; the embedded server is restarted when it dies (docs/adr/0053). */
  status: DatabaseStatus;
  /** Closes the pool and stops the embedded server when this process started it. */
  shutdown(): Promise<void>;
}

/**
 * The configured database, migrated: `DATABASE_URL` when set, otherwise the embedded server under
 * `DATA_DIR/pg` (started here, or attached to when another process of ours already runs it).
 */
export async function openDatabase(
  config: Config,
  log: (message: string) => void,
  /** What ends the process when the embedded server cannot be kept running (default: log it, exit 1). */
  giveUp?: (reason: string) => void,
): Promise<OpenDatabase> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbedded({ dataDir: config.dataDir, sharedBuffersMb: config.embeddedSharedBuffersMb, log });
  const url = config.databaseUrl ?? embedded?.url;
  if (!url) throw new Error('no database');
  const handle = connect(url);
  try {
    const applied = await migrate(handle.db);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    // The job queue's own schema, so a node with JOBS_ENABLED=false can enqueue too (ADR 0027).
    await migrateJobSchema(handle.pool);
  } catch (e) {
    await handle.close();
    await embedded?.stop();
    throw e;
  }
  const parsed = new URL(url);
  const watch = watchDatabase(config, handle, embedded, log, giveUp);
  return {
    ...handle,
    where: embedded ? `embedded PostgreSQL in ${config.dataDir}/pg` : `${parsed.host}${parsed.pathname}`,
    startedHere: embedded?.owned === true,
    status: watch.status,
    async shutdown() {
      watch.stop();
      await handle.close();
      await watch.stopServer();
    },
  };
}
