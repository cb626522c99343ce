import type { NotificationPage, NotificationsRead } from '@fvg/contracts';
import type { Db } from '../../db/database.ts';
import { problems } from '../../http/problem.ts';
import { openCursor, sealCursor } from '../../records/cursor.ts';
import type { SessionUser } from '../users/users.repository.ts';
import type { NotificationBus } from './notification-bus.ts';
import { notificationsRepository } from './notifications.repository.ts';

/**
 * The signed-in user's own notifications: every query is by the user's id, so another user's
 * notification is as missing as one that never existed (404).
 */
export function notificationsService(db: Db, bus: NotificationBus) {
  const repo = notificationsRepository(db);

  /** The user's other tabs and devices hear of it, so their badges agree. */
  async function announceRead(userId: string): Promise<NotificationsRead> {
    const unread = await repo.unread(userId);
    bus.publish([{ type: 'read', userId, unread }]);
    return { unread };
  }

  return {
    async page(
      user: SessionUser,
      opts: { after?: string | undefined; limit: number },
    ): Promise<NotificationPage> {
      // A cursor opens only for the user who got it.
      const binding = { list: 'notifications', filter: user.id };
      const after = opts.after ? await openCursor(db, binding, opts.after, 2, 'after') : undefined;
      const [rows, unread] = await Promise.all([
        repo.page(user.id, after as [string, string] | undefined, opts.limit),
        repo.unread(user.id),
      ]);
      const more = rows.length > opts.limit;
      const items = more ? rows.slice(0, opts.limit) : rows;
      const last = items.at(-1);
      return {
        items,
        unread,
        next: more && last ? await sealCursor(db, binding, [last.createdAt, last.id]) : null,
      };
    },

    async markRead(user: SessionUser, id: string): Promise<NotificationsRead> {
      if (!(await repo.markRead(user.id, id))) throw problems.notFound('This notification does not exist.');
      return announceRead(user.id);
    },

    async markAllRead(user: SessionUser, upTo?: string): Promise<NotificationsRead> {
      if (!(await repo.markAllRead(user.id, upTo)))
        throw problems.notFound('This notification does not exist.');
      return announceRead(user.id);
    },
  };
}
export type NotificationsService = ReturnType<typeof notificationsService>;
