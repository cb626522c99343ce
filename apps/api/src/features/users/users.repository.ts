import type { Role } from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  role: Role;
  party_id: string | null;
  cw_access: boolean;
  active: boolean;
  password_changed_at: Date;
  /** An administrator ended every session of the user then (ADR 0052); null when never. */
  sessions_ended_at: Date | null;
}

export interface SessionUser extends Omit<UserRow, 'password_hash'> {
  party: { id: string; code: string; name: string } | null;
}

const userColumns = [
  'users.id',
  'users.email',
  'users.name',
  'users.role',
  'users.party_id',
  'users.cw_access',
  'users.active',
  'users.password_changed_at',
  'users.sessions_ended_at',
] as const;

export function usersRepository(db: Db) {
  return {
    findByEmail: (email: string) =>
      db
        .selectFrom('users')
        .select([...userColumns, 'users.password_hash'])
        .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.toLowerCase()))
        .executeTakeFirst() as Promise<UserRow | undefined>,

    async findSessionUser(id: string): Promise<SessionUser | undefined> {
      return (await this.findSessionUsers([id])).users.get(id);
    },

    /**
     * Many users in one query (the hub's periodic re-check of every open connection), by id; with
     * `tokenHashes`, which of those tokens were signed out (ended_tokens, by primary key, in the same
     * query: the check costs no extra round trip per request).
     */
    async findSessionUsers(
      ids: readonly string[],
      tokenHashes: readonly string[] = [],
    ): Promise<{ users: Map<string, SessionUser>; endedTokens: Set<string> }> {
      if (ids.length === 0) return { users: new Map(), endedTokens: new Set() };
      const rows = await db
        .selectFrom('users')
        .leftJoin('parties', 'parties.id', 'users.party_id')
        .select([...userColumns, 'parties.code as party_code', 'parties.name as party_name'])
        .select(
          tokenHashes.length > 0
            ? sql<string[]>`array(select e.token_hash from ended_tokens e
                where e.token_hash = any(${[...tokenHashes]}::text[]) and e.user_id = users.id)`.as('ended')
            : sql<string[]>`'{}'::text[]`.as('ended'),
        )
        .where(sql<boolean>`users.id = any(${[...ids]}::uuid[])`)
        .execute();
      return {
        users: new Map(
          rows.map(({ party_code, party_name, ended: _ended, ...user }) => [
            user.id,
            {
              ...user,
              party:
                user.party_id && party_code && party_name
                  ? { id: user.party_id, code: party_code, name: party_name }
                  : null,
            },
          ]),
        ),
        endedTokens: new Set(rows.flatMap((r) => r.ended)),
      };
    },

    insert: (values: {
      email: string;
      name: string;
      password_hash: string;
      role: Role;
      party_id: string | null;
      cw_access: boolean;
    }) => db.insertInto('users').values(values).returning(['id']).executeTakeFirstOrThrow(),

    setPassword: (id: string, passwordHash: string) =>
      db
        .updateTable('users')
        .set({ password_hash: passwordHash, password_changed_at: new Date(), updated_at: new Date() })
        .where('id', '=', id)
        .execute(),

    touchLogin: (id: string) =>
      db.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', id).execute(),

    partyIdByCode: async (code: string) =>
      (
        await db
          .selectFrom('parties')
          .select('id')
          .where((eb) => eb(eb.fn('upper', ['code']), '=', code.toUpperCase()))
          .executeTakeFirst()
      )?.id,

    count: async () =>
      Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
export type UsersRepository = ReturnType<typeof usersRepository>;
