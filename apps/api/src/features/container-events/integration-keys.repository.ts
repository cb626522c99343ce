import type { IntegrationKey } from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

interface KeyRow {
  id: string;
  name: string;
  key_prefix: string;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export function toIntegrationKey(r: KeyRow): IntegrationKey {
  return {
    id: r.id,
    name: r.name,
    prefix: r.key_prefix,
    createdAt: r.created_at.toISOString(),
    createdBy: r.created_by && r.created_by_name ? { id: r.created_by, name: r.created_by_name } : null,
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
  };
}

const SELECT = sql`k.id, k.name, k.key_prefix, k.created_at, k.created_by, u.name as created_by_name,
  k.last_used_at, k.revoked_at`;

export function integrationKeysRepository(db: Db) {
  return {
    async insert(values: { name: string; prefix: string; hash: string; createdBy: string }): Promise<string> {
      const row = await db
        .insertInto('integration_api_keys')
        .values({
          name: values.name,
          key_prefix: values.prefix,
          key_hash: values.hash,
          created_by: values.createdBy,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async find(id: string): Promise<KeyRow | undefined> {
      const r = await sql<KeyRow>`
        select ${SELECT} from integration_api_keys k left join users u on u.id = k.created_by
        where k.id = ${id}`.execute(db);
      return r.rows[0];
    },

    async list(): Promise<KeyRow[]> {
      const r = await sql<KeyRow>`
        select ${SELECT} from integration_api_keys k left join users u on u.id = k.created_by
        order by k.revoked_at is not null, k.created_at desc, k.id
        limit 1000`.execute(db);
      return r.rows;
    },

    /** Revokes a live key; false when there is none with this id (or it was revoked already). */
    async revoke(id: string): Promise<boolean> {
      const r = await db
        .updateTable('integration_api_keys')
        .set({ revoked_at: new Date() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * The live key with this hash, in one round trip; its last use is written at most once a minute,
     * so a busy integration does not turn every request into a write.
     */
    async use(hash: string): Promise<{ id: string; name: string } | undefined> {
      const r = await sql<{ id: string; name: string }>`
        with k as (
          select id, name, last_used_at from integration_api_keys where key_hash = ${hash} and revoked_at is null
        ), touched as (
          update integration_api_keys set last_used_at = now()
          where id in (select id from k where last_used_at is null or last_used_at < now() - interval '1 minute')
        )
        select id, name from k`.execute(db);
      return r.rows[0];
    },
  };
}
