import { type Kysely, sql } from 'kysely';

/**
 * Notifications per user (ADR 0024): written in the transaction of the fact that raises them (a chat
 * message, a booking request), pushed live through the hub to that user only. A notification about a
 * dossier goes with the dossier. Old rows are purged on write (read ones after 90 days, any after a year).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      kind text not null check (kind in ('chat-message', 'booking-requested')),
      title text not null,
      body text not null,
      link text,
      dossier_id uuid references dossiers (id) on delete cascade,
      created_at timestamptz not null default clock_timestamp(),
      read_at timestamptz
    )`.execute(db);
  // The list (newest first, keyset) and the purge of a user's old rows.
  await sql`create index notifications_user on notifications (user_id, created_at desc, id desc)`.execute(db);
  // The unread count on every list and badge: only unread rows are in this index.
  await sql`create index notifications_unread on notifications (user_id) where read_at is null`.execute(db);
  // The foreign key's cascade on a dossier's deletion.
  await sql`create index notifications_dossier on notifications (dossier_id) where dossier_id is not null`.execute(
    db,
  );
}
