import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import setup from './global-setup.ts';

/**
 * Two test runs may share one PostgreSQL server (CI's pass on the external server, two developers on
 * one machine): the end of one run must leave the other's databases and connections alone.
 */
const adminUrl = inject('pgAdminUrl');
const other = `fvg_test_1_${randomBytes(4).toString('hex')}`; // pid 1 is never a test run's
const clients: pg.Client[] = [];

async function client(database: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const c = new pg.Client({ connectionString: url.toString() });
  c.on('error', () => {}); // a terminated connection errors here as well as on its query
  await c.connect();
  clients.push(c);
  return c;
}

afterAll(async () => {
  for (const c of clients) await c.end().catch(() => {});
  const admin = await client('postgres');
  await admin.query(`drop database if exists ${other} with (force)`);
  await admin.end();
});

describe('the API test run on a shared server', () => {
  it("ends by dropping its own databases only, and leaves another run's connections open", async () => {
    const admin = await client('postgres');
    await admin.query(`create database ${other}`);
    const theirs = await client(other);

    // A second run of the global setup on this run's server, as a second `vitest run` would start.
    const before = process.env.TEST_DATABASE_URL;
    process.env.TEST_DATABASE_URL = adminUrl;
    const provided: Record<string, string> = {};
    const project = {
      provide: (key: string, value: string) => (provided[key] = value),
    } as unknown as TestProject;
    try {
      const teardown = await setup(project);
      expect(provided.pgTemplate).toBe(`fvg_template_${process.pid}`);
      await teardown();
    } finally {
      if (before === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = before;
    }

    expect((await theirs.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const left = await admin.query('select datname from pg_database where datname = any($1)', [
      [other, provided.pgTemplate],
    ]);
    expect(left.rows).toEqual([{ datname: other }]);
  }, 120_000);
});
