import { EventEmitter } from 'node:events';
import type { RecordChanged } from '@fvg/contracts';

/**
 * The one event bus of record changes: services publish after their transaction commits; the hub
 * (and anything else) subscribes. In-process; the hub's backplane carries it to other nodes.
 */
export interface RecordEvents {
  publish(change: RecordChanged & { partyIds?: string[] }): void;
  subscribe(listener: (change: RecordChanged & { partyIds?: string[] }) => void): () => void;
}

export function createRecordEvents(): RecordEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    // Only what RecordChanged declares travels: the hub forwards it to customers as it is, so a
    // publisher passing a whole row (costs included) must not reach them.
    publish: ({ kind, id, action, partyIds }) => {
      emitter.emit('change', partyIds ? { kind, id, action, partyIds } : { kind, id, action });
    },
    subscribe(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
  };
}
