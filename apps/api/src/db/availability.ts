/*
 * Whether the database answers (docs/adr/0053). One classifier of "the database is not there" errors,
 * used by the HTTP error handler (503 + Retry-After instead of a 500), the hub, the job queue and the
 * supervisor; and one status per process that says when it went away and when it came back.
 */

/** What the API tells a client to wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * SQLSTATE codes of a server that is not (or no longer, or not yet) there: class 08 (connection
 * exception), 57P01 admin shutdown (a fast stop, or the backends of a killed postmaster), 57P02 crash
 * shutdown, 57P03 cannot connect now (starting up, in crash recovery), 53300 too many connections.
 */
const SQLSTATES = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** The socket's own errors: refused, reset, unreachable, name not resolved. */
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** node-postgres says these in words only (no code). */
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed and is not queryable|Connection is closed/i;

/** True when `error` (or what caused it) says the database could not be reached, not that a query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e)) return false;
    seen.add(e);
    const { code, message, cause, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (SQLSTATES.test(code) || NODE_CODES.has(code))) return true;
    if (typeof code !== 'string' && typeof message === 'string' && MESSAGES.test(message)) return true;
    // AggregateError: every address of a host refused.
    if (Array.isArray(errors) && errors.length > 0 && errors.every((x) => walk(x))) return true;
    return walk(cause);
  };
  return walk(error);
}

/** One line about the error, for the log: no stack. */
export function unavailableReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' && e.message ? e.message : String(error);
  return typeof e?.code === 'string' && !message.includes(e.code) ? `${message} (${e.code})` : message;
}

export type DatabaseState = 'up' | 'down';

export interface DatabaseStatus {
  readonly state: DatabaseState;
  /** Called on every change (down → up, up → down); returns the unsubscribe. */
  subscribe(listener: (state: DatabaseState) => void): () => void;
  /** An operation failed: if for want of the database, the status goes down and it is probed until back. */
  reportError(error: unknown): void;
  /** The supervisor knows it is gone (the postmaster died) or back (restarted). */
  markDown(reason: string): void;
  markUp(): void;
  /** Resolves when the database answers again (at once when it is up). */
  whenUp(): Promise<void>;
  stop(): void;
}

export interface DatabaseStatusOptions {
  /** A cheap query (`select 1`); rejects when the database does not answer. */
  probe: () => Promise<unknown>;
  log?: (message: string) => void;
  /** How often it is asked while up (default 5 s) and while down (default 1 s). */
  upIntervalMs?: number;
  downIntervalMs?: number;
}

/**
 * The database's status for this process: a cheap probe every few seconds while up (so an external
 * server that went away is noticed without traffic), every second while down; any failed operation
 * that says "unreachable" turns it down at once. Each change is one log line.
 */
export function createDatabaseStatus({
  probe,
  log,
  upIntervalMs = 5000,
  downIntervalMs = 1000,
}: DatabaseStatusOptions): DatabaseStatus {
  let state: DatabaseState = 'up';
  let since = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let probing = false;
  const listeners = new Set<(state: DatabaseState) => void>();
  let waiters: (() => void)[] = [];

  const set = (next: DatabaseState, reason?: string) => {
    if (next === state || stopped) return;
    const seconds = ((Date.now() - since) / 1000).toFixed(1);
    state = next;
    since = Date.now();
    if (next === 'down')
      log?.(`database unreachable: ${reason ?? 'no answer'}; answering 503 until it is back`);
    else log?.(`database reachable again after ${seconds} s`);
    if (next === 'up') {
      const release = waiters;
      waiters = [];
      for (const w of release) w();
    }
    for (const listener of listeners) listener(next);
    schedule();
  };

  const ask = async () => {
    if (probing || stopped) return;
    probing = true;
    try {
      await probe();
      set('up');
    } catch (e) {
      if (isDatabaseUnavailable(e)) set('down', unavailableReason(e));
    } finally {
      probing = false;
    }
  };

  function schedule() {
    clearInterval(timer);
    if (stopped) return;
    timer = setInterval(() => void ask(), state === 'up' ? upIntervalMs : downIntervalMs);
    timer.unref();
  }
  schedule();

  return {
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reportError(error) {
      if (state === 'up' && isDatabaseUnavailable(error)) set('down', unavailableReason(error));
    },
    markDown: (reason) => set('down', reason),
    markUp: () => set('up'),
    whenUp: () =>
      state === 'up' ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    stop() {
      stopped = true;
      clearInterval(timer);
      const release = waiters;
      waiters = [];
      for (const w of release) w();
    },
  };
}

/**
 * Runs `work`, and again while it fails for want of the database, until `timeoutMs` passed: for a step
 * that must not be lost or done twice around an outage (marking a sent mail sent).
 */
export async function retryWhileUnavailable<T>(
  work: () => Promise<T>,
  { timeoutMs = 120_000, delayMs = 500 }: { timeoutMs?: number; delayMs?: number } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await work();
    } catch (e) {
      if (!isDatabaseUnavailable(e) || Date.now() + delayMs > until) throw e;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
