import { type Kysely, sql } from 'kysely';

/**
 * Sessions an operator can end (issue 24 item 6, ADR 0052). Access tokens stay stateless JWTs; two
 * small additions let the server end them before they expire:
 * - `users.sessions_ended_at`: an administrator ended every session of the user; tokens issued before
 *   it are refused (read with the user row every request already reads, so it costs nothing);
 * - `ended_tokens`: tokens signed out one by one (the SHA-256 of the token, as reset tokens are kept),
 *   looked up by primary key inside that same user query. A row is only needed until the token would
 *   have expired anyway: `expires_at` lets sign-out delete the expired ones as it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column sessions_ended_at timestamptz`.execute(db);
  await sql`
    create table ended_tokens (
      token_hash text primary key check (token_hash ~ '^[0-9a-f]{64}$'),
      user_id uuid not null references users (id) on delete cascade,
      expires_at timestamptz not null,
      ended_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index ended_tokens_expires_at on ended_tokens (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists ended_tokens`.execute(db);
  await sql`alter table users drop column if exists sessions_ended_at`.execute(db);
}
