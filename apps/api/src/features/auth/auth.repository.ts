import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { sharedSecret } from '../../db/settings.ts';

export function authRepository(db: Db) {
  return {
    /** The HMAC secret shared by every node: the first node to start creates it. */
    jwtSecret: (generate: () => string): Promise<string> => sharedSecret(db, 'jwt_secret', generate),

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

    /** Whether this account signed in successfully from this address within the last `days`. */
    async isKnownAddress(email: string, address: string, days: number): Promise<boolean> {
      const row = await db
        .selectFrom('login_known_addresses as k')
        .innerJoin('users as u', 'u.id', 'k.user_id')
        .select('k.user_id')
        .where('u.email', '=', email)
        .where('k.address', '=', address)
        .where('k.last_success_at', '>', sql<Date>`now() - make_interval(days => ${days})`)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Records a successful sign-in from this address and forgets the user's expired ones. */
    async rememberAddress(userId: string, address: string, days: number): Promise<void> {
      await db
        .insertInto('login_known_addresses')
        .values({ user_id: userId, address })
        .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_success_at: sql`now()` }))
        .execute();
      await db
        .deleteFrom('login_known_addresses')
        .where('user_id', '=', userId)
        .where('last_success_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
        .execute();
    },
  };
}
