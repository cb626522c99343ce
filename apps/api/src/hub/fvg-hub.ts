import type { HubServerEvents, PresenceUser, RecordChanged } from '@fvg/contracts';
import type { AuthService } from '../features/auth/auth.service.ts';
import type { ChatService } from '../features/chat/chat.service.ts';
import type { SessionUser } from '../features/users/users.repository.ts';
import { HttpProblem } from '../http/problem.ts';
import type { RecordEvents } from '../records/events.ts';
import type { PresenceStore } from './presence.ts';
import { type HubContext, type HubDefinition, HubError } from './protocol/hub.ts';
import type { LifetimeManager } from './protocol/lifetime.ts';
import { MessageType } from './protocol/messages.ts';
import { toRecord } from './protocol/records.ts';

/** Group names: one per dossier room, per user, per customer party, and all staff. */
export const groups = {
  dossier: (id: string) => `dossier:${id}`,
  user: (id: string) => `user:${id}`,
  party: (id: string) => `party:${id}`,
  staff: 'staff',
};

const JOINED = 'joined-dossiers';

function presenceUser(u: SessionUser): PresenceUser {
  return { id: u.id, name: u.name, role: u.role };
}

/** Service errors (404, 400 …) become hub errors with the same message; nothing else leaks. */
async function asHub<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof HttpProblem) throw new HubError(e.options.errors?.[0]?.message ?? e.detail ?? e.title);
    throw e;
  }
}

function joined(ctx: HubContext<SessionUser>): Map<string, string> {
  let map = ctx.items.get(JOINED) as Map<string, string> | undefined;
  if (!map) {
    map = new Map();
    ctx.items.set(JOINED, map);
  }
  return map;
}

function invocation<E extends keyof HubServerEvents>(
  target: E,
  ...args: Parameters<HubServerEvents[E]>
): string {
  return toRecord({ type: MessageType.Invocation, target, arguments: args });
}

/**
 * Our hub: dossier chat, presence, live record changes and notifications. Authorisation on every
 * method is the API's own (the chat service checks the dossier's scope).
 */
export function fvgHub(deps: {
  auth: AuthService;
  chat: ChatService;
  presence: PresenceStore;
}): HubDefinition<SessionUser> {
  const { auth, chat, presence } = deps;

  async function announcePresence(ctx: HubContext<SessionUser>, dossierId: string) {
    const users = await presence.users(dossierId);
    await ctx.clients.group(groups.dossier(dossierId)).send('Presence', { dossierId, users });
    return users;
  }

  return {
    authenticate: async (token) => auth.authenticate(token).catch(() => undefined),
    userId: (u) => u.id,

    async onConnected(ctx) {
      // Personal and audience groups come from the user, so a reconnect (new connection id) has them at once.
      await ctx.groups.add(groups.user(ctx.user.id));
      if (ctx.user.role === 'customer' && ctx.user.party_id)
        await ctx.groups.add(groups.party(ctx.user.party_id));
      else await ctx.groups.add(groups.staff);
    },

    async onDisconnected(ctx) {
      for (const dossierId of joined(ctx).keys()) {
        await presence.remove(dossierId, ctx.connectionId);
        await announcePresence(ctx, dossierId);
      }
    },

    methods: {
      async JoinDossier(ctx, dossierId: unknown) {
        if (typeof dossierId !== 'string') throw new HubError('JoinDossier needs a dossier id.');
        const d = await asHub(() => chat.dossierFor(ctx.user, dossierId));
        joined(ctx).set(d.id, d.number);
        await ctx.groups.add(groups.dossier(d.id));
        await presence.add(d.id, ctx.connectionId, presenceUser(ctx.user));
        const users = await announcePresence(ctx, d.id);
        return { dossierId: d.id, users };
      },

      async LeaveDossier(ctx, dossierId: unknown) {
        if (typeof dossierId !== 'string') throw new HubError('LeaveDossier needs a dossier id.');
        if (!joined(ctx).delete(dossierId)) return;
        await ctx.groups.remove(groups.dossier(dossierId));
        await presence.remove(dossierId, ctx.connectionId);
        await announcePresence(ctx, dossierId);
      },

      async SendMessage(ctx, dossierId: unknown, text: unknown) {
        if (typeof dossierId !== 'string') throw new HubError('SendMessage needs a dossier id.');
        const message = await asHub(() => chat.send(ctx.user, dossierId, text));
        await ctx.clients.group(groups.dossier(message.dossierId)).send('ReceiveMessage', message);
        const d = await chat.dossierFor(ctx.user, message.dossierId);
        const notification = {
          id: message.id,
          title: `New message on ${d.number}`,
          body: message.text.length > 140 ? `${message.text.slice(0, 139)}…` : message.text,
          link: `/dossiers/${d.number}?tab=chat`,
          at: message.sentAt,
        };
        // The other side hears of it even when not looking at the dossier.
        const audience = ctx.user.role === 'customer' ? groups.staff : groups.party(d.customer_id);
        await ctx.clients.group(audience).send('Notification', notification);
        return message;
      },

      async MarkRead(ctx, dossierId: unknown, messageId: unknown) {
        if (typeof dossierId !== 'string' || typeof messageId !== 'string') {
          throw new HubError('MarkRead needs a dossier id and a message id.');
        }
        await asHub(() => chat.markRead(ctx.user, dossierId, messageId));
      },
    },
  };
}

/**
 * Record changes from the one event bus, to whoever may see the record: all staff, plus the customer
 * parties the change names. The web app turns them into query invalidations.
 */
export function forwardRecordChanges(events: RecordEvents, lifetime: LifetimeManager): () => void {
  return events.subscribe(({ partyIds, ...change }) => {
    const payload = invocation('RecordChanged', change as RecordChanged);
    void lifetime.send({ scope: 'group', key: groups.staff, payload });
    for (const partyId of partyIds ?? [])
      void lifetime.send({ scope: 'group', key: groups.party(partyId), payload });
    if (change.kind === 'user') void lifetime.send({ scope: 'group', key: groups.user(change.id), payload });
  });
}
