import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { app, DEMO, expect, screens, signIn, test } from './support.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

test('the company admin screen shows the last backup, taken by the operator command while the app runs', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO.admin);
  await page.goto('/admin/company?tab=backups');
  const adminModeOff = page.getByTestId('enable-admin-mode');
  const card = page.getByTestId('backup-card');
  /** Admin mode may be on or off after a load: switch it on when it is off. */
  const showCard = async () => {
    await expect(card.or(adminModeOff)).toBeVisible();
    if (await adminModeOff.isVisible()) await adminModeOff.click();
    await expect(card).toBeVisible();
  };
  await showCard();
  await expect(page.getByTestId('backup-schedule')).toHaveText(
    /^Backups run every day at \d\d:\d\d; the newest 14 are kept\.$/,
  );

  // The operator takes a backup of the running app's data folder.
  const out = await mkdtemp(path.join(tmpdir(), 'fvg-e2e-backup-'));
  try {
    const { stdout } = await run('npm', ['run', '-s', 'cli', '--', 'backup', '--out', out], {
      cwd: root,
      env: { ...process.env, DATA_DIR: app().dataDir, DATABASE_URL: '' },
      timeout: 120_000,
    });
    expect(stdout).toMatch(/^backup written: /);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
  await page.reload();
  await showCard();
  const last = page.getByTestId('backup-last');
  await expect(last).toHaveText(
    /^Last backup: \d{1,2} \w{3} \d{4}, \d\d:\d\d, completed \([\d.,]+ (KB|MB), taken with the backup command\)\.$/,
  );
  await screens(page, 'company-backups');
});
