import type { NotificationKind, NotificationRecord } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** An instant with its microseconds, so that a keyset cursor made from it finds the exact row again. */
const instant = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

interface NotificationRow {
  id: string;
  user_id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  created_at: string;
  read_at: string | null;
}

const COLUMNS = sql`id, user_id, kind, title, body, link, ${instant('created_at')} as created_at, ${instant('read_at')} as read_at`;

function toRecord(r: NotificationRow): NotificationRecord {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    link: r.link,
    createdAt: r.created_at,
    readAt: r.read_at,
  };
}

/** What a notification says; whom it goes to is a {@link Recipients} query. */
export interface NotificationDraft {
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  /** The dossier it is about: the notification goes when the dossier does. */
  dossierId: string | null;
}

/** A stored notification and the one user it is for, to be pushed through the hub after the commit. */
export interface NotificationDelivery {
  userId: string;
  notification: NotificationRecord;
}

/** A query selecting the `id` of every recipient (active users only). */
export type Recipients = RawBuilder<{ id: string }>;

/**
 * The recipient sets of today's events. Customers are only ever chosen by their own party, so a
 * notification never reaches another party's users.
 */
export const recipients = {
  /** All active staff and admins. */
  staff: (): Recipients => sql`select id from users where active and role in ('staff', 'admin')`,
  /** The dossier's handler if it has an active one, otherwise all staff (nobody owns it yet). */
  handlerOrStaff: (dossierId: string): Recipients => sql`
    select h.id from dossiers d join users h on h.id = d.handler_id and h.active where d.id = ${dossierId}
    union all
    select id from users where active and role in ('staff', 'admin')
      and not exists (select 1 from dossiers d join users h on h.id = d.handler_id and h.active where d.id = ${dossierId})`,
  /** The active customer users of one party. */
  partyCustomers: (partyId: string): Recipients =>
    sql`select id from users where active and role = 'customer' and party_id = ${partyId}`,
};

/** How long a read notification is kept, and any notification at all. */
export const KEEP_READ = '90 days';
export const KEEP_ANY = '1 year';

/**
 * Stores one notification per recipient (but never for `actorId`, who caused it) in the caller's
 * transaction, and purges the recipients' old rows in the same statement, which keeps the table
 * bounded without a timer: read ones older than {@link KEEP_READ}, any older than {@link KEEP_ANY}.
 */
export async function insertNotifications(
  trx: Db,
  to: Recipients,
  draft: NotificationDraft,
  actorId: string,
): Promise<NotificationDelivery[]> {
  const rows = await sql<NotificationRow>`
    with r as (select distinct id from (${to}) t where id <> ${actorId}),
    purged as (
      delete from notifications n using r
      where n.user_id = r.id
        and ((n.read_at is not null and n.read_at < now() - ${KEEP_READ}::interval)
             or n.created_at < now() - ${KEEP_ANY}::interval)
    ),
    inserted as (
      insert into notifications (user_id, kind, title, body, link, dossier_id)
      select id, ${draft.kind}, ${draft.title}, ${draft.body}, ${draft.link}, ${draft.dossierId}::uuid from r
      returning *
    )
    select ${COLUMNS} from inserted order by user_id`.execute(trx);
  return rows.rows.map((r) => ({ userId: r.user_id, notification: toRecord(r) }));
}

export function notificationsRepository(db: Db) {
  return {
    /** A page of the user's notifications, newest first, after the keyset position `after`. */
    async page(userId: string, after: [string, string] | undefined, limit: number) {
      const rows = await sql<NotificationRow>`
        select ${COLUMNS} from notifications
        where user_id = ${userId}
          ${after ? sql`and (created_at, id) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
        order by created_at desc, id desc
        limit ${limit + 1}`.execute(db);
      return rows.rows.map(toRecord);
    },

    async unread(userId: string): Promise<number> {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from notifications where user_id = ${userId} and read_at is null`.execute(
        db,
      );
      return r.rows[0]?.n ?? 0;
    },

    /** Marks one of the user's notifications read (again is fine); false if the user has no such one. */
    async markRead(userId: string, id: string): Promise<boolean> {
      const r = await sql`
        update notifications set read_at = coalesce(read_at, now())
        where id = ${id} and user_id = ${userId}`.execute(db);
      return Number(r.numAffectedRows ?? 0) > 0;
    },

    /** All unread ones, or those up to and including `upTo`; false if the user has no `upTo`. */
    async markAllRead(userId: string, upTo?: string): Promise<boolean> {
      if (!upTo) {
        await sql`update notifications set read_at = now() where user_id = ${userId} and read_at is null`.execute(
          db,
        );
        return true;
      }
      const r = await sql<{ found: boolean }>`
        with mark as (select created_at, id from notifications where id = ${upTo} and user_id = ${userId}),
        done as (
          update notifications n set read_at = now() from mark
          where n.user_id = ${userId} and n.read_at is null and (n.created_at, n.id) <= (mark.created_at, mark.id)
        )
        select exists (select 1 from mark) as found`.execute(db);
      return r.rows[0]?.found === true;
    },
  };
}
