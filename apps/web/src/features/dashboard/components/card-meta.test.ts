import { afterEach, describe, expect, it } from 'vitest';
import { resetDisplayPreferences, setDisplayPreferences } from '../../../lib/display-preferences.ts';
import { humanise, keyLabel, periodWords, shortDateFormat, tickLabel } from './card-meta.ts';

const NOW = new Date('2026-11-24T10:00:00.000Z'); // a Tuesday

afterEach(() => resetDisplayPreferences());

describe('card words', () => {
  it('reads keys from the catalogue, then the area’s labels, then as words', () => {
    expect(keyLabel('transports', 'today')).toBe('Today');
    expect(keyLabel('declarations', 'submitted')).toBe('Submitted');
    expect(keyLabel('stock', 'non_union')).not.toBe('non_union');
    expect(keyLabel('shipments', 'some_new_state')).toBe('Some new state');
    expect(keyLabel('revenue', '2026-11-23')).toBe('Week of 23 Nov');
    expect(keyLabel('revenue', '2026-W48')).toBe('Week 48');
    expect(keyLabel('transports', '2026-11-24')).toBe('Tue, 24 Nov');
    expect(tickLabel('transports', '2026-11-24')).toBe('Tue');
    expect(tickLabel('revenue', '2026-11-02')).toBe('2');
    expect(keyLabel('container-events', 'containers')).toBe('Events');
    expect(keyLabel('container-events', 'EQUIPMENT')).toBe('Equipment');
    expect(keyLabel('stock', 'onHand')).toBe('On hand');
    expect(humanise('in-transit')).toBe('In transit');
  });

  it('drops the year of every date format for days of this week', () => {
    expect(shortDateFormat('D MMM YYYY')).toBe('D MMM');
    expect(shortDateFormat('YYYY-MM-DD')).toBe('MM-DD');
    expect(shortDateFormat('DD.MM.YYYY')).toBe('DD.MM');
    expect(shortDateFormat('MM/DD/YYYY')).toBe('MM/DD');
  });

  it('says the period in words, in the card’s zone', () => {
    const zone = 'Europe/Amsterdam';
    expect(periodWords({ from: '2026-11-24', to: '2026-11-24', timeZone: zone }, NOW)).toBe('Today, 24 Nov');
    expect(periodWords({ from: '2026-11-23', to: '2026-11-29', timeZone: zone }, NOW)).toBe(
      'This week, 23 Nov – 29 Nov',
    );
    expect(periodWords({ from: '2026-11-01', to: '2026-11-30', timeZone: zone }, NOW)).toBe(
      'This month, November',
    );
    // Instants with an exclusive end: the same days.
    expect(
      periodWords({ from: '2026-11-22T23:00:00.000Z', to: '2026-11-29T23:00:00.000Z', timeZone: zone }, NOW),
    ).toBe('This week, 23 Nov – 29 Nov');
    expect(periodWords({ from: '2026-11-02', to: '2026-11-08', timeZone: zone }, NOW)).toBe('2 Nov – 8 Nov');
    setDisplayPreferences({ dateFormat: 'DD.MM.YYYY' });
    expect(periodWords({ from: '2026-11-24', to: '2026-11-24', timeZone: zone }, NOW)).toBe('Today, 24.11');
    expect(periodWords(null, NOW)).toBeNull();
    expect(
      periodWords({ from: '2026-11-23T10:00:00.000Z', to: '2026-11-24T10:00:00.000Z', timeZone: zone }, NOW),
    ).toBe('Last 24 hours');
  });
});
