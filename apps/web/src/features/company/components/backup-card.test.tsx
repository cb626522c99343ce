import type { BackupOverview } from '@fvg/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../test/render-route.tsx';
import { BackupCard, scheduleLabel } from './backup-card.tsx';

const base: BackupOverview = {
  last: null,
  schedule: '0 2 * * *',
  keep: 14,
  dir: '/srv/fvg/backups',
};

const render = (overview: BackupOverview) =>
  renderRoute(<BackupCard overview={overview} />, { path: '/admin/company', url: '/admin/company' });

describe('BackupCard', () => {
  it('says when the last backup ran and how it went, in words and local time, never as raw values', async () => {
    await render({
      ...base,
      last: {
        at: '2026-11-29T02:00:41.512Z',
        ok: true,
        file: 'fvg-backup-20261129-020000Z.tar.gz',
        bytes: 3.5 * 1024 * 1024,
        durationMs: 41_000,
        message: null,
        trigger: 'schedule',
      },
    });
    const last = screen.getByTestId('backup-last').textContent ?? '';
    expect(last).toMatch(/^Last backup: 29 Nov 2026, \d\d:\d\d, completed \(3\.5 MB, scheduled\)\.$/);
    expect(screen.getByTestId('backup-card').textContent).not.toMatch(/2026-11-29T|schedule'|\* \* \*/);
    expect(screen.getByTestId('backup-schedule').textContent).toMatch(
      /^Backups run every day at \d\d:\d\d; the newest 14 are kept\.$/,
    );
    expect(screen.getByTestId('backup-dir').textContent).toBe(
      'Backup folder on the server: /srv/fvg/backups',
    );
  });

  it('shows a failed backup with its reason, and says so when there is none yet or no schedule', async () => {
    await render({
      ...base,
      last: {
        at: '2026-11-29T02:00:00Z',
        ok: false,
        file: null,
        bytes: null,
        durationMs: 10,
        message: 'ENOSPC: no space left on device',
        trigger: 'schedule',
      },
    });
    expect(screen.getByText('The last backup failed')).toBeTruthy();
    expect(screen.getByTestId('backup-last').textContent).toMatch(/29 Nov 2026.*no space left on device/);
  });

  it('without a backup or a schedule', async () => {
    await render({ ...base, schedule: null });
    expect(screen.getByTestId('backup-last').textContent).toBe('No backup has been made yet.');
    expect(screen.getByTestId('backup-schedule').textContent).toMatch(/^Scheduled backups are off/);
  });

  it('names a schedule other than once a day as written, in UTC', () => {
    expect(scheduleLabel('*/30 * * * *')).toBe('on the schedule “*/30 * * * *” (server time, UTC)');
  });
});
