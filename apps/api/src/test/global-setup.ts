import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect, migrate } from '../db/database.ts';
import { type EmbeddedServer, startEmbedded } from '../db/embedded.ts';
import { migrateJobs } from '../jobs/jobs.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test server's maintenance database; test files create their own databases there. */
    pgAdminUrl: string;
    /** A migrated database each test file clones (CREATE DATABASE … TEMPLATE). */
    pgTemplate: string;
  }
}

/**
 * One PostgreSQL server for the whole API test run: an external one when `TEST_DATABASE_URL` (or
 * `DATABASE_URL`) is set — CI runs the suite that way too — otherwise a throw-away embedded server.
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let server: EmbeddedServer | undefined;
  let dir: string | undefined;
  let adminUrl: string;
  if (external) {
    const url = new URL(external);
    url.pathname = '/postgres';
    adminUrl = url.toString();
  } else {
    dir = await mkdtemp(path.join(tmpdir(), 'fvg-test-'));
    await chmod(dir, 0o755); // the postgres user (CI runs as root) must reach its cluster folder
    server = await startEmbedded({ dataDir: dir, database: 'postgres' });
    adminUrl = server.url;
  }
  const template = `fvg_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const handle = connect(url.toString(), 1);
  await migrate(handle.db);
  await migrateJobs(handle.pool);
  await handle.close();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);

  return async () => {
    // This run's databases only (named after its pid, see createTestDatabase): another run may share
    // the server (CI's external pass, a developer's second run) and keeps its connections.
    const mine = `fvg_test_${process.pid}_%`;
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname like $1 or datname = $2`,
      [mine, template],
    );
    const left = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [mine, template],
    );
    for (const { datname } of left.rows) await admin.query(`drop database if exists "${datname}"`);
    await admin.end();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
}
