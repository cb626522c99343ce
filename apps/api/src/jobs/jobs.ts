import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import {
  type CronItem,
  Logger,
  makeWorkerUtils,
  parseCronItems,
  type Runner,
  run,
  type Task,
  type WorkerEvents,
} from 'graphile-worker';
import { sql } from 'kysely';
import type pg from 'pg';
import type { SandboxStep } from '../config.ts';
import { isDatabaseUnavailable } from '../db/availability.ts';
import type { Db } from '../db/database.ts';
import { migrateJobSchema } from '../db/job-schema.ts';
import { isStopping } from '../process-state.ts';

/** Every job name with its payload; a new kind of job adds its line here (ADR 0027). */
export interface JobPayloads {
  'mail.send': { outboxId: string };
  /** Renders an issued sales invoice or credit note to PDF and stores it as its document. */
  'invoice.pdf': { invoiceId: string };
  /** Tells handlers of the invoices that turned overdue (scheduled). */
  'invoices.mark-overdue': CronPayload;
  /** Renders the sent offer's PDF, stores it as a document and mails it to the offer's contact. */
  'offer.send': { offerId: string };
  /** Scheduled: sent offers past their valid-until become expired. */
  'offers.expire': CronPayload;
  /** Scheduled (BACKUP_CRON): a backup into BACKUP_DIR, keeping the newest BACKUP_KEEP (ADR 0054). */
  'backup.run': CronPayload;
  /** One answer of the sandbox customs authority (ADR 0033): the step of a declaration, answering a sent message. */
  'customs.sandbox': {
    declarationId: string;
    step: SandboxStep;
    messageId: string;
  };
}
/** What a scheduled job gets: graphile-worker's `_cron` (when it ran, and whether as a backfill); `{}` when queued by hand. */
export interface CronPayload {
  _cron?: { ts: string; backfilled?: boolean };
}
/**
 * The jobs that may run on a schedule: those whose payload may be empty (a schedule gives nothing but
 * graphile-worker's `_cron`, which `CronPayload` types for the handlers that read it).
 */
// biome-ignore lint/complexity/noBannedTypes: `{}` is the point: "a payload that may be empty"
export type ScheduledJobName = { [N in JobName]: {} extends JobPayloads[N] ? N : never }[JobName];
export type JobName = keyof JobPayloads;

export interface EnqueueOptions {
  /**
   * Singleton/dedupe key: there is at most one waiting job per key. Enqueueing again replaces its
   * payload and run time (`replace`, the default), its payload only (`preserve_run_at`), or leaves it
   * untouched (`unsafe_dedupe`, graphile-worker's name).
   */
  jobKey?: string;
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  /** Attempts before the job is given up (graphile-worker's default is 25). */
  maxAttempts?: number;
  runAt?: Date;
}

export interface JobContext {
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  maxAttempts: number;
}
export type JobHandler<N extends JobName> = (payload: JobPayloads[N], ctx: JobContext) => Promise<void>;

/**
 * Queues a job through graphile-worker's `add_job` SQL function on `executor`: pass the caller's Kysely
 * transaction and the job exists only if that transaction commits (a rollback leaves no job behind).
 */
export async function enqueue<N extends JobName>(
  executor: Db,
  name: N,
  payload: JobPayloads[N],
  options: EnqueueOptions = {},
): Promise<void> {
  const mode = options.jobKeyMode ?? 'replace';
  await sql`select graphile_worker.add_job(
      ${name}::text,
      ${JSON.stringify(payload)}::json,
      run_at := ${options.runAt ?? null}::timestamptz,
      max_attempts := ${options.maxAttempts ?? null}::int,
      job_key := ${options.jobKey ?? null}::text,
      job_key_mode := ${mode}::text
    )`.execute(executor);
}

function workerLogger(log: FastifyBaseLogger, resuming: () => boolean = () => false): Logger {
  return new Logger(() => (level, message, meta) => {
    // The library's info lines (worker started, job completed) are chatter for an operator; so are its
    // complaints while the database is away (the app says that once, and when it is back: ADR 0053).
    const cause = meta?.error ?? meta?.fatalError;
    // A worker that ended for want of the database is replaced by resume() below.
    const replaced = resuming() && /^Worker exited/.test(message);
    if (replaced || isDatabaseUnavailable(cause) || isDatabaseUnavailable({ message })) log.debug(message);
    else if (level === 'error') log.error(meta ?? {}, message);
    else if (level === 'warning') log.warn(meta ?? {}, message);
    else log.debug(meta ?? {}, message);
  });
}

/**
 * graphile-worker 0.16 prints the end of a worker with `console.trace` (a stack) before it logs the same
 * through our logger; when the worker ended because the database went away, that stack is noise (the
 * queue resumes, ADR 0053). Only those traces are dropped.
 */
let tracesQuieted = false;
function quietDatabaseTraces(): void {
  if (tracesQuieted) return;
  tracesQuieted = true;
  const trace = console.trace.bind(console);
  console.trace = (...args: unknown[]) => {
    if (args.length === 1 && isDatabaseUnavailable(args[0])) return;
    trace(...args);
  };
}

/** Creates or updates graphile-worker's own schema (`graphile_worker`); safe from several processes. */
export async function migrateJobs(pool: pg.Pool, log?: FastifyBaseLogger): Promise<void> {
  await migrateJobSchema(pool, log ? workerLogger(log) : undefined);
}

export interface Jobs {
  register<N extends JobName>(name: N, handler: JobHandler<N>): void;
  /**
   * Runs a registered job on a schedule (crontab syntax, UTC: `*\/5 * * * *` every 5 minutes) through
   * graphile-worker's crontab: once per tick across every node. Called before `start`.
   */
  schedule(name: ScheduledJobName, cron: string): void;
  /** The schedule as given to the worker, one `<cron> <name>` line per job (for operators and tests). */
  readonly crontab: string;
  /** Starts the worker (no-op without a pool or with JOBS_ENABLED=false). */
  start(): Promise<void>;
  /** Stops taking jobs and waits for the running ones to finish. */
  stop(): Promise<void>;
  readonly running: boolean;
}

export function createJobs(opts: {
  /** The app's pool; without one this process only enqueues and another node runs the jobs. */
  pool: pg.Pool | undefined;
  concurrency: number;
  log: FastifyBaseLogger;
  /** Told of every failed run of a job (an attempt; a retry may still succeed), by task name. */
  onJobFailed?: (task: string) => void;
}): Jobs {
  const tasks: Record<string, Task> = {};
  const schedules: CronItem[] = [];
  let runner: Runner | undefined;
  /**
   * Jobs whose handler finished but whose completion graphile-worker could not record (the database
   * went away in between): when such a job comes round again it is completed without running twice.
   */
  const finished = new Set<string>();
  /** The worker ids of the running runner, to free the jobs they held when they died (ADR 0053). */
  let workerIds: string[] = [];
  let recovering: Promise<void> | undefined;
  let stopping = false;

  const startRunner = async (pool: pg.Pool) => {
    quietDatabaseTraces();
    const events: WorkerEvents = new EventEmitter();
    const ids: string[] = [];
    workerIds = ids;
    events.on('worker:create', ({ worker }) => ids.push(worker.workerId));
    events.on('job:complete', ({ job, error }) => {
      if (!error) finished.delete(job.id);
    });
    // graphile-worker 0.16 ends a worker whose job's completion (or failure) could not be written, and
    // does not replace it; its job stays locked for 4 hours. Resume once the database answers again.
    events.on('worker:fatalError', () => recover(pool));
    events.on('job:failed', ({ job }) => opts.onJobFailed?.(job.task_identifier));
    const started = await run({
      parsedCronItems: parseCronItems(schedules),
      pgPool: patient(pool),
      concurrency: opts.concurrency,
      // server.ts owns SIGINT/SIGTERM and closes the app, which stops the worker (onClose).
      noHandleSignals: true,
      // New jobs arrive by LISTEN/NOTIFY at once; the poll only finds retries that came due.
      pollInterval: 1000,
      taskList: tasks,
      logger: workerLogger(opts.log, () => recovering !== undefined),
      events,
    });
    // The runner stops itself on an error it cannot carry on from (its schedule's query failed): it is
    // started again once the database answers, unless we stopped it.
    started.promise.catch(() => {
      if (!stopping && runner === started) recover(pool);
    });
    return started;
  };

  /**
   * The pool as the worker sees it: taking a connection waits while the database is away (until it is
   * back or the worker stops), so a job's completion or failure is written once it is back instead of
   * failing (which ends the worker, above). Its own LISTEN connection keeps the library's backoff.
   */
  const patient = (pool: pg.Pool): pg.Pool => {
    const connect = async (): Promise<pg.PoolClient> => {
      for (;;) {
        try {
          return await pool.connect();
        } catch (e) {
          if (stopping || !isDatabaseUnavailable(e)) throw e;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    };
    return new Proxy(pool, {
      get(target, prop) {
        if (prop === 'connect')
          return (callback?: unknown) =>
            callback ? (target.connect as (cb: unknown) => void)(callback) : connect();
        // The schedule's queries (graphile-worker's cron): one failure would stop the whole runner.
        if (prop === 'query')
          return async (...args: unknown[]) => {
            const client = await connect();
            try {
              return await (client.query as (...a: unknown[]) => Promise<unknown>)(...args);
            } finally {
              client.release();
            }
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };

  /** Waits for the database, then a new runner; the dead workers' jobs are freed for it. */
  async function resume(pool: pg.Pool): Promise<void> {
    opts.log.warn('job worker: the database went away; the queue resumes when it is back');
    while (!stopping && runner) {
      try {
        await pool.query('select 1');
        const old = runner;
        const ids = workerIds;
        await old.stop().catch(() => {}); // it may have stopped itself already
        const utils = await makeWorkerUtils({ pgPool: pool, logger: workerLogger(opts.log) });
        try {
          await utils.forceUnlockWorkers(ids);
        } finally {
          await utils.release();
        }
        if (stopping) return;
        runner = await startRunner(pool);
        opts.log.warn('job worker: resumed');
        return;
      } catch (e) {
        if (!isDatabaseUnavailable(e)) opts.log.error({ err: e }, 'job worker: could not resume yet');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
  const recover = (pool: pg.Pool) => {
    // Ctrl+C reaches the embedded PostgreSQL too (same process group): a stop is no outage to wait out.
    if (stopping || isStopping()) return;
    recovering ??= resume(pool).finally(() => {
      recovering = undefined;
    });
  };

  return {
    register(name, handler) {
      tasks[name] = async (payload, helpers) => {
        const id = helpers.job.id;
        if (finished.has(id)) return; // done already; only its completion was lost
        await handler(payload as JobPayloads[typeof name], {
          attempt: helpers.job.attempts,
          maxAttempts: helpers.job.max_attempts,
        });
        finished.add(id);
      };
    },
    schedule(name, cron) {
      if (runner) throw new Error(`schedule ${name} before the worker starts`);
      // Items, not crontab text: the text format does not take dotted task names. The identifier names
      // the schedule's "last run" row (known_crontabs), so a tick runs once however many nodes run.
      const item = { task: name, match: cron.trim(), identifier: name };
      parseCronItems([item]); // throws here, at registration, on a malformed pattern
      schedules.push(item);
    },
    get crontab() {
      return schedules.map((s) => `${s.match} ${s.task}`).join('\n');
    },
    async start() {
      if (!opts.pool || runner) return;
      stopping = false;
      runner = await startRunner(opts.pool);
    },
    async stop() {
      stopping = true;
      await recovering;
      const r = runner;
      runner = undefined;
      await r?.stop();
    },
    get running() {
      return runner !== undefined;
    },
  };
}
