import { Redis } from 'ioredis';
import type { Backplane, Envelope } from './lifetime.ts';

/**
 * Redis publish/subscribe between API nodes: every envelope (to all, a group, a user, a connection)
 * is published once on one channel per hub; every node, the sender included, delivers it to the
 * connections it holds. Connection state itself never leaves its node (clients need sticky sessions
 * for SSE and long polling).
 */
export function createRedisBackplane(url: string, channel: string, onError: (e: unknown) => void): Backplane {
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const sub = new Redis(url, { lazyConnect: true });
  pub.on('error', onError);
  sub.on('error', onError);
  return {
    async publish(envelope: Envelope) {
      await pub.publish(channel, JSON.stringify(envelope));
    },
    async subscribe(onEnvelope) {
      await Promise.all([pub.connect(), sub.connect()]);
      sub.on('message', (ch: string, message: string) => {
        if (ch !== channel) return;
        try {
          onEnvelope(JSON.parse(message) as Envelope);
        } catch (e) {
          onError(e);
        }
      });
      await sub.subscribe(channel);
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
