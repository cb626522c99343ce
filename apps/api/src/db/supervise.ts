import type pg from 'pg';
import { isStopping } from '../process-state.ts';
import type { DatabaseStatus } from './availability.ts';
import type { EmbeddedServer } from './embedded.ts';

/** How often the embedded server may be restarted before the app gives up (docs/adr/0053). */
export interface RestartPolicy {
  /** Restarts allowed within the window (PG_RESTART_MAX, default 5); one more death ends the app. */
  maxRestarts: number;
  /** The window in milliseconds (PG_RESTART_WINDOW_SECONDS, default 600). */
  windowMs: number;
}

export interface Supervisor {
  /** The server in use now (a restart replaces it). */
  current(): EmbeddedServer;
  /** Stops watching, waits for a restart in progress, and leaves (stops) the current server. */
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  first: EmbeddedServer;
  /** Starts the server again on the data folder, on `port` when free (the pool's address stays right). */
  restart: (port: number) => Promise<EmbeddedServer>;
  status: DatabaseStatus;
  policy: RestartPolicy;
  log: (message: string) => void;
  /** The pools that must follow the server if it comes back on another address. */
  pools: pg.Pool[];
  /** Restarting failed, or the server died too often: end the process non-zero (a supervisor restarts it). */
  giveUp: (reason: string) => void;
}

/**
 * Watches the embedded postmaster and restarts it on the same data folder when it dies on its own
 * (killed, out of memory): PostgreSQL's crash recovery replays the WAL, so every acknowledged commit is
 * there. Meanwhile the status is down (the API answers 503); the pool's broken connections are dropped
 * by node-postgres and new ones go to the restarted server. At most `maxRestarts` in `windowMs`.
 */
export function superviseEmbedded({
  first,
  restart,
  status,
  policy,
  log,
  pools,
  giveUp,
}: SuperviseOptions): Supervisor {
  let current = first;
  let stopping = false;
  let recovering: Promise<void> | undefined;
  const restarts: number[] = [];

  const watch = (server: EmbeddedServer) => {
    void server.died.then((how) => {
      // A stop of the process (Ctrl+C reaches the server too: same process group) is no death.
      if (stopping || isStopping() || server !== current) return;
      recovering = recover(server, how).finally(() => {
        recovering = undefined;
      });
    });
  };

  async function recover(dead: EmbeddedServer, how: string) {
    const diedAt = Date.now();
    status.markDown(`the embedded PostgreSQL (pid ${dead.pid}) ${how}`);
    while (restarts.length && (restarts[0] as number) <= diedAt - policy.windowMs) restarts.shift();
    const windowText = `${Math.round(policy.windowMs / 1000)} s`;
    if (restarts.length >= policy.maxRestarts) {
      giveUp(
        `the embedded PostgreSQL (pid ${dead.pid}) ${how} again: ${restarts.length + 1} deaths within ${windowText} (PG_RESTART_MAX=${policy.maxRestarts}); exiting so that a supervisor restarts the app`,
      );
      return;
    }
    restarts.push(diedAt);
    log(
      `the embedded PostgreSQL (pid ${dead.pid}) ${how}; restarting it on port ${dead.port} (restart ${restarts.length} of ${policy.maxRestarts} within ${windowText})`,
    );
    await dead.stop().catch(() => {});
    let next: EmbeddedServer;
    try {
      next = await restart(dead.port);
    } catch (e) {
      giveUp(`the embedded PostgreSQL could not be restarted: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (stopping) {
      await next.stop();
      return;
    }
    current = next;
    if (next.url !== dead.url) {
      // Another port (ours was taken meanwhile, or another process of ours started it first).
      for (const pool of pools)
        (pool as unknown as { options: { connectionString: string } }).options.connectionString = next.url;
    }
    log(
      `the embedded PostgreSQL is back (pid ${next.pid}, port ${next.port}) after ${((Date.now() - diedAt) / 1000).toFixed(1)} s`,
    );
    status.markUp();
    watch(next);
  }

  watch(first);
  return {
    current: () => current,
    async stop() {
      stopping = true;
      await recovering;
      await current.stop();
    },
  };
}
