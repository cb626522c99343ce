import { z } from 'zod';
import type { NotificationRecord } from './notifications.ts';
import { queryInt, textProblem } from './primitives.ts';

/** Where the hub lives, relative to the API base `{host}` (default `/api` → `/api/chat`). */
export const HUB_PATH = '/chat';

/** Client defaults the specification fixes (section 9). */
export const HUB_CLIENT_DEFAULTS = {
  serverTimeoutMs: 30_000,
  keepAliveIntervalMs: 15_000,
  reconnectDelaysMs: [0, 2_000, 10_000, 30_000],
  longPollTimeoutMs: 100_000,
  maxRedirects: 100,
} as const;

export const CHAT_MESSAGE_MAX_LENGTH = 4000;

export const chatTextSchema = z
  .string()
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1, 'A message cannot be empty')
      .max(CHAT_MESSAGE_MAX_LENGTH, `A message has at most ${CHAT_MESSAGE_MAX_LENGTH} characters`)
      .superRefine((s, ctx) => {
        // Hub messages do not pass the HTTP input guard: the text rule is checked here.
        const problem = textProblem(s);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  );

export const chatMessageSchema = z.object({
  id: z.string(),
  dossierId: z.string(),
  author: z.object({ id: z.string(), name: z.string(), role: z.enum(['admin', 'staff', 'customer']) }),
  text: z.string(),
  sentAt: z.string(),
  /** Users (other than the author) who have read up to this message. */
  readBy: z.array(z.string()),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** Kinds of records whose changes the hub announces (one per area, added as areas land); `chat` carries read markers. */
export const RECORD_KINDS = [
  'dossier',
  'party',
  'user',
  'chat',
  'transport',
  'document',
  'container-event',
  'sales-invoice',
  'offer',
  'declaration',
  'stock',
  'shipment',
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** Warehouse kinds: only users with cw_access hear of them (staff and customers alike). */
export const WAREHOUSE_RECORD_KINDS: readonly RecordKind[] = ['stock', 'shipment'];

export interface RecordChanged {
  kind: RecordKind;
  id: string;
  action: 'created' | 'updated' | 'deleted';
}

export interface PresenceUser {
  id: string;
  name: string;
  role: 'admin' | 'staff' | 'customer';
}

export interface Presence {
  dossierId: string;
  users: PresenceUser[];
}

/** A persisted notification of the receiving user (`GET /api/notifications` lists the same records). */
export type HubNotification = NotificationRecord;

/** The user's notifications were read (in another tab, or all at once): the unread count now. */
export interface HubNotificationsRead {
  unread: number;
}

/**
 * Whether the server can reach its database: `down` while it is stopped or restarting (the API answers
 * 503 then), `up` when it is back. Sent by each node to its own connections when it changes.
 */
export interface ServiceStatus {
  database: 'up' | 'down';
}

/** Server → client events, by name. */
export interface HubServerEvents {
  ServiceStatus: (status: ServiceStatus) => void;
  ReceiveMessage: (message: ChatMessage) => void;
  RecordChanged: (change: RecordChanged) => void;
  Presence: (presence: Presence) => void;
  Notification: (notification: HubNotification) => void;
  NotificationsRead: (read: HubNotificationsRead) => void;
}

/** Client → server methods, by name: arguments and result. */
export interface HubClientMethods {
  JoinDossier: { args: [dossierId: string]; result: Presence };
  LeaveDossier: { args: [dossierId: string]; result: void };
  SendMessage: { args: [dossierId: string, text: string]; result: ChatMessage };
  MarkRead: { args: [dossierId: string, messageId: string]; result: void };
}

/** A dossier's id (UUID) or number (`D-2026-000042`), as the dossier routes take it. */
export const hubDossierRefSchema = z
  .string('A dossier id or number is text')
  .min(1, 'A dossier id or number is required')
  .max(64, 'A dossier id or number has at most 64 characters')
  .regex(/^[\w./-]+$/, 'Not a dossier id or number');

/**
 * The parameters of every client → server method, in order, by name. The hub's dispatcher checks each
 * call against them in one place; a method only ever sees parsed values.
 */
export const hubMethodParameters = {
  JoinDossier: { dossierId: hubDossierRefSchema },
  LeaveDossier: { dossierId: hubDossierRefSchema },
  SendMessage: {
    dossierId: hubDossierRefSchema,
    // PostgreSQL text cannot hold NUL: refused here, not failing in the database.
    text: z
      .string()
      .refine((t) => !t.includes('\u0000'), 'A message cannot contain NUL characters')
      .pipe(chatTextSchema),
  },
  MarkRead: { dossierId: hubDossierRefSchema, messageId: z.guid('A message id is a UUID') },
} satisfies { [M in keyof HubClientMethods]: Record<string, z.ZodType> };

/** `GET /api/dossiers/{id}/messages?before=&limit=`: a page of the chat, oldest first, with the caller's unread count. */
export const chatPageSchema = z.object({
  items: z.array(chatMessageSchema),
  unread: z.number().int(),
  /** Cursor for older messages, or null at the start of the conversation. */
  before: z.string().nullable(),
});
export type ChatPage = z.infer<typeof chatPageSchema>;

export const chatPageQuerySchema = z.object({
  before: z.string().max(200).optional(),
  limit: queryInt({ min: 1, max: 200 }).default(50),
});
