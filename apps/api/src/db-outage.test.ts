import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmbeddedServer, freePort, startEmbedded } from './db/embedded.ts';

/**
 * The app survives its database (issue 24 item 3, docs/adr/0053), as an operator runs it (`npm run
 * serve`, a process group of its own): the embedded PostgreSQL's postmaster killed under write load is
 * restarted by the app, and an external server stopped and started again is waited for. Meanwhile every
 * API call answers 503 problem+json with Retry-After (never a 500, never a dropped connection), the hub
 * says so, and every write acknowledged before, during and after is there. The app stays the same process.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const children = new Set<ChildProcess>();
const dirs: string[] = [];
const servers: EmbeddedServer[] = [];
const releases: (() => void)[] = [];

afterAll(async () => {
  for (const release of releases) release();
  for (const child of children) killGroup(child);
  for (const server of servers) await server.stop().catch(() => {});
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function killGroup(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // gone already
  }
  children.delete(child);
}

async function tempDir(prefix: string): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), prefix));
  await chmod(d, 0o755); // the postgres user (tests run as root in CI) must reach its cluster folder
  dirs.push(d);
  return d;
}

interface Served {
  child: ChildProcess;
  output: () => string;
  api: string;
  hub: string;
}

/** `npm run serve` in a process group of its own, resolved once it listens (bounded). */
async function serve(env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const child = spawn('npm', ['run', '-s', 'serve'], {
    cwd: root,
    detached: true,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const add = (c: Buffer) => {
    output += c.toString();
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  await waitForText(child, () => output, 'FVG is running on', 120_000);
  return {
    child,
    output: () => output,
    api: `http://127.0.0.1:${port}/api`,
    hub: `http://127.0.0.1:${port}/api/chat`,
  };
}

function waitForText(child: ChildProcess, output: () => string, text: string, timeoutMs: number) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output()}`)),
      timeoutMs,
    );
    const check = () => {
      if (!output().includes(text)) return;
      clearTimeout(timer);
      resolve();
    };
    check();
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before "${text}":\n${output()}`));
    });
  });
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(
  api: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(`${api}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(20_000),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json().catch(() => ({}))) as Record<string, unknown>,
  };
}

/** A 503 as the issue asks: problem+json of the database-unavailable type, with Retry-After. */
function expectUnavailable(a: Answer, what: string) {
  expect(a.status, `${what}: ${JSON.stringify(a.body)}`).toBe(503);
  expect(a.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
  expect(Number(a.headers.get('retry-after')), what).toBeGreaterThan(0);
  expect(a.body.type, what).toBe('/problems/database-unavailable');
}

/**
 * Writers creating dossiers one after the other until stopped: what was acknowledged (201) and every
 * other answer, which must be a proper 503 (a 500 or a dropped connection fails the test).
 */
function writeLoad(api: string, token: string, customerId: string, writers = 3) {
  const acknowledged: string[] = [];
  const unavailable: Answer[] = [];
  const wrong: string[] = [];
  let n = 0;
  let stop = false;
  let acksAfter = 0;
  const one = async () => {
    while (!stop) {
      const i = n++;
      try {
        const a = await call(api, 'POST', '/dossiers', token, {
          type: 'import',
          mode: 'sea',
          customerId,
          incoterm: 'FOB',
          originLocode: 'CNSHA',
          destinationLocode: 'NLRTM',
          customerReference: `OUTAGE-${i}`,
          cargoDescription: 'Outage test cargo',
          packages: 1,
          grossWeightKg: '100',
          containers: [],
        });
        if (a.status === 201) {
          acknowledged.push(a.body.id as string);
          acksAfter++;
        } else if (a.status === 503) {
          unavailable.push(a);
          await new Promise((resolve) => setTimeout(resolve, 50));
        } else wrong.push(`${a.status} ${JSON.stringify(a.body)}`);
      } catch (e) {
        wrong.push(`no answer: ${(e as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  const running = Promise.all(Array.from({ length: writers }, one));
  return {
    acknowledged,
    unavailable,
    wrong,
    /** Acknowledgements counted from now on. */
    resetCount: () => {
      acksAfter = 0;
    },
    get acksSinceReset() {
      return acksAfter;
    },
    async stop() {
      stop = true;
      await running;
    },
  };
}

async function signIn(api: string): Promise<string> {
  const r = await call(api, 'POST', '/auth/access_token', undefined, {
    email: 'staff@fvg.local',
    password: 'staff-demo-2026',
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.Token as string;
}

async function acmeId(api: string, token: string): Promise<string> {
  const r = await call(api, 'GET', '/parties?q=ACME', token);
  const acme = (r.body.items as { id: string; code: string }[]).find((p) => p.code === 'ACME');
  return acme?.id as string;
}

/** The hub's ServiceStatus events, through the official client. */
async function hubStatuses(hub: string, token: string) {
  const seen: string[] = [];
  const conn = new HubConnectionBuilder()
    .withUrl(hub, { accessTokenFactory: () => token })
    .configureLogging(LogLevel.None)
    .build();
  conn.on('ServiceStatus', (s: { database: string }) => seen.push(s.database));
  await conn.start();
  return { seen, stop: () => conn.stop() };
}

async function credentialsOf(dataDir: string) {
  return JSON.parse(await readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as {
    user: string;
    password: string;
  };
}

/** Stack lines, error-level log lines and 500s: an outage is told in one line per event, nothing else. */
const badLines = (output: string) =>
  output.split('\n').filter((l) => /^\s+at |"level":50|Internal server error/.test(l));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const postmasterOf = async (dataDir: string) => {
  const lines = (await readFile(path.join(dataDir, 'pg/postmaster.pid'), 'utf8')).split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
};

/**
 * One backend of the server held stopped (SIGSTOP): when the postmaster dies, PostgreSQL refuses to
 * start again while it lives (its shared memory is still attached), so the outage lasts until the
 * returned release, long enough to be watched. The slow death of a real crash looks the same.
 */
async function holdOneBackend(dataDir: string, port: number): Promise<() => void> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    database: 'fvg',
    ...(await credentialsOf(dataDir)),
  });
  client.on('error', () => {});
  await client.connect();
  const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid as number;
  process.kill(pid, 'SIGSTOP');
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
    void client.end().catch(() => {});
  };
  releases.push(release);
  return release;
}

describe('the app survives its database', () => {
  it('embedded: the postmaster SIGKILLed under write load is restarted by the app; meanwhile 503 + Retry-After, the hub says so; nothing acknowledged is lost', async () => {
    const dataDir = await tempDir('fvg-outage-');
    const app = await serve({ DATA_DIR: dataDir });
    const token = await signIn(app.api);
    const customerId = await acmeId(app.api, token);
    const hub = await hubStatuses(app.hub, token);
    const load = writeLoad(app.api, token, customerId);
    try {
      await until('writes before the kill', () => load.acknowledged.length >= 10, 30_000);
      const before = await postmasterOf(dataDir);
      const release = await holdOneBackend(dataDir, before.port);
      process.kill(before.pid, 'SIGKILL');

      // The app noticed: it says so in one line, and the hub tells its clients.
      await waitForText(app.child, app.output, 'restarting it on port', 10_000);
      await until('the hub to say the database is down', () => hub.seen.includes('down'), 10_000);
      // Every kind of call answers 503 problem+json with Retry-After, sign-in and health included.
      await until('503s under load', () => load.unavailable.length >= 3, 15_000);
      expectUnavailable(await call(app.api, 'GET', '/dossiers', token), 'a list');
      expectUnavailable(
        await call(app.api, 'POST', '/auth/access_token', undefined, {
          email: 'staff@fvg.local',
          password: 'staff-demo-2026',
        }),
        'sign-in',
      );
      expect((await call(app.api, 'GET', '/health')).status).toBe(503);
      for (const a of load.unavailable) expectUnavailable(a, 'a write during the outage');

      // The old server's last backend goes: the app's restart goes through, with crash recovery.
      load.resetCount();
      release();
      await waitForText(app.child, app.output, 'the embedded PostgreSQL is back', 90_000);
      await until('writes acknowledged after the restart', () => load.acksSinceReset >= 10, 30_000);
      await until('the hub to say it is back', () => hub.seen.at(-1) === 'up', 10_000);
      await load.stop();

      expect(load.wrong, 'every answer was a 201 or a proper 503').toEqual([]);
      for (const a of load.unavailable) expectUnavailable(a, 'a write during the outage');
      expect((await call(app.api, 'GET', '/health')).status).toBe(200);
      for (const id of load.acknowledged) {
        const r = await call(app.api, 'GET', `/dossiers/${id}`, token);
        expect(r.status, `acknowledged dossier ${id}`).toBe(200);
      }
      // The same process carried on (not restarted by anything), on a new postmaster on the same port.
      expect(app.child.exitCode).toBeNull();
      const after = await postmasterOf(dataDir);
      expect(after.pid).not.toBe(before.pid);
      expect(after.port).toBe(before.port);
      // One line per event, no stack traces.
      expect(badLines(app.output())).toEqual([]);
    } finally {
      await load.stop();
      await hub.stop().catch(() => {});
    }
    // A clean stop still stops the restarted server with it.
    const exited = new Promise((resolve) => app.child.once('exit', resolve));
    process.kill(-(app.child.pid as number), 'SIGTERM');
    await exited;
    children.delete(app.child);
    // npm may exit before the app's last line arrives through the pipe.
    await until('the app to say it stopped', () => app.output().includes('[fvg] stopped'), 15_000);
    const restarted = (await postmasterOf(dataDir).catch(() => ({ pid: 0 }))).pid;
    await until(
      'the restarted postmaster to stop with the app',
      () => !restarted || !isRunning(restarted),
      30_000,
    );
  }, 240_000);

  it('embedded: when it keeps dying (PG_RESTART_MAX), the app says why in one line and exits 1 for its supervisor', async () => {
    const dataDir = await tempDir('fvg-outage-max-');
    const app = await serve({ DATA_DIR: dataDir, PG_RESTART_MAX: '1', SEED_DEMO: 'false' });
    const exited = new Promise<number | null>((resolve) => app.child.once('exit', (code) => resolve(code)));
    process.kill((await postmasterOf(dataDir)).pid, 'SIGKILL');
    await waitForText(app.child, app.output, 'the embedded PostgreSQL is back', 90_000);
    process.kill((await postmasterOf(dataDir)).pid, 'SIGKILL');
    const code = await Promise.race([
      exited,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`did not exit:\n${app.output()}`)), 30_000),
      ),
    ]);
    children.delete(app.child);
    expect(code).toBe(1);
    expect(app.output()).toMatch(
      /2 deaths within 600 s \(PG_RESTART_MAX=1\); exiting so that a supervisor restarts the app/,
    );
    expect(app.output()).not.toMatch(/\n\s+at /);
  }, 180_000);

  it('external DATABASE_URL: a stopped server gives 503 + Retry-After, and the app carries on once it is started again', async () => {
    // Our own throw-away server (never the shared one), started and stopped by this test.
    const pgDir = await tempDir('fvg-outage-ext-');
    let server = await startEmbedded({ dataDir: pgDir });
    servers.push(server);
    const app = await serve({ DATABASE_URL: server.url, DATA_DIR: await tempDir('fvg-outage-files-') });
    const token = await signIn(app.api);
    const customerId = await acmeId(app.api, token);
    const hub = await hubStatuses(app.hub, token);
    const load = writeLoad(app.api, token, customerId);
    try {
      await until('writes before the stop', () => load.acknowledged.length >= 10, 30_000);
      const port = server.port;
      await server.stop();
      await until('503s under load', () => load.unavailable.length >= 3, 15_000).catch((e: Error) => {
        throw new Error(
          `${e.message}; acknowledged ${load.acknowledged.length}, other answers ${JSON.stringify(load.wrong.slice(0, 5))}\n${app.output().slice(-3000)}`,
        );
      });
      expectUnavailable(await call(app.api, 'GET', '/dossiers', token), 'a list');
      expectUnavailable(
        await call(app.api, 'POST', '/auth/access_token', undefined, {
          email: 'staff@fvg.local',
          password: 'staff-demo-2026',
        }),
        'sign-in',
      );
      await until('the hub to say the database is down', () => hub.seen.includes('down'), 10_000);

      load.resetCount();
      server = await startEmbedded({ dataDir: pgDir, port });
      servers.push(server);
      await until('writes acknowledged after the start', () => load.acksSinceReset >= 10, 30_000);
      await until('the hub to say it is back', () => hub.seen.at(-1) === 'up', 15_000);
      await load.stop();

      expect(load.wrong, 'every answer was a 201 or a proper 503').toEqual([]);
      for (const a of load.unavailable) expectUnavailable(a, 'a write during the outage');
      for (const id of load.acknowledged) {
        const r = await call(app.api, 'GET', `/dossiers/${id}`, token);
        expect(r.status, `acknowledged dossier ${id}`).toBe(200);
      }
      expect(app.child.exitCode).toBeNull();
      expect(app.output()).toMatch(/database unreachable: .*; answering 503 until it is back/);
      expect(app.output()).toMatch(/database reachable again after/);
      expect(badLines(app.output())).toEqual([]);
    } finally {
      await load.stop();
      await hub.stop().catch(() => {});
      killGroup(app.child);
    }
  }, 240_000);
});
