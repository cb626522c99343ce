import { z } from 'zod';

/** The outcome of the last backup, scheduled or run by the operator command (ADR 0054). */
export const backupStatusSchema = z.object({
  /** When it finished (ISO 8601). */
  at: z.string(),
  ok: z.boolean(),
  /** The backup file's name (in the backup folder); null when it failed. */
  file: z.string().nullable(),
  bytes: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** Why it failed; null when it succeeded. */
  message: z.string().nullable(),
  trigger: z.enum(['schedule', 'command']),
});
export type BackupStatus = z.infer<typeof backupStatusSchema>;

/** What the admin screen shows about backups (read-only: the operator sets them up). */
export const backupOverviewSchema = z.object({
  last: backupStatusSchema.nullable(),
  /** BACKUP_CRON (crontab, UTC); null when scheduled backups are off. */
  schedule: z.string().nullable(),
  /** BACKUP_KEEP. */
  keep: z.number().int(),
  /** BACKUP_DIR on the server. */
  dir: z.string(),
});
export type BackupOverview = z.infer<typeof backupOverviewSchema>;

/** The health answer's backup key: enough for a monitor, nothing about the server's folders. */
export const healthBackupSchema = z.object({
  last: z.enum(['ok', 'failed', 'none', 'unknown']),
  at: z.string().nullable(),
});
