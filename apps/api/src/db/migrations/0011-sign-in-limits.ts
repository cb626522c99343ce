import { type Kysely, sql } from 'kysely';

/**
 * Sign-in limits that slow an attacker without locking the owner out (ADR 0016): one row per bucket
 * (account and address, address, account, reset mails) whose slot is taken under the row's lock before
 * a password is checked, and the addresses each user has signed in from, which pass the account limit.
 * Replaces the hit log of 0001, whose count-then-insert let parallel attempts through.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table throttle_buckets (
      bucket text primary key,
      attempts integer not null default 0,
      window_start timestamptz not null default now(),
      strikes integer not null default 0,
      blocked_until timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index throttle_buckets_updated_at on throttle_buckets (updated_at)`.execute(db);

  await sql`
    create table login_known_addresses (
      user_id uuid not null references users (id) on delete cascade,
      address text not null,
      last_success_at timestamptz not null default now(),
      primary key (user_id, address)
    )`.execute(db);

  await sql`drop table rate_limit_hits`.execute(db);
}
