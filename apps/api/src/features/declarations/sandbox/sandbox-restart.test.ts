import { describe, expect, it } from 'vitest';
import { apiTest } from '../../../test/api-test.ts';
import { createTestApp, demoTokens, waitUntil } from '../../../test/helpers.ts';
import { content, declarations, sandbox, sandboxJobs } from './test-support.ts';

const { db, partyId } = apiTest({ app: false });

/** Messages of one declaration, straight from the table (what every node would read). */
async function stored(id: string) {
  return db.db
    .selectFrom('declaration_messages')
    .select(['direction', 'kind', 'mrn'])
    .where('declaration_id', '=', id)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

/** Lodges declarations through a node that only queues (no worker), then stops it. */
async function lodgeOnAQueueingNode(count: number): Promise<string[]> {
  const a = await createTestApp(db, { jobsEnabled: false, sandbox: sandbox() });
  try {
    const { staff } = await demoTokens(a);
    const api = declarations(
      () => a,
      () => staff,
    );
    const ids: string[] = [];
    for (let i = 0; i < count; i++)
      ids.push(await api.lodged(content(i % 2 ? 'export' : 'import', partyId.ACME)));
    for (const id of ids) expect((await api.get(id)).status).toBe('lodged');
    return ids;
  } finally {
    await a.close();
  }
}

describe('restart in the middle', () => {
  it('a lodgement queued on a node that stops is answered once by the next node', async () => {
    const [id] = (await lodgeOnAQueueingNode(1)) as [string];
    expect(await sandboxJobs(db)).toBe(1);
    expect((await stored(id)).map((m) => m.kind)).toEqual(['lodge']);

    const b = await createTestApp(db, { jobsEnabled: true, sandbox: sandbox() });
    try {
      await waitUntil('the chain to end', async () => (await sandboxJobs(db)) === 0);
      const log = await stored(id);
      expect(log.map((m) => `${m.direction} ${m.kind}`)).toEqual([
        'sent lodge',
        'received accepted',
        'received released',
      ]);
      const d = await db.db
        .selectFrom('declarations')
        .select(['status', 'mrn'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(d.status).toBe('released');
      expect(log[1]?.mrn).toBe(d.mrn);
    } finally {
      await b.close();
    }
  });

  it('two nodes working the queue at once still answer each declaration once', async () => {
    const ids = await lodgeOnAQueueingNode(8);
    const b1 = await createTestApp(db, { jobsEnabled: true, jobsConcurrency: 2, sandbox: sandbox() });
    const b2 = await createTestApp(db, { jobsEnabled: true, jobsConcurrency: 2, sandbox: sandbox() });
    try {
      await waitUntil('every chain to end', async () => (await sandboxJobs(db)) === 0, 30_000);
      const mrns = new Set<string>();
      for (const [i, id] of ids.entries()) {
        const log = await stored(id);
        const expected =
          i % 2
            ? ['sent lodge', 'received accepted', 'received released', 'received exit_confirmed']
            : ['sent lodge', 'received accepted', 'received released'];
        expect(log.map((m) => `${m.direction} ${m.kind}`)).toEqual(expected);
        mrns.add(log[1]?.mrn as string);
      }
      expect(mrns.size).toBe(ids.length);
    } finally {
      await Promise.all([b1.close(), b2.close()]);
    }
  });
});
