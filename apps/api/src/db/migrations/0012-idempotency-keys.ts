import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys (ADR 0020): the first answer to a POST sent with an `Idempotency-Key`, per user,
 * replayed to a retry for 24 hours. A row without a status is the "in progress" marker of the
 * request that claimed the key; the primary key makes that claim atomic across nodes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      user_id uuid not null references users (id) on delete cascade,
      key text not null check (key ~ '^[!-~]{1,255}$'),
      request text not null,
      fingerprint text not null check (fingerprint ~ '^[0-9a-f]{64}$'),
      status smallint check (status between 100 and 599),
      headers jsonb,
      body bytea,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      primary key (user_id, key)
    )`.execute(db);
  await sql`create index idempotency_keys_created_at on idempotency_keys (created_at)`.execute(db);
}
