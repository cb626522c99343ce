/**
 * What a hub is, independent of transports: its methods, its connection hooks, and the context a
 * method runs with. The protocol server (`server.ts`) runs any `HubDefinition`.
 */

import type { ZodType } from 'zod';

/** An error whose message is meant for the client (like ASP.NET Core's HubException). */
export class HubError extends Error {}

/** Why a connection closes when its session is over: the client shows it and does not reconnect. */
export const SESSION_ENDED = 'Your session has ended. Sign in again.';
export const SESSION_EXPIRED = 'Your session has expired. Sign in again.';

/** A connection's user may not go on: the call fails with `error`, then the connection closes with it. */
export interface HubRefusal {
  error: string;
  /** Whether the client may connect again at once (its token still works, e.g. only its rights changed). */
  allowReconnect?: boolean;
}

export interface ClientProxy {
  send(target: string, ...args: unknown[]): Promise<void>;
}

export interface CallerProxy extends ClientProxy {
  /** Server-to-client invocation that waits for the client's result. */
  invoke(target: string, ...args: unknown[]): Promise<unknown>;
}

export interface HubClients {
  caller: CallerProxy;
  all: ClientProxy;
  others: ClientProxy;
  group(name: string): ClientProxy;
  /** The group's connections that are also in one of `alsoIn` (a dossier room's staff and one party). */
  groupAlsoIn(name: string, alsoIn: string[]): ClientProxy;
  othersInGroup(name: string): ClientProxy;
  user(userId: string): ClientProxy;
  connection(connectionId: string): ClientProxy;
}

export interface HubContext<User> {
  connectionId: string;
  /** The user as last checked: at the handshake and before every method call. */
  readonly user: User;
  /** Per-connection state a hub may keep (e.g. the dossiers it joined). */
  items: Map<string, unknown>;
  /** Aborted when the invocation is cancelled (streams) or the connection ends. */
  signal: AbortSignal;
  clients: HubClients;
  groups: {
    add(name: string): Promise<void>;
    remove(name: string): Promise<void>;
    has(name: string): boolean;
  };
  /** Closes the connection from the server. */
  close(error?: string, allowReconnect?: boolean): void;
}

// biome-ignore lint/suspicious/noExplicitAny: hub methods declare their own argument types
export type HubMethod<User> = (ctx: HubContext<User>, ...args: any[]) => unknown;

export interface HubDefinition<User> {
  /** The user a token belongs to, or undefined when it is not valid (the request answers 401). */
  authenticate(token: string | undefined): Promise<User | undefined>;
  /**
   * Re-checks the connection's user with the token it connected with, at the handshake and before every
   * method call: the fresh user the call runs as, or a refusal that closes the connection. Without it
   * the user of the negotiation stays.
   */
  recheck?(token: string | undefined, user: User): Promise<{ user: User } | HubRefusal>;
  /**
   * The same re-check for many connections at once, in order (the server runs it on every open
   * connection every `recheckIntervalMs`, so a connection that only listens ends too). Without it the
   * server calls `recheck` per connection.
   */
  recheckMany?(
    connections: { token: string | undefined; user: User }[],
  ): Promise<({ user: User } | HubRefusal)[]>;
  /** When the token stops being valid (ms since the epoch): the connection closes with SESSION_EXPIRED then. */
  expiresAt?(token: string | undefined): Promise<number | undefined>;
  /** Stable id of the user, for `clients.user(id)` and the personal group. */
  userId(user: User): string;
  onConnected?(ctx: HubContext<User>): Promise<void> | void;
  onDisconnected?(ctx: HubContext<User>, error?: Error): Promise<void> | void;
  /** The server took the connection out of a group (LifetimeManager.removeFromGroupUnless). */
  onRemovedFromGroup?(ctx: HubContext<User>, group: string): Promise<void> | void;
  /** Methods by name; the client's target is matched case-insensitively. */
  methods: Record<string, HubMethod<User>>;
  /**
   * Parameter schemas of methods, by method name then parameter name in order. The dispatcher checks a
   * call's arguments against them (a mismatch is an error completion naming the parameter, not an
   * exception) and passes the parsed values; methods without an entry get the arguments as sent.
   */
  parameters?: Record<string, Record<string, ZodType>>;
}

export function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return v !== null && typeof v === 'object' && Symbol.asyncIterator in v;
}
