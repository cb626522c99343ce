import type { BackupOverview } from '@fvg/contracts';
import { Alert, Card, Stack, Text, Title } from '@mantine/core';
import { formatBytes } from '../../../lib/format.ts';
import { formatDateTime, formatTime } from '../../../lib/format-date.ts';

/** `m h * * *` (UTC) as "every day at 03:00" in the reader's time; any other pattern as written. */
export function scheduleLabel(cron: string, now: Date = new Date()): string {
  const m = /^(\d{1,2}) (\d{1,2}) \* \* \*$/.exec(cron.trim());
  if (!m) return `on the schedule “${cron}” (server time, UTC)`;
  const at = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), Number(m[2]), Number(m[1])),
  );
  return `every day at ${formatTime(at.toISOString())}`;
}

/**
 * The backups card of the company admin screen: when the last backup ran and how it went, and how
 * backups are set up. Read-only: BACKUP_DIR, BACKUP_CRON and BACKUP_KEEP are the operator's.
 */
export function BackupCard({ overview }: { overview: BackupOverview }) {
  const { last } = overview;
  return (
    <Card withBorder padding="lg" maw={720} data-testid="backup-card">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Backups
        </Title>
        {!last ? (
          <Alert color="yellow" data-testid="backup-last">
            No backup has been made yet.
          </Alert>
        ) : last.ok ? (
          <Text data-testid="backup-last">
            Last backup: <strong>{formatDateTime(last.at)}</strong>, completed ({formatBytes(last.bytes ?? 0)}
            , {last.trigger === 'schedule' ? 'scheduled' : 'taken with the backup command'}).
          </Text>
        ) : (
          <Alert color="red" title="The last backup failed" data-testid="backup-last">
            {formatDateTime(last.at)}: {last.message ?? 'no reason was given'}
          </Alert>
        )}
        <Text size="sm" data-testid="backup-schedule">
          {overview.schedule
            ? `Backups run ${scheduleLabel(overview.schedule)}; the newest ${overview.keep} are kept.`
            : 'Scheduled backups are off: the operator takes them with the backup command.'}
        </Text>
        <Text size="sm" c="dimmed" data-testid="backup-dir">
          Backup folder on the server: {overview.dir}
        </Text>
      </Stack>
    </Card>
  );
}
