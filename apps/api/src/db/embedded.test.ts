import { spawn } from 'node:child_process';
import { appendFile, chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSharedBuffersMb, loadConfig } from '../config.ts';
import { startEmbedded, startFailure } from './embedded.ts';

let dir: string | undefined;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of [dir, ...dirs]) if (d) await rm(d, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'fvg-embedded-'));
  await chmod(d, 0o755);
  dirs.push(d);
  return d;
}

const postmasterPid = async (d: string) =>
  Number((await readFile(path.join(d, 'pg/postmaster.pid'), 'utf8')).split('\n')[0]);

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('initialises once, lets a second process attach, stops when its owner stops, and keeps data across restarts', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'fvg-embedded-'));
    await chmod(dir, 0o755);
    const first = await startEmbedded({ dataDir: dir });
    expect(first.owned).toBe(true);
    await query(first.url, "create table kept (v text); insert into kept values ('still here')");

    const second = await startEmbedded({ dataDir: dir });
    expect(second.owned).toBe(false);
    expect(second.url).toBe(first.url);
    await second.stop(); // an attached process never stops the owner's server
    expect(await query(first.url, 'select 1 as one')).toEqual([{ one: 1 }]);

    await first.stop();
    await expect(query(first.url, 'select 1')).rejects.toThrow();

    const again = await startEmbedded({ dataDir: dir, sharedBuffersMb: 200 });
    expect(again.owned).toBe(true);
    expect(await query<{ v: string }>(again.url, 'select v from kept')).toEqual([{ v: 'still here' }]);
    // PG_SHARED_BUFFERS reaches the server.
    expect(await query<{ shared_buffers: string }>(again.url, 'show shared_buffers')).toEqual([
      { shared_buffers: '200MB' },
    ]);
    await again.stop();
  }, 60_000);
});

describe('embedded PostgreSQL after a crash', () => {
  it('waits for the killed server to let go of the data folder, says so once, then starts with the data kept', async () => {
    const d = await dataDir();
    const first = await startEmbedded({ dataDir: d });
    await query(first.url, "create table kept (v text); insert into kept values ('acknowledged')");
    // A backend that is slow to die keeps the old shared memory attached: stop one, kill the postmaster.
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    client.on('error', () => {});
    const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]
      ?.pid as number;
    process.kill(backend, 'SIGSTOP');
    process.kill(await postmasterPid(d), 'SIGKILL');

    const logs: string[] = [];
    const restarting = startEmbedded({ dataDir: d, log: (m) => logs.push(m) });
    // Let it meet the old server, then let the old backend go, as the kernel does after a kill.
    const untilWaiting = async () => {
      while (!logs.some((m) => m.startsWith('waiting'))) await new Promise((r) => setTimeout(r, 50));
    };
    await Promise.race([
      untilWaiting(),
      restarting.then(() => {
        throw new Error(`started while the old server still held the data folder: ${logs.join('\n')}`);
      }),
    ]);
    process.kill(backend, 'SIGKILL');
    const again = await restarting;
    try {
      expect(again.owned).toBe(true);
      // Either the killed postmaster is still exiting, or its backend holds the shared memory.
      expect(logs.filter((m) => m.startsWith('waiting'))).toEqual([
        expect.stringMatching(
          /^waiting for the previous PostgreSQL \(pid \d+\) to release the data folder .*(shared memory|does not accept connections)/,
        ),
      ]);
      expect(await query<{ v: string }>(again.url, 'select v from kept')).toEqual([{ v: 'acknowledged' }]);
      // The dead server's handle stops without waiting for an exit that has already happened.
      await first.stop();
    } finally {
      void client.end().catch(() => {}); // its backend is gone; do not wait on its goodbye
      await again.stop();
    }
  }, 60_000);

  it('starts when the lock file names a pid that another program has now', async () => {
    const d = await dataDir();
    const first = await startEmbedded({ dataDir: d });
    await query(first.url, 'create table kept (v int); insert into kept values (1)');
    // After a crash and a reboot the old postmaster's pid may belong to anything; PostgreSQL alone would
    // take it for a live postmaster and refuse forever.
    const lock = await readFile(path.join(d, 'pg/postmaster.pid'), 'utf8');
    await first.stop();
    const other = spawn('sleep', ['60']);
    try {
      await writeFile(path.join(d, 'pg/postmaster.pid'), lock.replace(/^\d+/, String(other.pid)));
      const again = await startEmbedded({ dataDir: d });
      expect(again.owned).toBe(true);
      expect(await query<{ v: number }>(again.url, 'select v from kept')).toEqual([{ v: 1 }]);
      await again.stop();
    } finally {
      other.kill();
    }
  }, 60_000);

  it("fails at once with PostgreSQL's own reason when it refuses for good", async () => {
    const d = await dataDir();
    const first = await startEmbedded({ dataDir: d });
    await first.stop();
    await appendFile(path.join(d, 'pg/postgresql.auto.conf'), "\nwork_mem = 'lots'\n");
    const logs: string[] = [];
    await expect(startEmbedded({ dataDir: d, log: (m) => logs.push(m) })).rejects.toThrow(
      /^PostgreSQL did not start: configuration file ".*postgresql\.auto\.conf" contains errors/,
    );
    expect(logs.filter((m) => m.startsWith('waiting'))).toEqual([]);
  }, 60_000);

  it('takes the reason from the FATAL line with its hint', () => {
    const log = [
      '2026-11-23 23:55:01.123 UTC [4711] LOG:  starting PostgreSQL 18.1',
      '2026-11-23 23:55:01.125 UTC [4711] FATAL:  lock file "postmaster.pid" already exists',
      '2026-11-23 23:55:01.125 UTC [4711] HINT:  Is another postmaster (PID 4242) running in data directory "/data/pg"?',
    ].join('\n');
    expect(startFailure(log)).toBe(
      'lock file "postmaster.pid" already exists (Is another postmaster (PID 4242) running in data directory "/data/pg"?)',
    );
    expect(startFailure('')).toBe('PostgreSQL exited without a message');
  });
});

describe('PG_SHARED_BUFFERS', () => {
  it('defaults to an eighth of the memory between 128 MB and 1 GB, and takes a number of MB', () => {
    const gb = 1024 ** 3;
    expect(defaultSharedBuffersMb(0.5 * gb)).toBe(128);
    expect(defaultSharedBuffersMb(4 * gb)).toBe(512);
    expect(defaultSharedBuffersMb(24 * gb)).toBe(1024);
    expect(loadConfig({ PG_SHARED_BUFFERS: '300' }).embeddedSharedBuffersMb).toBe(300);
    expect(loadConfig({}).embeddedSharedBuffersMb).toBe(defaultSharedBuffersMb());
    expect(() => loadConfig({ PG_SHARED_BUFFERS: '1GB' })).toThrow(/PG_SHARED_BUFFERS/);
  });
});
