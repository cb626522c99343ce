import { sql } from 'kysely';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import type { HubStats } from '../hub/protocol/connection.ts';

/** Why a sign-in was refused, as counted by `fvg_sign_in_refusals_total`. */
export type SignInRefusal = 'wrong_credentials' | 'rate_limited';

/** Seconds: from a cached read (a few ms) to a slow export or a held long poll. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A database that does not answer must not hold a scrape: its figures are left out after this. */
const QUEUE_QUERY_TIMEOUT_MS = 1000;

let processRegistry: Registry | undefined;
/**
 * Node's own figures (memory, CPU, event loop, GC) are the process's, not an app's: collected once per
 * process, whatever the number of apps built in it (tests build many), and merged into each scrape.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'fvg_' });
  }
  return processRegistry;
}

export interface MetricSources {
  db: Db;
  pool?: pg.Pool;
  hub?: () => { connections: number; stats: HubStats } | undefined;
}

/**
 * The app's metrics on a registry of its own (one per app, so that apps built side by side in one
 * process count apart). The HTTP figures are labelled by route pattern, never by the raw URL, so
 * that ids in paths cannot grow the series without bound.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  let sources: MetricSources | undefined;

  const httpRequests = new Counter({
    name: 'fvg_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'fvg_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const signInRefusals = new Counter({
    name: 'fvg_sign_in_refusals_total',
    help: 'Sign-ins refused: wrong e-mail or password, or too many attempts.',
    labelNames: ['reason'] as const,
    registers,
  });
  const jobFailures = new Counter({
    name: 'fvg_jobs_failures_total',
    help: 'Job runs that failed in this process (each failed attempt; a retry may still succeed).',
    labelNames: ['task'] as const,
    registers,
  });
  new Gauge({
    name: 'fvg_db_pool_connections',
    help: "The database pool's connections: total open, idle, and callers waiting for one.",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = sources?.pool;
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'fvg_jobs_queued',
    help: 'Jobs in the queue: waiting (due or scheduled), running (locked by a worker), failed (given up after their last attempt).',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      if (!sources) return;
      this.reset();
      const counts = await queueCounts(sources.db);
      if (!counts) return;
      for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'fvg_hub_connections',
    help: 'Hub connections open on this node (every transport).',
    registers,
    collect() {
      const hub = sources?.hub?.();
      if (hub) this.set(hub.connections);
    },
  });
  new Counter({
    name: 'fvg_hub_messages_total',
    help: 'Hub messages on this node: received from clients (in) and sent to them (out), pings not counted.',
    labelNames: ['direction'] as const,
    registers,
    collect() {
      const hub = sources?.hub?.();
      if (!hub) return;
      this.reset();
      this.inc({ direction: 'in' }, hub.stats.messagesIn);
      this.inc({ direction: 'out' }, hub.stats.messagesOut);
    },
  });

  return {
    /** Where the gauges read from; set once the app has built them. */
    watch(s: MetricSources) {
      sources = s;
    },
    observeRequest(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, seconds);
    },
    signInRefused(reason: SignInRefusal) {
      signInRefusals.inc({ reason });
    },
    jobFailed(task: string) {
      jobFailures.inc({ task });
    },
    contentType: registry.contentType,
    /** The Prometheus text exposition of this app's metrics and the process's. */
    async text(): Promise<string> {
      return Registry.merge([registry, processMetrics()]).metrics();
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** The job queue by state, read from graphile-worker's table; undefined when the database does not answer. */
async function queueCounts(db: Db): Promise<Record<'waiting' | 'running' | 'failed', number> | undefined> {
  const query = sql<{ waiting: string; running: string; failed: string }>`
    select count(*) filter (where locked_at is null and attempts < max_attempts) as waiting,
           count(*) filter (where locked_at is not null) as running,
           count(*) filter (where locked_at is null and attempts >= max_attempts) as failed
      from graphile_worker._private_jobs`.execute(db);
  const timeout = new Promise<undefined>((resolve) =>
    setTimeout(resolve, QUEUE_QUERY_TIMEOUT_MS, undefined).unref(),
  );
  const row = await Promise.race([query.then((r) => r.rows[0]).catch(() => undefined), timeout]);
  if (!row) return undefined;
  return { waiting: Number(row.waiting), running: Number(row.running), failed: Number(row.failed) };
}
