import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await sql`
    create table parties (
      id uuid primary key default gen_random_uuid(),
      code text not null,
      name text not null,
      kinds text[] not null default '{}',
      country_code char(2) not null,
      vat_number text,
      eori text,
      street text,
      postal_code text,
      city text,
      email text,
      phone text,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      created_by uuid,
      updated_at timestamptz not null default now(),
      updated_by uuid
    )`.execute(db);
  await sql`create unique index parties_code_key on parties (upper(code))`.execute(db);

  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null,
      name text not null,
      password_hash text,
      role text not null check (role in ('admin', 'staff', 'customer')),
      party_id uuid references parties (id),
      cw_access boolean not null default false,
      active boolean not null default true,
      password_changed_at timestamptz not null default now(),
      last_login_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint customer_has_party check (role <> 'customer' or party_id is not null)
    )`.execute(db);
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);

  await sql`
    create table password_reset_tokens (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index password_reset_tokens_user on password_reset_tokens (user_id)`.execute(db);

  await sql`
    create table mail_outbox (
      id uuid primary key default gen_random_uuid(),
      to_address text not null,
      subject text not null,
      text_body text not null,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      error text
    )`.execute(db);

  await sql`create table settings (key text primary key, value text not null)`.execute(db);

  await sql`
    create table rate_limit_hits (
      id bigint generated always as identity primary key,
      bucket text not null,
      at timestamptz not null default now()
    )`.execute(db);
  await sql`create index rate_limit_hits_bucket_at on rate_limit_hits (bucket, at)`.execute(db);
}
