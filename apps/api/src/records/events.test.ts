import type { RecordChanged } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { createRecordEvents } from './events.ts';

describe('record events', () => {
  it('carry only what RecordChanged declares, whatever a publisher passes (the hub forwards them to customers)', () => {
    const events = createRecordEvents();
    const seen: unknown[] = [];
    const stop = events.subscribe((c) => seen.push(c));
    const row = { kind: 'dossier', id: 'd1', action: 'updated', profit: '600.00', cost_total: '1700.00' };
    events.publish({ ...(row as RecordChanged), partyIds: ['p1'] });
    events.publish(row as RecordChanged);
    stop();
    events.publish(row as RecordChanged);
    expect(seen).toEqual([
      { kind: 'dossier', id: 'd1', action: 'updated', partyIds: ['p1'] },
      { kind: 'dossier', id: 'd1', action: 'updated' },
    ]);
  });
});
