import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/helpers.ts';
import type { Db } from './database.ts';
import { inRetriedTransaction, inTransaction } from './transaction.ts';

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  await sql`create table tx_probe (n int not null)`.execute(db);
});
afterAll(() => t.drop());
beforeEach(async () => {
  await sql`truncate tx_probe`.execute(db);
});

const insert = (trx: Db, n: number) => sql`insert into tx_probe values (${n})`.execute(trx);
const stored = async () =>
  (await sql<{ n: number }>`select n from tx_probe order by n`.execute(db)).rows.map((r) => r.n);
/** A PostgreSQL error as the driver reports it: only its SQLSTATE matters here. */
const pgError = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });

describe('inTransaction', () => {
  it('commits the work and answers its result', async () => {
    const result = await inTransaction(db, async (trx) => {
      expect(trx.isTransaction).toBe(true);
      await insert(trx, 1);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await stored()).toEqual([1]);
  });

  it('rolls the whole work back when it fails: nothing half-written', async () => {
    await expect(
      inTransaction(db, async (trx) => {
        await insert(trx, 1);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await stored()).toEqual([]);
  });

  it("runs inside a caller's transaction as part of it (the demo seed): the caller's rollback undoes it", async () => {
    await expect(
      db.transaction().execute(async (outer) => {
        await inTransaction(outer, async (trx) => {
          expect(trx).toBe(outer);
          await insert(trx, 2);
        });
        expect(
          (await sql<{ n: number }>`select count(*)::int as n from tx_probe`.execute(outer)).rows[0]?.n,
        ).toBe(1);
        throw new Error('caller gives up');
      }),
    ).rejects.toThrow('caller gives up');
    expect(await stored()).toEqual([]);
  });

  it('with retry, runs the work once more after a deadlock or serialization failure, and only once', async () => {
    for (const code of ['40P01', '40001']) {
      await sql`truncate tx_probe`.execute(db);
      let attempts = 0;
      const n = await inTransaction(
        db,
        async (trx) => {
          attempts++;
          await insert(trx, attempts);
          if (attempts === 1) throw pgError(code);
          return attempts;
        },
        { retry: true },
      );
      expect(n).toBe(2);
      // The failed first attempt left nothing behind.
      expect(await stored()).toEqual([2]);
    }
    let attempts = 0;
    await expect(
      inTransaction(
        db,
        async () => {
          attempts++;
          throw pgError('40P01');
        },
        { retry: true },
      ),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(attempts).toBe(2);
    // The shorthand the shipments use.
    attempts = 0;
    const n = await inRetriedTransaction(db, async () => {
      if (++attempts === 1) throw pgError('40001');
      return attempts;
    });
    expect(n).toBe(2);
  });

  it('without retry, or for another error, or inside a caller’s transaction, does not run the work again', async () => {
    const runs = async (db_: Db, error: Error, retry: boolean) => {
      let attempts = 0;
      await expect(
        inTransaction(
          db_,
          async () => {
            attempts++;
            throw error;
          },
          { retry },
        ),
      ).rejects.toBe(error);
      return attempts;
    };
    expect(await runs(db, pgError('40P01'), false)).toBe(1);
    expect(await runs(db, pgError('23505'), true)).toBe(1);
    await db.transaction().execute(async (outer) => {
      expect(await runs(outer, pgError('40P01'), true)).toBe(1);
    });
  });
});
