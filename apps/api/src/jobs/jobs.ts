import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import {
  type CronItem,
  Logger,
  parseCronItems,
  type Runner,
  run,
  runMigrations,
  type Task,
  type WorkerEvents,
} from 'graphile-worker';
import { sql } from 'kysely';
import type pg from 'pg';
import type { SandboxStep } from '../config.ts';
import type { Db } from '../db/database.ts';

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

function workerLogger(log: FastifyBaseLogger): Logger {
  return new Logger(() => (level, message, meta) => {
    // The library's info lines (worker started, job completed) are chatter for an operator.
    if (level === 'error') log.error(meta ?? {}, message);
    else if (level === 'warning') log.warn(meta ?? {}, message);
    else log.debug(meta ?? {}, message);
  });
}

/** Creates or updates graphile-worker's own schema (`graphile_worker`); safe from several processes. */
export async function migrateJobs(pool: pg.Pool, log?: FastifyBaseLogger): Promise<void> {
  await runMigrations({ pgPool: pool, ...(log ? { logger: workerLogger(log) } : {}) });
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
  const events: WorkerEvents = new EventEmitter();
  events.on('job:failed', ({ job }) => opts.onJobFailed?.(job.task_identifier));
  return {
    register(name, handler) {
      tasks[name] = async (payload, helpers) => {
        await handler(payload as JobPayloads[typeof name], {
          attempt: helpers.job.attempts,
          maxAttempts: helpers.job.max_attempts,
        });
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
      runner = await run({
        parsedCronItems: parseCronItems(schedules),
        pgPool: opts.pool,
        concurrency: opts.concurrency,
        // server.ts owns SIGINT/SIGTERM and closes the app, which stops the worker (onClose).
        noHandleSignals: true,
        // New jobs arrive by LISTEN/NOTIFY at once; the poll only finds retries that came due.
        pollInterval: 1000,
        taskList: tasks,
        logger: workerLogger(opts.log),
        events,
      });
    },
    async stop() {
      const r = runner;
      runner = undefined;
      await r?.stop();
    },
    get running() {
      return runner !== undefined;
    },
  };
}
