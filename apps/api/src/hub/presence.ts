import type { PresenceUser } from '@fvg/contracts';
import type { Redis } from 'ioredis';

/** Who looks at which dossier: one entry per connection, so two tabs of one user count once. */
export interface PresenceStore {
  add(dossierId: string, connectionId: string, user: PresenceUser): Promise<void>;
  remove(dossierId: string, connectionId: string): Promise<void>;
  users(dossierId: string): Promise<PresenceUser[]>;
  close(): Promise<void>;
}

function distinct(users: PresenceUser[]): PresenceUser[] {
  const byId = new Map(users.map((u) => [u.id, u]));
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One node: presence in memory. */
export function localPresence(): PresenceStore {
  const rooms = new Map<string, Map<string, PresenceUser>>();
  return {
    async add(dossierId, connectionId, user) {
      const room = rooms.get(dossierId) ?? new Map<string, PresenceUser>();
      room.set(connectionId, user);
      rooms.set(dossierId, room);
    },
    async remove(dossierId, connectionId) {
      const room = rooms.get(dossierId);
      room?.delete(connectionId);
      if (room && room.size === 0) rooms.delete(dossierId);
    },
    async users(dossierId) {
      return distinct([...(rooms.get(dossierId)?.values() ?? [])]);
    },
    async close() {},
  };
}

const STALE_MS = 90_000;
const REFRESH_MS = 30_000;

/**
 * Several nodes: a Redis hash per dossier (connection → user and a heartbeat). Each node refreshes its
 * own entries; entries of a node that died go stale and are dropped when read.
 */
export function redisPresence(redis: Redis, prefix = 'fvg:presence'): PresenceStore {
  const mine = new Map<string, { dossierId: string; user: PresenceUser }>();
  const key = (d: string) => `${prefix}:${d}`;
  const write = (d: string, c: string, user: PresenceUser) =>
    redis.hset(key(d), c, JSON.stringify({ user, at: Date.now() }));
  const timer = setInterval(() => {
    for (const [k, { dossierId, user }] of mine)
      void write(dossierId, k.slice(dossierId.length + 1), user).catch(() => {});
  }, REFRESH_MS);
  timer.unref();
  return {
    async add(dossierId, connectionId, user) {
      mine.set(`${dossierId}|${connectionId}`, { dossierId, user });
      await write(dossierId, connectionId, user);
    },
    async remove(dossierId, connectionId) {
      mine.delete(`${dossierId}|${connectionId}`);
      await redis.hdel(key(dossierId), connectionId);
    },
    async users(dossierId) {
      const all = await redis.hgetall(key(dossierId));
      const now = Date.now();
      const live: PresenceUser[] = [];
      for (const [c, raw] of Object.entries(all)) {
        const entry = JSON.parse(raw) as { user: PresenceUser; at: number };
        if (now - entry.at > STALE_MS) void redis.hdel(key(dossierId), c).catch(() => {});
        else live.push(entry.user);
      }
      return distinct(live);
    },
    async close() {
      clearInterval(timer);
    },
  };
}
