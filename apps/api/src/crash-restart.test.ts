import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded.ts';

/**
 * Power loss / OOM kill: the app started as `npm run serve` does (own data folder, own process group,
 * the embedded PostgreSQL in it) is killed with SIGKILL, group and all, and started again at once.
 * Every write it acknowledged must be there, three times over, and the operator CLI must work right
 * after such a kill too.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const running = new Set<ChildProcess>();
let dataDir: string | undefined;

afterAll(async () => {
  for (const child of running) killGroup(child);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function killGroup(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // already gone
  }
  running.delete(child);
}

/**
 * A slow death: PostgreSQL's server processes run in sessions of their own, so killing the app's group
 * kills the postmaster and leaves them to notice and exit. One of them, held stopped here, keeps the
 * old server's shared memory attached as a slow one does. Returns its release.
 */
async function killGroupButOneBackend(child: ChildProcess, dataDir: string): Promise<() => void> {
  const creds = JSON.parse(await readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as {
    user: string;
    password: string;
  };
  const port = Number((await readFile(path.join(dataDir, 'pg/postmaster.pid'), 'utf8')).split('\n')[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, database: 'fvg', ...creds });
  client.on('error', () => {});
  await client.connect();
  const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]
    ?.pid as number;
  process.kill(backend, 'SIGSTOP');
  killGroup(child);
  return () => {
    process.kill(backend, 'SIGKILL');
    client.end().catch(() => {});
  };
}

interface Server {
  child: ChildProcess;
  output: () => string;
}

/** Resolves once `text` is in the output; rejects if the process exits first or after 90 s. */
function waitFor(child: ChildProcess, output: () => string, text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within 90 s:\n${output()}`)), 90_000);
    const check = () => {
      if (!output().includes(text)) return;
      clearTimeout(timer);
      resolve();
    };
    check();
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code, signal) =>
      reject(new Error(`exited (${code ?? signal}) before "${text}":\n${output()}`)),
    );
  });
}

/** `npm run serve` in a process group of its own. */
function spawnServe(env: Record<string, string>): Server {
  const child = spawn('npm', ['run', '-s', 'serve'], {
    cwd: root,
    detached: true,
    env: { ...process.env, ...env, HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
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
  return { child, output: () => output };
}

/** `npm run serve`, resolved once it listens. */
async function serve(env: Record<string, string>): Promise<Server> {
  const server = spawnServe(env);
  await waitFor(server.child, server.output, 'FVG is running on');
  return server;
}

describe('restart right after a crash', () => {
  it('keeps every acknowledged write across three SIGKILLs of the process group, and the CLI works right after one', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'fvg-crash-'));
    await chmod(dataDir, 0o755);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port) };
    const api = `http://127.0.0.1:${port}/api`;
    const request = async (method: string, url: string, token?: string, body?: unknown) => {
      const res = await fetch(`${api}${url}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
    };
    const signIn = async (email: string, password: string) => {
      const r = await request('POST', '/auth/access_token', undefined, { email, password });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.Token as string;
    };

    let server = await serve(env);
    let token = await signIn('staff@fvg.local', 'staff-demo-2026');
    const parties = await request('GET', '/parties?q=ACME', token);
    const acme = (parties.body.items as { id: string; code: string }[]).find((p) => p.code === 'ACME');
    const dossier = (n: number) => ({
      type: 'import',
      mode: 'sea',
      customerId: acme?.id,
      incoterm: 'FOB',
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      customerReference: `CRASH-${n}`,
      cargoDescription: 'Crash test cargo',
      packages: 1,
      grossWeightKg: '100',
      containers: [],
    });

    const acknowledged: string[] = [];
    for (let round = 1; round <= 3; round++) {
      // A burst of creations; the group dies while some are still in flight.
      let acked = 0;
      const enough = new Promise<void>((resolve) => {
        for (let i = 0; i < 20; i++) {
          request('POST', '/dossiers', token, dossier(round * 100 + i))
            .then((r) => {
              if (r.status === 201) {
                acknowledged.push(r.body.id as string);
                if (++acked === 5) resolve();
              }
            })
            .catch(() => {}); // lost with the server: never acknowledged, so not expected to be there
        }
      });
      await enough;
      if (round === 2) {
        // The old server is still dying when the new app starts: it waits, says so, then starts.
        const release = await killGroupButOneBackend(server.child, dataDir);
        server = spawnServe(env);
        await waitFor(server.child, server.output, 'waiting for the previous PostgreSQL');
        release();
        await waitFor(server.child, server.output, 'FVG is running on');
      } else {
        killGroup(server.child);
        server = await serve(env);
      }
      expect(server.output()).not.toMatch(/failed to start/);
      token = await signIn('staff@fvg.local', 'staff-demo-2026');
      for (const id of acknowledged) {
        const r = await request('GET', `/dossiers/${id}`, token);
        expect(r.status, `round ${round}: acknowledged dossier ${id}`).toBe(200);
      }
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(15);

    // The operator's command right after a kill, the old server still dying: it waits instead of dying.
    const release = await killGroupButOneBackend(server.child, dataDir);
    const cli = run(
      'npm',
      [
        'run',
        '-s',
        'cli',
        '--',
        'users:add',
        '--email',
        'after-crash@fvg.test',
        '--password',
        'operator-pass-after-crash',
        '--role',
        'staff',
      ],
      { cwd: root, env: { ...process.env, ...env } },
    );
    let cliOutput = '';
    cli.child.stderr?.on('data', (c: Buffer) => {
      cliOutput += c.toString();
    });
    await waitFor(cli.child, () => cliOutput, 'waiting for the previous PostgreSQL');
    release();
    const done = await cli;
    expect(done.stdout).toMatch(/created staff after-crash@fvg\.test/);
    expect(done.stderr).not.toMatch(/error|TypeError|\n\s+at /);

    server = await serve(env);
    await signIn('after-crash@fvg.test', 'operator-pass-after-crash');

    // The app and the operator's command started at the same moment right after a kill: one of them
    // starts the server, the other waits for it and attaches; neither removes the other's lock file,
    // and the command ending does not take the server from under the app.
    killGroup(server.child);
    server = spawnServe(env);
    const together = await run(
      'npm',
      [
        'run',
        '-s',
        'cli',
        '--',
        'users:add',
        '--email',
        'together@fvg.test',
        '--password',
        'operator-pass-together',
        '--role',
        'staff',
      ],
      { cwd: root, env: { ...process.env, ...env } },
    );
    expect(together.stdout).toMatch(/created staff together@fvg\.test/);
    await waitFor(server.child, server.output, 'FVG is running on');
    expect(server.output()).not.toMatch(/failed to start/);
    await signIn('together@fvg.test', 'operator-pass-together');
    const postmaster = (await readFile(path.join(dataDir, 'pg/postmaster.pid'), 'utf8')).split('\n')[0];
    expect(await readFile(`/proc/${postmaster}/stat`, 'utf8')).toMatch(/^\d+ \(postgres\)/);
    // A clean stop at the end, so the data folder's server goes down with it.
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    process.kill(-(server.child.pid as number), 'SIGTERM');
    await exited;
    running.delete(server.child);
  }, 240_000);

  it('says why in one line and exits 1 when PostgreSQL refuses to start for good', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fvg-refused-'));
    try {
      await chmod(dir, 0o755);
      await mkdir(path.join(dir, 'pg'), { mode: 0o777 });
      await writeFile(path.join(dir, 'pg/PG_VERSION'), '18\n'); // no cluster: PostgreSQL refuses
      const server = spawnServe({ DATA_DIR: dir, PORT: String(await freePort()) });
      const code = await new Promise((resolve) => server.child.once('exit', resolve));
      running.delete(server.child);
      expect(code).toBe(1);
      expect(server.output()).toMatch(/^\[fvg\] failed to start: PostgreSQL did not start: \S.*$/m);
      expect(server.output()).not.toMatch(/\n\s+at |undefined/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
