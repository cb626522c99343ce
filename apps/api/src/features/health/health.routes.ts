import {
  APP_VERSION,
  healthSchema,
  livenessSchema,
  problemSchema,
  type ReadinessChecks,
  readinessSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { lastBackup } from '../../backup/backup-job.ts';
import { type Db, pendingMigrations } from '../../db/database.ts';
import { sendProblem } from '../../plugins/errors.ts';

/** A database that does not answer within this is down, as far as a probe is concerned. */
const PROBE_TIMEOUT_MS = 2000;

function within<T>(work: Promise<T>, fallback: T): Promise<T> {
  return Promise.race([
    work.catch(() => fallback),
    new Promise<T>((resolve) => setTimeout(resolve, PROBE_TIMEOUT_MS, fallback).unref()),
  ]);
}

const databaseUp = (db: Db) =>
  within(
    sql`select 1`.execute(db).then(() => true),
    false,
  );

export interface HealthOptions {
  db: Db;
  /** The job worker of this process. */
  jobs: { readonly running: boolean };
  /** False where this process runs no worker (JOBS_ENABLED=false, or no pool): ready without one. */
  jobsExpected: boolean;
}

/**
 * `/health` (kept as it was for the probes and scripts that use it), `/health/live` (the process
 * answers) and `/health/ready` (it can serve: database, migrations, job worker). ADR 0055.
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, { db, jobs, jobsExpected }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database reachability',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const up = await databaseUp(db);
      // The last backup's outcome (ADR 0054): a monitor alerts on `failed` or an old `at`.
      const last = up ? await lastBackup(db).catch(() => undefined) : undefined;
      const backup = {
        last: last === undefined ? 'unknown' : last === null ? 'none' : last.ok ? 'ok' : 'failed',
        at: last?.at ?? null,
      } as const;
      return reply.status(up ? 200 : 503).send({
        status: up ? 'ok' : 'unavailable',
        version: APP_VERSION,
        database: up ? 'up' : 'down',
        backup,
      });
    },
  );

  app.get(
    '/health/live',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers (asks nothing of the database)',
        response: { 200: livenessSchema },
      },
    },
    () => ({ status: 'ok' as const, version: APP_VERSION }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers, its migrations ran and the job worker runs',
        description: 'Not ready answers 503 problem+json with the same `checks` and a Retry-After.',
        response: { 200: readinessSchema, 503: problemSchema },
      },
    },
    async (_request, reply) => {
      const up = await databaseUp(db);
      const pending = up ? await within(pendingMigrations(db), undefined) : undefined;
      const checks: ReadinessChecks = {
        database: up ? 'up' : 'down',
        migrations: pending === undefined ? 'unknown' : pending.length ? 'pending' : 'done',
        jobs: !jobsExpected ? 'off' : jobs.running ? 'running' : 'stopped',
      };
      if (checks.database === 'up' && checks.migrations === 'done' && checks.jobs !== 'stopped')
        return { status: 'ready' as const, version: APP_VERSION, checks };
      const failing = [
        checks.database === 'down' && 'the database does not answer',
        checks.migrations === 'pending' && `${pending?.length} migrations have not run`,
        checks.jobs === 'stopped' && 'the job worker is not running',
      ].filter(Boolean);
      return sendProblem(
        reply,
        {
          type: '/problems/not-ready',
          title: 'Not ready',
          status: 503,
          detail: `Not ready: ${failing.join('; ')}.`,
          instance: '/api/health/ready',
          checks,
        },
        { 'retry-after': '5' },
      );
    },
  );
};
