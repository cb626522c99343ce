import { EventEmitter } from 'node:events';
import type { NotificationDelivery } from './notifications.repository.ts';

/** What the hub pushes to one user: a new notification, or the unread count after reading. */
export type NotificationSignal =
  | ({ type: 'new' } & NotificationDelivery)
  | { type: 'read'; userId: string; unread: number };

/**
 * Notifications leave for the hub after their transaction commits: services publish here, the hub
 * subscribes (fvg-hub.ts forwardNotifications) and sends each to its user's connections on every node.
 */
export interface NotificationBus {
  publish(signals: NotificationSignal[]): void;
  subscribe(listener: (signal: NotificationSignal) => void): () => void;
}

export function createNotificationBus(): NotificationBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (signals) => {
      for (const s of signals) emitter.emit('signal', s);
    },
    subscribe(listener) {
      emitter.on('signal', listener);
      return () => emitter.off('signal', listener);
    },
  };
}

/** The deliveries of insertNotifications() as signals. */
export const newSignals = (deliveries: NotificationDelivery[]): NotificationSignal[] =>
  deliveries.map((d) => ({ type: 'new', ...d }));
