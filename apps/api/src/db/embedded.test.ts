import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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
          /^waiting for the previous PostgreSQL \(pid \d+\) to release the data folder .*(shared memory|does not accept connections|did not let us in)/,
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

/** A process that is gone (exited and reaped): its pid names nobody. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

/** Resolves once a log line starts with `waiting`; fails if `start` settles first. */
async function untilWaiting(logs: string[], start: Promise<unknown>): Promise<void> {
  const waiting = async () => {
    while (!logs.some((m) => m.startsWith('waiting'))) await new Promise((r) => setTimeout(r, 50));
  };
  await Promise.race([
    waiting(),
    start.then(() => {
      throw new Error(`started without waiting: ${logs.join('\n')}`);
    }),
  ]);
}

/** The parent of the backend serving `url`: the postmaster that really runs the server. */
async function livePostmaster(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL started by two processes at once', () => {
  it("runs one start at a time: waits while another live process holds the start lock, without touching postmaster.pid, and takes a dead holder's lock over", async () => {
    const d = await dataDir();
    const first = await startEmbedded({ dataDir: d });
    await query(first.url, 'create table kept (v int); insert into kept values (7)');
    const lock = await readFile(path.join(d, 'pg/postmaster.pid'), 'utf8');
    await first.stop();
    // Another start is under way (its holder lives), and postmaster.pid names a pid another program has
    // now: a start that judged and removed it without the lock could remove the other start's new one.
    const holder = spawn('sleep', ['60']);
    const other = spawn('sleep', ['60']);
    try {
      const stalePid = lock.replace(/^\d+/, String(other.pid));
      await writeFile(path.join(d, 'pg/postmaster.pid'), stalePid);
      await writeFile(path.join(d, 'pg.start.lock'), JSON.stringify({ pid: holder.pid }));
      const logs: string[] = [];
      const starting = startEmbedded({ dataDir: d, log: (m) => logs.push(m) });
      await untilWaiting(logs, starting);
      expect(logs.filter((m) => m.startsWith('waiting'))).toEqual([
        expect.stringMatching(
          new RegExp(`another process \\(pid ${holder.pid}\\) is starting it .*pg\\.start\\.lock`),
        ),
      ]);
      expect(await readFile(path.join(d, 'pg/postmaster.pid'), 'utf8')).toBe(stalePid);

      // The holder dies mid-start (killed): its lock is taken over and the start goes on.
      const gone = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await gone;
      const again = await starting;
      try {
        expect(again.owned).toBe(true);
        expect(await query<{ v: number }>(again.url, 'select v from kept')).toEqual([{ v: 7 }]);
        expect(await postmasterPid(d)).toBe(await livePostmaster(again.url));
        expect(existsSync(path.join(d, 'pg.start.lock'))).toBe(false);
      } finally {
        await again.stop();
      }
    } finally {
      holder.kill('SIGKILL');
      other.kill('SIGKILL');
    }
  }, 60_000);

  it('right after a SIGKILL, two starts at once end with one postmaster, the other attached, and postmaster.pid naming it', async () => {
    const d = await dataDir();
    const first = await startEmbedded({ dataDir: d });
    await query(first.url, "create table kept (v text); insert into kept values ('acknowledged')");
    process.kill(await postmasterPid(d), 'SIGKILL');
    // The killed app was starting it too: its start lock names a dead process.
    await writeFile(path.join(d, 'pg.start.lock'), JSON.stringify({ pid: await deadPid() }));

    const servers = await Promise.all([startEmbedded({ dataDir: d }), startEmbedded({ dataDir: d })]);
    const owner = servers.find((s) => s.owned);
    const attached = servers.find((s) => !s.owned);
    try {
      expect(servers.map((s) => s.owned).sort()).toEqual([false, true]);
      expect(attached?.url).toBe(owner?.url);
      const url = owner?.url as string;
      expect(await query<{ v: string }>(url, 'select v from kept')).toEqual([{ v: 'acknowledged' }]);
      // The lock file is the running postmaster's own, not removed or replaced by the second start.
      const pid = await postmasterPid(d);
      expect(pid).toBe(await livePostmaster(url));
      expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/^\d+ \(postgres\)/);
      // The start lock is released and nothing of the takeover is left behind.
      expect((await readdir(d)).sort()).toEqual(['pg', 'pg-credentials.json']);
    } finally {
      await first.stop();
      await attached?.stop();
      await owner?.stop();
    }
  }, 60_000);

  it('the process that started the server leaves it running while another uses it; the last to leave stops it', async () => {
    const d = await dataDir();
    // The operator command starts the server, the app attaches to it, the command ends first.
    const cliLogs: string[] = [];
    const cli = await startEmbedded({ dataDir: d, log: (m) => cliLogs.push(m) });
    const app = await startEmbedded({ dataDir: d });
    expect([cli.owned, app.owned]).toEqual([true, false]);
    const pid = await postmasterPid(d);
    await cli.stop();
    expect(cliLogs).toContain('leaving the embedded PostgreSQL running for the other processes that use it');
    expect(await query(app.url, 'select 1 as one')).toEqual([{ one: 1 }]);
    expect(await postmasterPid(d)).toBe(pid);

    await app.stop();
    await expect(query(app.url, 'select 1')).rejects.toThrow();
    expect(existsSync(path.join(d, 'pg/postmaster.pid'))).toBe(false);
  }, 60_000);
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
