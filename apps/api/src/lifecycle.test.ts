import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The server process as an operator runs it (issue 24 items 2, 6, 7): started as `npm run serve`
 * starts it (tsx, its own process group, the embedded PostgreSQL in it), on its own data folder.
 * - a first start with the demo sign-ins listens on this machine only and says how to open it;
 * - Ctrl+C (SIGINT to the whole group, as a terminal sends it) stops it with exit code 0, no error
 *   line, the embedded server really stopped, and a job left taken by the stopped run back in the queue;
 * - HOST=0.0.0.0 opens it to the network; SIGTERM (a supervisor) stops it as cleanly;
 * - an unhandled rejection or uncaught exception is logged and ends the process with code 1, the
 *   embedded server stopped too (raised through the NODE_ENV=test hook of lifecycle.ts).
 */
const root = path.resolve(import.meta.dirname, '../../..');
/** `npm run serve` runs exactly this (asserted below): one process, tsx's loader inside it. */
const SERVE = 'node --import tsx --import ./apps/api/src/observability/preload.ts apps/api/src/server.ts';
const node = path.join(root, 'node_modules/node/bin/node');
const running = new Set<ChildProcess>();
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fvg-lifecycle-'));
  await chmod(dataDir, 0o755); // the embedded server runs as the postgres user when we are root
});

afterAll(async () => {
  for (const child of running) {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }
  const pid = await postmasterPid().catch(() => undefined);
  if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Server {
  const child = spawn(node, SERVE.split(' ').slice(1), {
    cwd: root,
    detached: true,
    // PORT=0: a free port, read back from the start-up line. HOST unset unless a test sets it.
    env: {
      ...process.env,
      HOST: '',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WEB_DIST: '/nonexistent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const exited = once(child, 'exit').then(([code]) => {
    running.delete(child);
    return code as number | null;
  });
  return { child, output: () => output, exited };
}

function waitFor(server: Server, text: RegExp, ms = 120_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${text} within ${ms} ms:\n${server.output()}`)), ms);
    const check = () => {
      const m = server.output().match(text);
      if (!m) return;
      clearTimeout(timer);
      resolve(m);
    };
    check();
    server.child.stdout?.on('data', check);
    server.child.stderr?.on('data', check);
    void server.exited.then(() => {
      clearTimeout(timer);
      const m = server.output().match(text);
      if (m) resolve(m);
      else reject(new Error(`exited before ${text}:\n${server.output()}`));
    });
  });
}

async function exitWithin(server: Server, ms = 20_000): Promise<number | null> {
  return Promise.race([
    server.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still running after ${ms} ms:\n${server.output()}`)), ms),
    ),
  ]);
}

async function postmasterPid(): Promise<number | undefined> {
  const file = path.join(dataDir, 'pg/postmaster.pid');
  if (!existsSync(file)) return undefined;
  return Number((await readFile(file, 'utf8')).split('\n')[0]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A client of the running embedded server, as the operator CLI would connect. */
async function embeddedClient(): Promise<pg.Client> {
  const creds = JSON.parse(await readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as {
    user: string;
    password: string;
  };
  const port = Number((await readFile(path.join(dataDir, 'pg/postmaster.pid'), 'utf8')).split('\n')[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, database: 'fvg', ...creds });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** An address of this machine on a network (not loopback), if it has one. */
function networkAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5000) })).ok;
  } catch {
    return false;
  }
}

/** Every line a clean run must not print. */
const ERROR_LINE = /error|fatal/i;

async function expectStopped(postmaster: number | undefined) {
  expect(postmaster).toBeDefined();
  expect(existsSync(path.join(dataDir, 'pg/postmaster.pid'))).toBe(false);
  expect(alive(postmaster as number)).toBe(false);
}

describe('the server process', () => {
  it('is what `npm run serve` (and so `npm start`) runs', async () => {
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.serve).toBe(SERVE);
  });

  it('first start: this machine only, says how to open it; Ctrl+C stops it cleanly, the database too', async () => {
    const server = start({});
    const [, port] = await waitFor(server, /FVG is running on http:\/\/localhost:(\d+)/);
    await waitFor(server, /SEED_DEMO=false\n/); // the notice's last line
    expect(server.output()).toContain('this machine only');
    expect(server.output()).toContain('HOST=0.0.0.0');
    expect(await reachable(`http://127.0.0.1:${port}/api/health`)).toBe(true);
    const lan = networkAddress();
    if (lan) expect(await reachable(`http://${lan}:${port}/api/health`)).toBe(false);

    // A job a worker had taken when the run stopped (its transaction aborted by PostgreSQL's own stop).
    const client = await embeddedClient();
    await client.query(`select graphile_worker.add_job('fvg.lifecycle-test', '{}'::json)`);
    await client.query(
      `update graphile_worker._private_jobs set locked_by = 'worker-of-the-stopped-run', locked_at = now()
        where task_id = (select id from graphile_worker._private_tasks where identifier = 'fvg.lifecycle-test')`,
    );
    await client.end();

    const postmaster = await postmasterPid();
    process.kill(-(server.child.pid as number), 'SIGINT'); // Ctrl+C: the terminal signals the whole group
    expect(await exitWithin(server)).toBe(0);
    const lines = server.output().split('\n');
    expect(lines.filter((l) => ERROR_LINE.test(l))).toEqual([]);
    expect(lines).toContain('[fvg] stopped');
    await expectStopped(postmaster);
  }, 180_000);

  it('HOST=0.0.0.0 opens it to the network; the stopped run’s job is back in the queue; SIGTERM stops it cleanly', async () => {
    const server = start({ HOST: '0.0.0.0' });
    const [, port] = await waitFor(server, /FVG is running on http:\/\/\S+:(\d+) \(every network interface/);
    // The test's job, and any the workers had running when Ctrl+C reached PostgreSQL too.
    expect(server.output()).toMatch(/returned \d+ unfinished job\(s\) of the previous run to the queue/);
    const lan = networkAddress();
    if (lan) expect(await reachable(`http://${lan}:${port}/api/health`)).toBe(true);
    const client = await embeddedClient();
    const { rows } = await client.query(
      `select locked_by from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'fvg.lifecycle-test'`,
    );
    await client.end();
    expect(rows).toEqual([{ locked_by: null }]);

    const postmaster = await postmasterPid();
    process.kill(-(server.child.pid as number), 'SIGTERM');
    expect(await exitWithin(server)).toBe(0);
    expect(
      server
        .output()
        .split('\n')
        .filter((l) => ERROR_LINE.test(l)),
    ).toEqual([]);
    await expectStopped(postmaster);
  }, 120_000);

  it.each([
    ['rejection', 'unhandled promise rejection', 'a promise nobody awaited'],
    ['exception', 'uncaught exception', 'a throw outside any request'],
  ])(
    'an unhandled %s is logged and ends the process with code 1, the database stopped',
    async (fault, kind, words) => {
      const server = start({ NODE_ENV: 'test', FVG_TEST_FAULT: fault, HOST: '127.0.0.1' });
      await waitFor(server, /FVG is running on/);
      const postmaster = await postmasterPid();
      expect(await exitWithin(server, 15_000)).toBe(1);
      expect(server.output()).toContain(`[fvg] ${kind}, the app stops (exit code 1)`);
      expect(server.output()).toContain(`test fault: ${words}`);
      expect(server.output()).toContain('[fvg] stopped');
      await expectStopped(postmaster);
    },
    120_000,
  );
});
