import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
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

    const again = await startEmbedded({ dataDir: dir });
    expect(again.owned).toBe(true);
    expect(await query<{ v: string }>(again.url, 'select v from kept')).toEqual([{ v: 'still here' }]);
    await again.stop();
  }, 60_000);
});
