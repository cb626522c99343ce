import { type ChatMessage, type ChatPage, chatTextSchema, dateTime, uuidSchema } from '@fvg/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { problems } from '../../http/problem.ts';
import type { RecordEvents } from '../../records/events.ts';
import { scopeOf } from '../../records/scope.ts';
import { dossiersRepository } from '../dossiers/dossiers.repository.ts';
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

function encodeBefore(r: MessageRow): string {
  return Buffer.from(JSON.stringify([r.sent_at, r.id])).toString('base64url');
}

/** A cursor is only what encodeBefore made: an instant that exists and a message id; anything else is a 400. */
const beforeCursor = z.tuple([dateTime, uuidSchema]);

function decodeBefore(s: string): [string, string] {
  try {
    const v = beforeCursor.safeParse(JSON.parse(Buffer.from(s, 'base64url').toString()));
    if (v.success) return v.data;
  } catch {
    // not base64url JSON: the same answer as a malformed one
  }
  throw problems.validation([{ field: 'before', message: 'Not a valid cursor' }]);
}

/**
 * Dossier chat between staff and the dossier's customer: persisted messages (plain text), read
 * markers and unread counts. Access is the dossier's: whoever may read the dossier may chat on it.
 */
export function chatService(db: Db, events: RecordEvents) {
  const dossiers = dossiersRepository(db);

  const messages = (dossierId: string) => sql<MessageRow>`
    select m.id, m.dossier_id, m.author_id, u.name as author_name, u.role as author_role, m.text,
           to_char(m.sent_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sent_at,
           coalesce(array(select r.user_id::text from chat_reads r
                          where r.dossier_id = m.dossier_id and r.user_id <> m.author_id and r.last_read_at >= m.sent_at
                          order by r.user_id), '{}') as read_by
    from chat_messages m join users u on u.id = m.author_id
    where m.dossier_id = ${dossierId}`;

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
      const before = opts.before ? decodeBefore(opts.before) : undefined;
      const rows = await sql<MessageRow>`
        select * from (${messages(d.id)}
          ${before ? sql`and (m.sent_at, m.id) < (${before[0]}::timestamptz, ${before[1]}::uuid)` : sql``}
          order by m.sent_at desc, m.id desc limit ${opts.limit + 1}) t
        order by sent_at asc, id asc`.execute(db);
      const more = rows.rows.length > opts.limit;
      const items = more ? rows.rows.slice(1) : rows.rows;
      const unread = await sql<{ n: number }>`
        select count(*)::int as n from chat_messages m
        where m.dossier_id = ${d.id} and m.author_id <> ${user.id}
          and m.sent_at > coalesce((select last_read_at from chat_reads where dossier_id = ${d.id} and user_id = ${user.id}), '-infinity')`.execute(
        db,
      );
      return {
        items: items.map(toMessage),
        unread: unread.rows[0]?.n ?? 0,
        before: more && items[0] ? encodeBefore(items[0]) : null,
      };
    },

    async send(user: SessionUser, dossierId: string, text: unknown): Promise<ChatMessage> {
      const d = await this.dossierFor(user, dossierId);
      const parsed = chatTextSchema.safeParse(text);
      if (!parsed.success)
        throw problems.validation([
          { field: 'text', message: parsed.error.issues[0]?.message ?? 'Invalid text' },
        ]);
      const row = await db.transaction().execute(async (trx) => {
        const m = await trx
          .insertInto('chat_messages')
          .values({ dossier_id: d.id, author_id: user.id, text: parsed.data })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Writing a message means having read everything up to it (timestamp kept in SQL, microseconds intact).
        await sql`
          insert into chat_reads (dossier_id, user_id, last_read_at)
          select dossier_id, author_id, sent_at from chat_messages where id = ${m.id}
          on conflict (dossier_id, user_id) do update set last_read_at = greatest(chat_reads.last_read_at, excluded.last_read_at)`.execute(
          trx,
        );
        return (await sql<MessageRow>`${messages(d.id)} and m.id = ${m.id}`.execute(trx)).rows[0];
      });
      if (!row) throw new Error('message vanished');
      return toMessage(row);
    },

    async markRead(user: SessionUser, dossierId: string, messageId: string): Promise<void> {
      const d = await this.dossierFor(user, dossierId);
      // Markers only move forward. The timestamp stays in SQL: a JS Date would drop its microseconds.
      const r = await sql`
        insert into chat_reads (dossier_id, user_id, last_read_at)
        select dossier_id, ${user.id}, sent_at from chat_messages where id = ${messageId}::uuid and dossier_id = ${d.id}
        on conflict (dossier_id, user_id) do update set last_read_at = greatest(chat_reads.last_read_at, excluded.last_read_at)`.execute(
        db,
      );
      if (!r.numAffectedRows) throw problems.notFound('This message does not exist in this dossier.');
      events.publish({ kind: 'chat', id: d.id, action: 'updated', partyIds: [d.customer_id] });
    },
  };
}
export type ChatService = ReturnType<typeof chatService>;
