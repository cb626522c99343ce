import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BackupOverview, Health } from '@fvg/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../features/documents/storage.ts';
import { enqueue } from '../jobs/jobs.ts';
import { seedDemo } from '../seed/sign-ins.ts';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  DEMO_PASSWORDS,
  type TestDatabase,
  waitUntil,
} from '../test/helpers.ts';
import { BACKUP_FILE, oldestFirst } from './backup.ts';
import { lastBackup, runBackup } from './backup-job.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');
let db: TestDatabase;
const dirs: string[] = [];

async function tempDir(name: string): Promise<string> {
  const dir = path.join(tmpdir(), `fvg-${name}-${process.pid}-${Date.now()}`);
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
});
afterAll(async () => {
  await db.drop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('scheduled backups on the job queue', () => {
  it('the backup job writes a file per run, keeps the newest BACKUP_KEEP, and its outcome reaches /api/health and the admin', async () => {
    const dir = await tempDir('backup-job');
    const dataDir = await tempDir('backup-job-data');
    const app = await createTestApp(db, {
      jobsEnabled: true,
      dataDir,
      backup: { dir, cron: '0 3 * * *', keep: 2 },
    });
    try {
      // The schedule is registered with the worker (once per tick across nodes).
      expect(app.services.jobs.crontab.split('\n')).toContain('0 3 * * * backup.run');
      await waitUntil('the schedule registered', async () => {
        const known = await sql<{ identifier: string }>`
          select identifier from graphile_worker._private_known_crontabs`.execute(db.db);
        return known.rows.some((r) => r.identifier === 'backup.run');
      });

      // What a backup killed mid-way left: removed once a day old, left alone while it may be live.
      await mkdir(path.join(dir, '.fvg-backup-killed'), { recursive: true });
      await writeFile(path.join(dir, '.fvg-backup-20261101-020000Z.tar.gz.partial'), 'half');
      const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
      await utimes(path.join(dir, '.fvg-backup-killed'), dayAgo, dayAgo);
      await utimes(path.join(dir, '.fvg-backup-20261101-020000Z.tar.gz.partial'), dayAgo, dayAgo);
      await mkdir(path.join(dir, '.fvg-backup-running'));

      let before = (await lastBackup(db.db))?.at;
      for (let i = 0; i < 3; i++) {
        await enqueue(db.db, 'backup.run', {});
        await waitUntil(
          'the backup job to finish',
          async () => {
            const last = await lastBackup(db.db);
            return last !== null && last.at !== before;
          },
          60_000,
        );
        before = (await lastBackup(db.db))?.at;
      }
      const files = oldestFirst(await readdir(dir));
      expect(files).toHaveLength(2);
      expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual(['.fvg-backup-running']);
      const last = await lastBackup(db.db);
      expect(last).toMatchObject({ ok: true, trigger: 'schedule', message: null, file: files[1] });

      const health = (await app.inject('/api/health')).json() as Health;
      expect(health.backup).toEqual({ last: 'ok', at: last?.at });

      const admin = await bearer(app, ...DEMO_PASSWORDS.admin);
      const overview = await app.inject({ method: 'GET', url: '/api/backups', headers: admin });
      expect(overview.statusCode).toBe(200);
      expect(overview.json() as BackupOverview).toEqual({
        last,
        schedule: '0 3 * * *',
        keep: 2,
        dir,
      });
      const staff = await bearer(app, ...DEMO_PASSWORDS.staff);
      expect((await app.inject({ method: 'GET', url: '/api/backups', headers: staff })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  }, 180_000);

  it('a failed backup is recorded with its reason and /api/health says failed', async () => {
    const blocked = await tempDir('backup-blocked');
    await writeFile(blocked, 'a file where the backup folder should be');
    await expect(
      runBackup({
        db: db.db,
        url: db.url,
        store: createFileStore({ dataDir: await tempDir('unused'), s3: undefined }),
        dir: blocked,
        keep: 2,
        trigger: 'schedule',
      }),
    ).rejects.toThrow();
    const last = await lastBackup(db.db);
    expect(last).toMatchObject({ ok: false, file: null, trigger: 'schedule' });
    expect(last?.message).toMatch(/EEXIST|ENOTDIR/);
    const app = await createTestApp(db);
    try {
      const health = (await app.inject('/api/health')).json() as Health;
      expect(health.backup).toEqual({ last: 'failed', at: last?.at });
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('backup file names', () => {
  it('orders two backups of one second by their number, so rotation keeps the newer', () => {
    expect(
      oldestFirst([
        'fvg-backup-20261129-060720-1Z.tar.gz',
        'notes.txt',
        'fvg-backup-20261129-060720Z.tar.gz',
        'fvg-backup-20261128-235959Z.tar.gz',
        'fvg-backup-20261129-060720-12Z.tar.gz',
        'fvg-backup-20261129-060720-2Z.tar.gz',
      ]),
    ).toEqual([
      'fvg-backup-20261128-235959Z.tar.gz',
      'fvg-backup-20261129-060720Z.tar.gz',
      'fvg-backup-20261129-060720-1Z.tar.gz',
      'fvg-backup-20261129-060720-2Z.tar.gz',
      'fvg-backup-20261129-060720-12Z.tar.gz',
    ]);
  });
});

describe('npm run cli -- backup with DATABASE_URL', () => {
  it("backs up a database on a server reached by URL (the external one in CI's second run) and the backup verifies", async () => {
    const out = await tempDir('backup-url');
    const env = { ...process.env, DATABASE_URL: db.url, DATA_DIR: await tempDir('backup-url-data') };
    const backup = await run('npm', ['run', '-s', 'cli', '--', 'backup', '--out', out], {
      cwd: root,
      env,
      timeout: 120_000,
    });
    expect(backup.stdout).toMatch(/^backup written: /);
    const [file] = (await readdir(out)).filter((n) => BACKUP_FILE.test(n));
    expect(file).toBeDefined();
    const verify = await run('npm', ['run', '-s', 'cli', '--', 'verify', path.join(out, file as string)], {
      cwd: root,
      env,
      timeout: 120_000,
    });
    expect(verify.stdout).toMatch(/^OK: /);
    expect((await lastBackup(db.db))?.trigger).toBe('command');
  }, 240_000);
});
