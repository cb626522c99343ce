import { describe, expect, it } from 'vitest';
import { formatForDisplay, formatWall, wallTimeIn } from './wall-time.ts';

const amsterdam = { timeZone: 'Europe/Amsterdam', dateFormat: 'D MMM YYYY', timeFormat: 'HH:mm' };

describe('formatForDisplay: an export value as the screen shows it (issue 27 item 7)', () => {
  it('moves an instant to the zone, summer and winter time included', () => {
    expect(formatForDisplay('2026-11-30T09:05:00.000Z', amsterdam)).toBe('30 Nov 2026, 10:05');
    expect(formatForDisplay('2026-07-01T22:30:00Z', amsterdam)).toBe('2 Jul 2026, 00:30');
    expect(
      formatForDisplay('2026-11-30T09:05:00Z', {
        timeZone: 'America/New_York',
        dateFormat: 'MM/DD/YYYY',
        timeFormat: 'h:mm A',
      }),
    ).toBe('11/30/2026, 4:05 AM');
  });

  it('never moves a calendar day, and leaves empty and unreadable values as they are', () => {
    expect(formatForDisplay('2026-12-31', { ...amsterdam, timeZone: 'Pacific/Kiritimati' })).toBe(
      '31 Dec 2026',
    );
    expect(formatForDisplay('2026-12-31', { ...amsterdam, dateFormat: 'DD.MM.YYYY' })).toBe('31.12.2026');
    expect(formatForDisplay(null, amsterdam)).toBe('');
    expect(formatForDisplay('', amsterdam)).toBe('');
    expect(formatForDisplay('not a date', amsterdam)).toBe('not a date');
  });

  it('lays out a wall time with the tokens, literals in brackets kept', () => {
    const wall = wallTimeIn(new Date('2026-03-29T01:30:00Z'), 'Europe/Amsterdam');
    expect(wall).toEqual({ year: 2026, month: 3, day: 29, hour: 3, minute: 30, second: 0 });
    expect(formatWall(wall, 'YYYY-MM-DD[T]HH:mm')).toBe('2026-03-29T03:30');
    expect(formatWall(wall, 'MMMM D, h A')).toBe('March 29, 3 AM');
  });
});
