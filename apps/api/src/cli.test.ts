import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from './db/seed.ts';
import { createTestDatabase, type TestDatabase } from './test/helpers.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
});
afterAll(() => db.drop());

/** Runs `npm run cli -- …` as an operator would, against this file's database. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'cli', '--', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('npm run cli -- users:add', () => {
  it('creates a customer user with cw_access', async () => {
    const r = await cli(
      'users:add',
      '--email',
      'ops@acme.example',
      '--password',
      'operator-pass-1',
      '--role',
      'customer',
      '--party',
      'ACME',
      '--cw-access',
    );
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/created customer ops@acme\.example/);
    const row = await db.db
      .selectFrom('users')
      .select(['role', 'cw_access'])
      .where('email', '=', 'ops@acme.example')
      .executeTakeFirst();
    expect(row).toEqual({ role: 'customer', cw_access: true });
  });

  it('exits non-zero with a clear message for a duplicate email', async () => {
    const r = await cli(
      'users:add',
      '--email',
      'admin@fvg.local',
      '--password',
      'operator-pass-1',
      '--role',
      'staff',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already exists/);
  });

  it('exits non-zero for an unknown party and for a bad role', async () => {
    const party = await cli(
      'users:add',
      '--email',
      'p@x.test',
      '--password',
      'operator-pass-1',
      '--role',
      'customer',
      '--party',
      'NOPE',
    );
    expect(party.code).toBe(1);
    expect(party.stderr).toMatch(/No party has the code "NOPE"/);
    const role = await cli(
      'users:add',
      '--email',
      'p@x.test',
      '--password',
      'operator-pass-1',
      '--role',
      'boss',
    );
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/--role must be one of admin, staff, customer/);
    const unknown = await cli('users:remove');
    expect(unknown.code).toBe(2);
  });
});
