import { z } from 'zod';
import { queryInt } from './primitives.ts';

/** What a notification is about: the events that raise one today (more come with offers, invoices …). */
export const NOTIFICATION_KINDS = ['chat-message', 'booking-requested', 'invoice-overdue'] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** One notification of the signed-in user, as the list and the hub's `Notification` event carry it. */
export const notificationSchema = z.object({
  id: z.string(),
  kind: notificationKindSchema,
  title: z.string(),
  body: z.string(),
  /** A path in the app the notification links to (the record), or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  /** When the user read it; null while unread. */
  readAt: z.string().nullable(),
});
export type NotificationRecord = z.infer<typeof notificationSchema>;

/** `GET /api/notifications?after=&limit=`: newest first, a keyset page, with the user's unread count. */
export const notificationPageSchema = z.object({
  items: z.array(notificationSchema),
  /** How many of the user's notifications are unread (all of them, not just this page). */
  unread: z.number().int(),
  /** Cursor for older notifications, or null at the oldest. */
  next: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationPageQuerySchema = z.object({
  after: z.string().max(200).optional(),
  limit: queryInt({ min: 1, max: 100 }).default(20),
});

/**
 * `POST /api/notifications/read-all`: all of the user's notifications read, or with `upTo` (the newest
 * one the user saw) that one and all older ones, so that one arriving meanwhile stays unread.
 */
export const notificationsReadAllSchema = z
  .object({ upTo: z.guid('A notification id is a UUID').optional() })
  .strict();
export type NotificationsReadAll = z.infer<typeof notificationsReadAllSchema>;

/** The answer of `POST /api/notifications/{id}/read` and `/read-all`: the unread count after it. */
export const notificationsReadSchema = z.object({ unread: z.number().int() });
export type NotificationsRead = z.infer<typeof notificationsReadSchema>;
