import {
  type HubClientMethods,
  type HubServerEvents,
  hubMethodParameters,
  type PresenceUser,
  type RecordChanged,
  WAREHOUSE_RECORD_KINDS,
} from '@fvg/contracts';
import type { DatabaseStatus } from '../db/availability.ts';
import type { AuthService } from '../features/auth/auth.service.ts';
import type { SessionEndReason, Sessions } from '../features/auth/sessions.ts';
import type { ChatService } from '../features/chat/chat.service.ts';
import type { NotificationBus } from '../features/notifications/notification-bus.ts';
import type { SessionUser } from '../features/users/users.repository.ts';
import { HttpProblem } from '../http/problem.ts';
import type { RecordEvents } from '../records/events.ts';
import type { PresenceStore } from './presence.ts';
import {
  type HubContext,
  type HubDefinition,
  HubError,
  type HubMethod,
  type HubRefusal,
  SESSION_ENDED,
} from './protocol/hub.ts';
import type { LifetimeManager } from './protocol/lifetime.ts';
import { MessageType } from './protocol/messages.ts';
import { toRecord } from './protocol/records.ts';

/**
 * Group names: one per dossier room, per user, per customer party, and all staff; the customs
 * warehouse's changes go only to the cw_access audience (staff with it, a party's customers with it).
 */
const DOSSIER_PREFIX = 'dossier:';
export const groups = {
  dossier: (id: string) => `${DOSSIER_PREFIX}${id}`,
  user: (id: string) => `user:${id}`,
  party: (id: string) => `party:${id}`,
  staff: 'staff',
  staffCw: 'staff-cw',
  partyCw: (id: string) => `party-cw:${id}`,
};

const JOINED = 'joined-dossiers';

/** The connection's groups (party, staff) came from these: when one changes, it must connect anew. */
const ACCESS_CHANGED = 'Your access rights have changed. Connect again.';

function sameAccess(a: SessionUser, b: SessionUser): boolean {
  return a.role === b.role && a.party_id === b.party_id && a.cw_access === b.cw_access;
}

/** A re-checked user goes on unless the rights its groups came from changed. */
function verdict(before: SessionUser, user: SessionUser): { user: SessionUser } | HubRefusal {
  return sameAccess(before, user) ? { user } : { error: ACCESS_CHANGED, allowReconnect: true };
}

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

  /** The connection is out of the dossier's room: its presence there ends. */
  async function left(ctx: HubContext<SessionUser>, dossierId: string) {
    if (!joined(ctx).delete(dossierId)) return;
    await ctx.groups.remove(groups.dossier(dossierId));
    await presence.remove(dossierId, ctx.connectionId);
    await announcePresence(ctx, dossierId);
  }

  return {
    // A refused token is no user (401); the database being away is an error (503), not a signed-out user.
    authenticate: async (token) =>
      auth.authenticate(token).catch((e: unknown) => {
        if (e instanceof HttpProblem) return undefined;
        throw e;
      }),
    // The HTTP API's own check on every call (active, not expired, issued after the last password
    // change), and the user's current record for authorisation rather than the negotiation's.
    async recheck(token, before) {
      let user: SessionUser;
      try {
        user = await auth.authenticate(token);
      } catch (e) {
        if (e instanceof HttpProblem) return { error: SESSION_ENDED };
        throw e;
      }
      return verdict(before, user);
    },
    // The same for every open connection every HUB_RECHECK_SECONDS: one user query per round.
    async recheckMany(connections) {
      const users = await auth.authenticateMany(connections.map((c) => c.token));
      return connections.map((c, i) => {
        const user = users[i];
        return !user || user instanceof HttpProblem ? { error: SESSION_ENDED } : verdict(c.user, user);
      });
    },
    expiresAt: async (token) => {
      const claims = token ? await auth.signer.verify(token) : undefined;
      return claims ? claims.exp * 1000 : undefined;
    },
    userId: (u) => u.id,
    parameters: hubMethodParameters,

    async onConnected(ctx) {
      // Personal and audience groups come from the user, so a reconnect (new connection id) has them at once.
      await ctx.groups.add(groups.user(ctx.user.id));
      if (ctx.user.role === 'customer' && ctx.user.party_id) {
        await ctx.groups.add(groups.party(ctx.user.party_id));
        if (ctx.user.cw_access) await ctx.groups.add(groups.partyCw(ctx.user.party_id));
      } else {
        await ctx.groups.add(groups.staff);
        // A changed cw_access revokes the session (sameAccess), so this group follows the flag.
        if (ctx.user.cw_access) await ctx.groups.add(groups.staffCw);
      }
    },

    async onDisconnected(ctx) {
      for (const dossierId of joined(ctx).keys()) {
        await presence.remove(dossierId, ctx.connectionId);
        await announcePresence(ctx, dossierId);
      }
    },

    // Taken out of a dossier's room by the server (its customer changed, see forwardRecordChanges).
    async onRemovedFromGroup(ctx, group) {
      if (group.startsWith(DOSSIER_PREFIX)) await left(ctx, group.slice(DOSSIER_PREFIX.length));
    },

    methods: {
      async JoinDossier(ctx, dossierId: string) {
        const d = await asHub(() => chat.dossierFor(ctx.user, dossierId));
        await ctx.groups.add(groups.dossier(d.id));
        // In the room first, then checked again: a change of the dossier's customer committed meanwhile
        // either fails this check or finds the connection in the room (forwardRecordChanges).
        try {
          await asHub(() => chat.dossierFor(ctx.user, d.id));
        } catch (e) {
          await ctx.groups.remove(groups.dossier(d.id));
          throw e;
        }
        joined(ctx).set(d.id, d.number);
        await presence.add(d.id, ctx.connectionId, presenceUser(ctx.user));
        const users = await announcePresence(ctx, d.id);
        return { dossierId: d.id, users };
      },

      async LeaveDossier(ctx, dossierId: string) {
        await left(ctx, dossierId);
      },

      async SendMessage(ctx, dossierId: string, text: string) {
        const { message, partyId } = await asHub(() => chat.post(ctx.user, dossierId, text));
        // To the room's staff and the customers of the party it was said to only: a connection of another
        // party still in the room while the dossier changes customer does not hear it (ADR 0044).
        await ctx.clients
          .groupAlsoIn(groups.dossier(message.dossierId), [groups.staff, groups.party(partyId)])
          .send('ReceiveMessage', message);
        // The other side's notifications were stored with the message and reach them through
        // forwardNotifications, each user's own only.
        return message;
      },

      async MarkRead(ctx, dossierId: string, messageId: string) {
        await asHub(() => chat.markRead(ctx.user, dossierId, messageId));
      },
      // Every method is a contract method, hence has parameter schemas the dispatcher checks.
    } satisfies Record<keyof HubClientMethods, HubMethod<SessionUser>>,
  };
}

/**
 * Record changes from the one event bus, to whoever may see the record: all staff, plus the customer
 * parties the change names. The web app turns them into query invalidations. A dossier given to
 * another customer first loses, on every node, the connections of the other parties' customers from
 * its room (staff and the new party's customers stay): its chat and presence are no longer theirs.
 */
export function forwardRecordChanges(
  events: RecordEvents,
  lifetime: LifetimeManager,
  onError: (error: unknown) => void = () => {},
): () => void {
  // A failed publish (Redis down) is logged: as a floating promise it would end the process.
  const deliver = (sending: Promise<unknown>) => void sending.catch(onError);
  return events.subscribe(({ partyIds, newCustomerId, ...change }) => {
    if (change.kind === 'dossier' && newCustomerId)
      deliver(
        lifetime.removeFromGroupUnless(groups.dossier(change.id), [
          groups.staff,
          groups.party(newCustomerId),
        ]),
      );
    const payload = invocation('RecordChanged', change as RecordChanged);
    // The warehouse is gated by cw_access everywhere, its change signals too (not even an id leaks).
    const warehouse = WAREHOUSE_RECORD_KINDS.includes(change.kind);
    deliver(lifetime.send({ scope: 'group', key: warehouse ? groups.staffCw : groups.staff, payload }));
    for (const partyId of partyIds ?? [])
      deliver(
        lifetime.send({
          scope: 'group',
          key: warehouse ? groups.partyCw(partyId) : groups.party(partyId),
          payload,
        }),
      );
    if (change.kind === 'user')
      deliver(lifetime.send({ scope: 'group', key: groups.user(change.id), payload }));
  });
}

/**
 * Notifications to the one user each is for, on every node (the user group holds all their
 * connections, whatever the transport, also after a reconnect). Nothing goes to a party or to staff as
 * a group: a notification names one recipient.
 */
export function forwardNotifications(
  bus: NotificationBus,
  lifetime: LifetimeManager,
  onError: (error: unknown) => void = () => {},
): () => void {
  return bus.subscribe((signal) => {
    const payload =
      signal.type === 'new'
        ? invocation('Notification', signal.notification)
        : invocation('NotificationsRead', { unread: signal.unread });
    void lifetime.send({ scope: 'group', key: groups.user(signal.userId), payload }).catch(onError);
  });
}

/**
 * The database's status to every connection of this node when it changes (each node tells its own
 * clients what it sees, so it is never routed through the backplane). The web shows a banner meanwhile.
 */
export function forwardServiceStatus(status: DatabaseStatus, lifetime: LifetimeManager): () => void {
  return status.subscribe((database) =>
    lifetime.deliver({ scope: 'all', key: '', payload: invocation('ServiceStatus', { database }) }),
  );
}

/**
 * Revoked sessions (deactivation, password change, changed rights, sign-out, sessions ended by an
 * administrator) end the user's open connections on
 * every node. A changed right may connect again at once (its token still works, and the new
 * connection gets the groups of the new rights); the others may not.
 */
export function closeRevokedSessions(sessions: Sessions, lifetime: LifetimeManager): () => void {
  const messages: Record<SessionEndReason, string> = {
    deactivated: SESSION_ENDED,
    'password-changed': SESSION_ENDED,
    'access-changed': ACCESS_CHANGED,
    'signed-out': SESSION_ENDED,
    'sessions-ended': SESSION_ENDED,
  };
  // A sign-out names its token: only the connections opened with it close (ADR 0052).
  return sessions.onRevoke((userId, reason, tokenHash) =>
    lifetime.closeUser(userId, messages[reason], reason === 'access-changed', tokenHash),
  );
}
