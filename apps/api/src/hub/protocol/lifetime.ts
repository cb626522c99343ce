import type { HubConnection } from './connection.ts';

/** A message for connections that may live on any node: to all, a group, a user or one connection. */
export interface Envelope {
  scope: 'all' | 'group' | 'user' | 'connection';
  /** Group name, user id or connection id; empty for `all`. */
  key: string;
  /** The serialized record, built once for every receiver. */
  payload: string;
  /** Connection ids not to deliver to. */
  exclude?: string[];
  /** Scope `group` only: deliver only to the group's connections that are also in one of these groups. */
  alsoIn?: string[];
  /**
   * Instead of delivering `payload`, close the matching connections with this Close record; with
   * `tokenHash` (SHA-256, hex, of an access token) only those opened with that token.
   */
  close?: { error: string; allowReconnect?: boolean; tokenHash?: string };
  /**
   * Instead of delivering `payload` (scope `group` only), take the group's connections that are in
   * none of `unlessIn` out of it (e.g. a dossier's room when its customer changed).
   */
  leave?: { unlessIn: string[] };
}

/**
 * Carries envelopes between API nodes. Without one (a single node) the lifetime manager delivers
 * locally; with one (Redis) every node, the sender included, delivers what it receives.
 */
export interface Backplane {
  publish(envelope: Envelope): Promise<void>;
  subscribe(onEnvelope: (envelope: Envelope) => void): Promise<void>;
  close(): Promise<void>;
}

/** The connections of this node, their groups and users, and delivery to them. */
export class LifetimeManager {
  private readonly connections = new Map<string, HubConnection>();
  private readonly groups = new Map<string, Set<HubConnection>>();
  private readonly users = new Map<string, Set<HubConnection>>();

  constructor(private readonly backplane?: Backplane) {}

  async start(): Promise<void> {
    await this.backplane?.subscribe((e) => this.deliver(e));
  }

  get size(): number {
    return this.connections.size;
  }

  connection(id: string): HubConnection | undefined {
    return this.connections.get(id);
  }

  add(conn: HubConnection, userId: string): void {
    this.connections.set(conn.connectionId, conn);
    addTo(this.users, userId, conn);
  }

  remove(conn: HubConnection, userId: string): void {
    this.connections.delete(conn.connectionId);
    removeFrom(this.users, userId, conn);
    for (const g of conn.groups) removeFrom(this.groups, g, conn);
    conn.groups.clear();
  }

  addToGroup(conn: HubConnection, group: string): void {
    conn.groups.add(group);
    addTo(this.groups, group, conn);
  }

  removeFromGroup(conn: HubConnection, group: string): void {
    conn.groups.delete(group);
    removeFrom(this.groups, group, conn);
  }

  groupSize(group: string): number {
    return this.groups.get(group)?.size ?? 0;
  }

  async send(envelope: Envelope): Promise<void> {
    // A message to a connection held here needs no trip through the backplane.
    if (!this.backplane || (envelope.scope === 'connection' && this.connections.has(envelope.key))) {
      this.deliver(envelope);
      return;
    }
    await this.backplane.publish(envelope);
  }

  /**
   * Closes every connection of the user, on every node (its session was revoked): they get a Close
   * record with `error`, so the official client stops (or, with allowReconnect, connects anew).
   */
  async closeUser(userId: string, error: string, allowReconnect = false, tokenHash?: string): Promise<void> {
    const close = { error, allowReconnect, ...(tokenHash ? { tokenHash } : {}) };
    await this.send({ scope: 'user', key: userId, payload: '', close });
  }

  /**
   * Takes out of `group`, on every node, each connection that belongs to none of `unlessIn` (groups
   * derived from the user, such as `staff` or its party): nothing more sent to the group reaches it.
   */
  async removeFromGroupUnless(group: string, unlessIn: string[]): Promise<void> {
    await this.send({ scope: 'group', key: group, payload: '', leave: { unlessIn } });
  }

  /** Writes an envelope to the matching connections of this node. */
  deliver({ scope, key, payload, exclude, alsoIn, close, leave }: Envelope): void {
    if (leave) {
      if (scope === 'group')
        for (const c of [...(this.groups.get(key) ?? [])]) c.leaveGroup(key, leave.unlessIn);
      return;
    }
    const skip = exclude && exclude.length > 0 ? new Set(exclude) : undefined;
    const write = (c: HubConnection) => {
      if (skip?.has(c.connectionId)) return;
      if (close) {
        if (close.tokenHash === undefined || c.bearerTokenHash === close.tokenHash)
          c.close(close.error, close.allowReconnect);
      } else c.write(payload);
    };
    switch (scope) {
      case 'all':
        for (const c of this.connections.values()) write(c);
        break;
      case 'group':
        for (const c of this.groups.get(key) ?? [])
          if (!alsoIn || alsoIn.some((g) => c.groups.has(g))) write(c);
        break;
      case 'user':
        for (const c of this.users.get(key) ?? []) write(c);
        break;
      case 'connection': {
        const c = this.connections.get(key);
        if (c) write(c);
        break;
      }
    }
  }

  async close(): Promise<void> {
    await this.backplane?.close();
  }
}

function addTo(map: Map<string, Set<HubConnection>>, key: string, conn: HubConnection) {
  const set = map.get(key);
  if (set) set.add(conn);
  else map.set(key, new Set([conn]));
}

function removeFrom(map: Map<string, Set<HubConnection>>, key: string, conn: HubConnection) {
  const set = map.get(key);
  if (!set) return;
  set.delete(conn);
  if (set.size === 0) map.delete(key);
}
