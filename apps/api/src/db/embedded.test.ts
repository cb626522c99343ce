import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSharedBuffersMb, loadConfig } from '../config.ts';
import { startEmbedded } from './embedded.ts';

let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

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
