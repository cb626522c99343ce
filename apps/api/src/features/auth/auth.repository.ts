import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export function authRepository(db: Db) {
  return {
    /** The HMAC secret shared by every node: the first node to start creates it. */
    async jwtSecret(generate: () => string): Promise<string> {
      await db
        .insertInto('settings')
        .values({ key: 'jwt_secret', value: generate() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'jwt_secret')
        .executeTakeFirstOrThrow();
      return row.value;
    },

    /** Stores a new reset token and voids the user's earlier unused ones (call inside a transaction). */
    async insertResetToken(userId: string, tokenHash: string, ttlMinutes: number): Promise<void> {
      await db
        .updateTable('password_reset_tokens')
        .set({ used_at: new Date() })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
      await db
        .insertInto('password_reset_tokens')
        .values({
          user_id: userId,
          token_hash: tokenHash,
          expires_at: sql<Date>`now() + make_interval(mins => ${ttlMinutes})`,
        })
        .execute();
    },
  };
}
