import { z } from 'zod';
import { healthBackupSchema } from './backups.ts';

/** `GET /api/health`: the process and its database, for the probes that ask one question (an object that grows). */
export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  database: z.enum(['up', 'down']),
  /** The last backup's outcome and time (`unknown` while the database is down). */
  backup: healthBackupSchema,
});
export type Health = z.infer<typeof healthSchema>;

/** `GET /api/health/live`: the process answers; nothing else is asked (a restart would not fix the database). */
export const livenessSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
});
export type Liveness = z.infer<typeof livenessSchema>;

/** What readiness checks: the database answers, every migration of this build ran, the job worker runs. */
export const readinessChecksSchema = z.object({
  database: z.enum(['up', 'down']),
  /** `unknown` while the database does not answer. */
  migrations: z.enum(['done', 'pending', 'unknown']),
  /** `off` where this node runs no worker (JOBS_ENABLED=false): ready all the same. */
  jobs: z.enum(['running', 'stopped', 'off']),
});
export type ReadinessChecks = z.infer<typeof readinessChecksSchema>;

/** `GET /api/health/ready` when ready; not ready is a 503 problem+json carrying the same `checks`. */
export const readinessSchema = z.object({
  status: z.literal('ready'),
  version: z.string(),
  checks: readinessChecksSchema,
});
export type Readiness = z.infer<typeof readinessSchema>;
