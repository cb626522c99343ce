import { type ChatMessage, type ChatPage, chatTextSchema } from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { openCursor, sealCursor } from '../../records/cursor.ts';
import type { RecordEvents } from '../../records/events.ts';
import { type Scope, scopeOf } from '../../records/scope.ts';
import { chatVisibleTo, dossiersRepository } from '../dossiers/dossiers.repository.ts';
import { type NotificationBus, newSignals } from '../notifications/notification-bus.ts';
import { insertNotifications, recipients } from '../notifications/notifications.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';

interface MessageRow {
  id: string;
  dossier_id: string;
  author_id: string;
  author_name: string;
  author_role: ChatMessage['author']['role'];
  text: string;
  sent_at: string;
  read_by: string[];
}

function toMessage(r: MessageRow): ChatMessage {
  return {
    id: r.id,
    dossierId: r.dossier_id,
    author: { id: r.author_id, name: r.author_name, role: r.author_role },
    text: r.text,
    sentAt: r.sent_at,
    readBy: r.read_by,
  };
}

/** A notification's body: who wrote, and the start of the message. */
function excerpt(author: string, text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return `${author}: ${line.length > 140 ? `${line.slice(0, 139)}…` : line}`;
}

/**
 * Dossier chat between staff and the dossier's customer: persisted messages (plain text), read
 * markers and unread counts. Access is the dossier's: whoever may read the dossier may chat on it.
 * Each message notifies the other side (ADR 0024): a customer's the dossier's handler (or all staff
 * when it has none), staff's the customer users of the dossier's party. A message belongs to the
 * party the dossier was for when it was written (ADR 0044): a customer reads only their party's.
 */
export function chatService(db: Db, events: RecordEvents, notices: NotificationBus) {
  const dossiers = dossiersRepository(db);

  // A customer sees who read a message among staff and their own party only.
  const messages = (dossierId: string, scope: Scope) => sql<MessageRow>`
    select m.id, m.dossier_id, m.author_id, u.name as author_name, u.role as author_role, m.text,
           to_char(m.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sent_at,
           coalesce(array(select r.user_id::text from chat_reads r join users ru on ru.id = r.user_id
                          where r.dossier_id = m.dossier_id and r.user_id <> m.author_id and r.last_read_at >= m.sent_at
                            and (ru.role <> 'customer' or ru.party_id = m.party_id)
                          order by r.user_id), '{}') as read_by
    from chat_messages m join users u on u.id = m.author_id
    where m.dossier_id = ${dossierId} and ${chatVisibleTo(scope)}`;

  return {
    /** The dossier, if the user may see it; the same 404 as for one that does not exist. */
    async dossierFor(user: SessionUser, dossierId: string) {
      const d = await dossiers.find(scopeOf(user), dossierId);
      if (!d) throw problems.notFound('This dossier does not exist.');
      return d;
    },

    async page(
      user: SessionUser,
      dossierId: string,
      opts: { before?: string | undefined; limit: number },
    ): Promise<ChatPage> {
      const d = await this.dossierFor(user, dossierId);
      const scope = scopeOf(user);
      // A page link of this dossier's chat only (the message order is fixed).
      const binding = { list: 'chat', filter: d.id };
      const before = opts.before ? await openCursor(db, binding, opts.before, 2, 'before') : undefined;
      const rows = await sql<MessageRow>`
        select * from (${messages(d.id, scope)}
          ${before ? sql`and (m.sent_at, m.id) < (${before[0]}::timestamptz, ${before[1]}::uuid)` : sql``}
          order by m.sent_at desc, m.id desc limit ${opts.limit + 1}) t
        order by sent_at asc, id asc`.execute(db);
      const more = rows.rows.length > opts.limit;
      const items = more ? rows.rows.slice(1) : rows.rows;
      const unread = await sql<{ n: number }>`
        select count(*)::int as n from chat_messages m
        where m.dossier_id = ${d.id} and m.author_id <> ${user.id} and ${chatVisibleTo(scope)}
          and m.sent_at > coalesce((select last_read_at from chat_reads where dossier_id = ${d.id} and user_id = ${user.id}), '-infinity')`.execute(
        db,
      );
      return {
        items: items.map(toMessage),
        unread: unread.rows[0]?.n ?? 0,
        before: more && items[0] ? await sealCursor(db, binding, [items[0].sent_at, items[0].id]) : null,
      };
    },

    async send(user: SessionUser, dossierId: string, text: unknown): Promise<ChatMessage> {
      return (await this.post(user, dossierId, text)).message;
    },

    /** Sends, and says which party the message belongs to (the hub delivers it to that party's side only). */
    async post(
      user: SessionUser,
      dossierId: string,
      text: unknown,
    ): Promise<{ message: ChatMessage; partyId: string }> {
      const d = await this.dossierFor(user, dossierId);
      const parsed = chatTextSchema.safeParse(text);
      if (!parsed.success)
        throw problems.validation([
          { field: 'text', message: parsed.error.issues[0]?.message ?? 'Invalid text' },
        ]);
      const row = await inTransaction(db, async (trx) => {
        // The party it is said to is the dossier's customer now: the row is held so a change of customer
        // waits for this message (or this sees the change, and a customer of the former party gets a 404).
        const held = await trx
          .selectFrom('dossiers')
          .select('customer_id')
          .where('id', '=', d.id)
          .forShare()
          .executeTakeFirst();
        const scope = scopeOf(user);
        if (!held || (!scope.all && held.customer_id !== scope.partyId))
          throw problems.notFound('This dossier does not exist.');
        const partyId = held.customer_id;
        const m = await trx
          .insertInto('chat_messages')
          .values({ dossier_id: d.id, author_id: user.id, party_id: partyId, text: parsed.data })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Writing a message means having read everything up to it (timestamp kept in SQL, microseconds intact).
        await sql`
          insert into chat_reads (dossier_id, user_id, last_read_at)
          select dossier_id, author_id, sent_at from chat_messages where id = ${m.id}
          on conflict (dossier_id, user_id) do update set last_read_at = greatest(chat_reads.last_read_at, excluded.last_read_at)`.execute(
          trx,
        );
        const stored = (await sql<MessageRow>`${messages(d.id, scope)} and m.id = ${m.id}`.execute(trx))
          .rows[0];
        if (!stored) throw new Error('message vanished');
        const deliveries = await insertNotifications(
          trx,
          user.role === 'customer' ? recipients.handlerOrStaff(d.id) : recipients.partyCustomers(partyId),
          {
            kind: 'chat-message',
            title: `New message on ${d.number}`,
            body: excerpt(stored.author_name, stored.text),
            link: `/dossiers/${d.number}?tab=chat`,
            dossierId: d.id,
          },
          user.id,
        );
        return { stored, deliveries, partyId };
      });
      notices.publish(newSignals(row.deliveries));
      // Lists showing unread counts per dossier refresh (the room itself has the message from the hub).
      events.publish({ kind: 'chat', id: d.id, action: 'created', partyIds: [row.partyId] });
      return { message: toMessage(row.stored), partyId: row.partyId };
    },

    async markRead(user: SessionUser, dossierId: string, messageId: string): Promise<void> {
      const d = await this.dossierFor(user, dossierId);
      // Markers only move forward. The timestamp stays in SQL: a JS Date would drop its microseconds.
      const r = await sql`
        insert into chat_reads (dossier_id, user_id, last_read_at)
        select dossier_id, ${user.id}, sent_at from chat_messages m
        where id = ${messageId}::uuid and dossier_id = ${d.id} and ${chatVisibleTo(scopeOf(user))}
        on conflict (dossier_id, user_id) do update set last_read_at = greatest(chat_reads.last_read_at, excluded.last_read_at)`.execute(
        db,
      );
      if (!r.numAffectedRows) throw problems.notFound('This message does not exist in this dossier.');
      events.publish({ kind: 'chat', id: d.id, action: 'updated', partyIds: [d.customer_id] });
    },
  };
}
export type ChatService = ReturnType<typeof chatService>;
