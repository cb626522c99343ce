import { backupOverviewSchema } from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BackupConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { problemResponses } from '../records/routes.ts';
import { requireAdmin } from '../records/scope.ts';
import { backupOverview } from './backup-job.ts';

export const backupRoutes: FastifyPluginAsyncZod<{ db: Db; config: BackupConfig }> = async (
  app,
  { db, config },
) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/backups',
    {
      schema: {
        tags: ['system'],
        summary: 'The last backup, scheduled or by the operator command, and the backup settings (admins)',
        response: { 200: backupOverviewSchema, ...problemResponses },
      },
    },
    async (request) => {
      requireAdmin(request.user);
      return backupOverview(db, config);
    },
  );
};
