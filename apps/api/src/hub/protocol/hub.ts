/**
 * What a hub is, independent of transports: its methods, its connection hooks, and the context a
 * method runs with. The protocol server (`server.ts`) runs any `HubDefinition`.
 */

/** An error whose message is meant for the client (like ASP.NET Core's HubException). */
export class HubError extends Error {}

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
  othersInGroup(name: string): ClientProxy;
  user(userId: string): ClientProxy;
  connection(connectionId: string): ClientProxy;
}

export interface HubContext<User> {
  connectionId: string;
  user: User;
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
  /** Stable id of the user, for `clients.user(id)` and the personal group. */
  userId(user: User): string;
  onConnected?(ctx: HubContext<User>): Promise<void> | void;
  onDisconnected?(ctx: HubContext<User>, error?: Error): Promise<void> | void;
  /** Methods by name; the client's target is matched case-insensitively. */
  methods: Record<string, HubMethod<User>>;
}

export function isAsyncIterable(v: unknown): v is AsyncIterable<unknown> {
  return v !== null && typeof v === 'object' && Symbol.asyncIterator in v;
}
