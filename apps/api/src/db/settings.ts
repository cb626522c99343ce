import type { Db } from './database.ts';

/**
 * A secret every node shares, kept in `settings` under `key`: the first node to ask creates it with
 * `generate`, every later one (and every restart) reads the same value.
 */
export async function sharedSecret(db: Db, key: string, generate: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: generate() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return row.value;
}
