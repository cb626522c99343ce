import { EventEmitter } from 'node:events';
import type { RecordChanged } from '@fvg/contracts';

/**
 * The one event bus of record changes: services publish after their transaction commits; the hub
 * (and anything else) subscribes. In-process; the hub's backplane carries it to other nodes.
 */
export interface RecordEvent extends RecordChanged {
  /** The customer parties that may see the record (their connections hear of the change). */
  partyIds?: string[];
  /**
   * Set when the record's customer party changed to this one (a dossier reassigned): the hub takes the
   * other parties' customers out of the record's room. Never forwarded to clients.
   */
  newCustomerId?: string;
}

export interface RecordEvents {
  publish(change: RecordEvent): void;
  subscribe(listener: (change: RecordEvent) => void): () => void;
}

export function createRecordEvents(): RecordEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    // Only what RecordChanged declares travels: the hub forwards it to customers as it is, so a
    // publisher passing a whole row (costs included) must not reach them.
    publish: ({ kind, id, action, partyIds, newCustomerId }) => {
      emitter.emit('change', {
        kind,
        id,
        action,
        ...(partyIds ? { partyIds } : {}),
        ...(newCustomerId ? { newCustomerId } : {}),
      });
    },
    subscribe(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
  };
}
