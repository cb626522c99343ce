import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table chat_messages (
      id uuid primary key default gen_random_uuid(),
      dossier_id uuid not null references dossiers (id) on delete cascade,
      author_id uuid not null references users (id),
      text text not null,
      sent_at timestamptz not null default clock_timestamp()
    )`.execute(db);
  await sql`create index chat_messages_dossier on chat_messages (dossier_id, sent_at, id)`.execute(db);
  // Read markers: how far each user has read in each dossier's chat.
  await sql`
    create table chat_reads (
      dossier_id uuid not null references dossiers (id) on delete cascade,
      user_id uuid not null references users (id),
      last_read_at timestamptz not null,
      primary key (dossier_id, user_id)
    )`.execute(db);
}
