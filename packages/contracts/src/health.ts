import { z } from 'zod';
import { healthBackupSchema } from './backups.ts';

export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  database: z.enum(['up', 'down']),
  /** The last backup's outcome and time (`unknown` while the database is down). */
  backup: healthBackupSchema,
});
export type Health = z.infer<typeof healthSchema>;
