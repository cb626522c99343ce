import { APP_VERSION, healthSchema } from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { lastBackup } from '../../backup/backup-job.ts';
import type { Db } from '../../db/database.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
      const up = await Promise.race([
        sql`select 1`.execute(db).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref()),
      ]);
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
};
