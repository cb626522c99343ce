import type { Config } from '../config.ts';
import { createDatabaseStatus, type DatabaseStatus } from './availability.ts';
import type { DatabaseHandle } from './database.ts';
import { type EmbeddedServer, startEmbedded } from './embedded.ts';
import { type Supervisor, superviseEmbedded } from './supervise.ts';

export interface DatabaseWatch {
  status: DatabaseStatus;
  /** Stops probing and supervising (a clean stop is no death); the pool is closed after this. */
  stop(): void;
  /** Leaves the embedded server in use now (the first one, or the one a restart started). */
  stopServer(): Promise<void>;
}

/**
 * The database's status for this process (probed, docs/adr/0053) and, for the embedded server, its
 * supervisor: restarted when it dies, the process ended non-zero when that fails or happens too often.
 */
export function watchDatabase(
  config: Config,
  handle: DatabaseHandle,
  embedded: EmbeddedServer | undefined,
  log: (message: string) => void,
  giveUp: (reason: string) => void = (reason) => {
    log(reason);
    process.exit(1);
  },
): DatabaseWatch {
  const status = createDatabaseStatus({
    probe: () => probe(handle),
    log,
  });
  let supervisor: Supervisor | undefined;
  if (embedded)
    supervisor = superviseEmbedded({
      first: embedded,
      restart: (port) =>
        startEmbedded({
          dataDir: config.dataDir,
          sharedBuffersMb: config.embeddedSharedBuffersMb,
          log,
          port,
        }),
      status,
      policy: { maxRestarts: config.pgRestartMax, windowMs: config.pgRestartWindowSeconds * 1000 },
      log,
      pools: [handle.pool],
      giveUp,
    });
  return {
    status,
    stop: () => status.stop(),
    stopServer: async () => {
      await supervisor?.stop();
    },
  };
}

/** `select 1`, given up after 3 s (a pool busy with long work says nothing about the server). */
async function probe(handle: DatabaseHandle): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      handle.pool.query('select 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer within 3 s')), 3000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
