/**
 * Whether this process has been asked to stop (a signal, a fault): set by lifecycle.ts, read by code
 * that must tell an expected end (connections ended by the stop) from a failure worth an error line.
 */
let stopping = false;

export function markStopping(): void {
  stopping = true;
}

export function isStopping(): boolean {
  return stopping;
}

/** A database connection ended under a client (PostgreSQL's shutdown, or the client's own words). */
export function isConnectionLoss(reason: unknown): boolean {
  const e = reason as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === 'string' && /^(57P|08|ECONNREFUSED$|ECONNRESET$)/.test(e.code)) return true;
  return /Connection terminated|not queryable|terminating connection|shutting down|ECONNREFUSED|ECONNRESET/i.test(
    String(e?.message ?? ''),
  );
}

/** Long enough for the process's own signal handler to have run when Ctrl+C caused the failure. */
export const STOP_SETTLE_MS = 1000;

/**
 * Reports a failure of background work unless a stop explains it: nothing while the process stops; a
 * lost connection waits `STOP_SETTLE_MS` first, because Ctrl+C and a supervisor's SIGTERM reach the
 * embedded PostgreSQL (same process group) as they reach the app, and a client may lose its
 * connection before the app's own signal handler has run.
 */
export function reportUnlessStopping(reason: unknown, report: () => void): void {
  if (stopping) return;
  if (!isConnectionLoss(reason)) report();
  else
    setTimeout(() => {
      if (!stopping) report();
    }, STOP_SETTLE_MS).unref();
}
