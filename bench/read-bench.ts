/**
 * What bench/search.ts and bench/dashboard.ts share: the database (DATA_DIR, else bench/.data, or
 * DATABASE_URL), the API as its own process, sign-ins, and the run of read scenarios — each through the
 * HTTP API from a separate load process (bench/api-load.ts) and, in the same run, its SQL straight from
 * this process (the floor), at each connection count; printed as p50/p95/p99 with API ÷ SQL ratios, as
 * bench/api.ts does.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Db } from '../apps/api/src/db/database.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { type SessionUser, usersRepository } from '../apps/api/src/features/users/users.repository.ts';
import { usersService } from '../apps/api/src/features/users/users.service.ts';
import { drive, type LoadResult } from './api-load.ts';

export const root = path.resolve(import.meta.dirname, '..');

/** The bench's customer: a sign-in of the party with the most dossiers (the heaviest customer). */
export const BENCH_CUSTOMER = {
  email: 'bench-customer@fvg-bench.example',
  password: 'harbour-lantern-5831-q',
};
export const ADMIN = { email: 'admin@fvg.local', password: 'admin-demo-2026' };

export async function openBenchDatabase() {
  const dataDir = process.env.DATABASE_URL
    ? undefined
    : path.resolve(process.env.DATA_DIR ?? path.join(root, 'bench/.data'));
  const config = loadConfig({ ...process.env, ...(dataDir ? { DATA_DIR: dataDir } : {}) });
  const t0 = performance.now();
  const database = await openDatabase(config, (m) => console.log(`[db] ${m}`));
  // Opening applies pending migrations (0025 fills the search index from the rows already there).
  console.log(`[db] open (migrations included) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dataDir, config, database };
}

async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** The app as `npm run serve` runs it, on a free port, without the job worker or the web files. */
export async function startApi(
  dataDir: string | undefined,
): Promise<{ origin: string; server: ChildProcess }> {
  const port = await freePort();
  const server = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/api/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      JOBS_ENABLED: 'false',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`${origin}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return { origin, server };
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill('SIGTERM');
  throw new Error('the API did not answer /api/health within 60 s');
}

export async function stopApi(server: ChildProcess | undefined) {
  if (!server || server.exitCode !== null) return;
  server.kill('SIGTERM');
  await once(server, 'exit').catch(() => {});
}

export async function tokenOf(origin: string, who: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${origin}/api/auth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const token = ((await res.json()) as { Token?: string }).Token;
  if (!token) throw new Error(`${who.email} cannot sign in (${res.status})`);
  return token;
}

export async function sessionUserOf(db: Db, email: string): Promise<SessionUser> {
  const row = await usersRepository(db).findByEmail(email);
  const user = row ? await usersRepository(db).findSessionUser(row.id) : undefined;
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

/**
 * The bench customer (with warehouse access) of the party that has the most dossiers: the customer
 * whose scoped queries have the most rows to look through. Made once; moved to the biggest party when
 * the data grew.
 */
export async function ensureBenchCustomer(
  db: Db,
): Promise<{ user: SessionUser; code: string; dossiers: number }> {
  const top = (
    await sql<{ id: string; code: string; n: number }>`
      select p.id, p.code, d.n from (select customer_id, count(*)::int n from dossiers group by 1 order by 2 desc limit 1) d
      join parties p on p.id = d.customer_id`.execute(db)
  ).rows[0];
  if (!top) throw new Error('no dossiers: seed first (npm run seed:scale)');
  const existing = await usersRepository(db).findByEmail(BENCH_CUSTOMER.email);
  if (existing)
    await sql`update users set party_id = ${top.id}, cw_access = true where id = ${existing.id}`.execute(db);
  else
    await usersService(db).create({
      ...BENCH_CUSTOMER,
      name: 'Bench Customer',
      role: 'customer',
      party: top.code,
      cwAccess: true,
    });
  return { user: await sessionUserOf(db, BENCH_CUSTOMER.email), code: top.code, dossiers: top.n };
}

export interface Scenario {
  name: string;
  /** Who asks: the admin (all records, warehouse included) or the bench customer. */
  as: 'staff' | 'customer';
  urls: string[];
  /** The same work as SQL from this process; `i` picks the i-th input as the URLs do. */
  floor: (i: number) => Promise<unknown>;
}

export interface Row {
  name: string;
  as: Scenario['as'];
  api: LoadResult;
  floor: LoadResult;
}

/** Runs every scenario at every connection count: the API from the load process, then its SQL here. */
export async function runScenarios(
  scenarios: Scenario[],
  opts: { origin: string; tokens: Record<Scenario['as'], string>; connections: number[]; seconds: number },
): Promise<{ connections: number; rows: Row[] }[]> {
  const runs: { connections: number; rows: Row[] }[] = [];
  for (const C of opts.connections) {
    const rows: Row[] = [];
    for (const s of scenarios) {
      const cfg = {
        urls: s.urls.map((u) => `${opts.origin}${u}`),
        token: opts.tokens[s.as],
        concurrency: C,
        seconds: opts.seconds,
      };
      const { stdout } = await promisify(execFile)(
        path.join(root, 'node_modules/.bin/tsx'),
        ['bench/api-load.ts', JSON.stringify(cfg)],
        { cwd: root, maxBuffer: 1 << 24 },
      );
      const api = JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
      const floor = await drive(
        async (i) => {
          await s.floor(i);
          return true;
        },
        C,
        opts.seconds,
      );
      rows.push({ name: s.name, as: s.as, api, floor });
      console.log(
        `${s.name} (${s.as}, ${C} conn): API p50 ${api.p50} p95 ${api.p95} p99 ${api.p99} ms, ${api.rps} req/s (errors ${api.errors}) | SQL p50 ${floor.p50} p95 ${floor.p95} p99 ${floor.p99} ms, ${floor.rps}/s`,
      );
    }
    printTable(C, rows);
    runs.push({ connections: C, rows });
  }
  return runs;
}

export function printTable(connections: number, rows: Row[]) {
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  console.log(`\n${connections} connection${connections === 1 ? '' : 's'}, ${os.cpus().length} cores`);
  console.log(
    `${'scenario'.padEnd(40)}${'as'.padEnd(10)}${pad('API p50', 9)}${pad('p95', 8)}${pad('p99', 8)}${pad('req/s', 8)} |${pad('SQL p50', 9)}${pad('p95', 8)}${pad('p99', 8)}${pad('q/s', 8)} |${pad('p95 ratio', 10)}`,
  );
  for (const r of rows)
    console.log(
      `${r.name.padEnd(40)}${r.as.padEnd(10)}${pad(r.api.p50, 9)}${pad(r.api.p95, 8)}${pad(r.api.p99, 8)}${pad(r.api.rps, 8)} |${pad(r.floor.p50, 9)}${pad(r.floor.p95, 8)}${pad(r.floor.p99, 8)}${pad(r.floor.rps, 8)} |${pad((r.api.p95 / r.floor.p95).toFixed(2), 10)}`,
    );
}

export function writeResults(name: string, body: Record<string, unknown>) {
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, `bench/results/${name}-latest.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), cores: os.cpus().length, ...body }, null, 2)}\n`,
  );
  console.log(`\nwrote ${path.relative(root, file)}`);
}
