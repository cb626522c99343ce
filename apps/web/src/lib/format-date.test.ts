import { afterEach, describe, expect, it } from 'vitest';
import { displayPreferences, resetDisplayPreferences, setDisplayPreferences } from './display-preferences.ts';
import {
  formatDate,
  formatDateTime,
  formatTime,
  isoToWall,
  parseTypedDate,
  toZonedIso,
  wallToIso,
  zoneLabel,
} from './format-date.ts';

afterEach(resetDisplayPreferences);

describe('display formatter', () => {
  it('shows a calendar date as "23 Nov 2026", never moved by the zone', () => {
    setDisplayPreferences({ timeZone: 'Pacific/Honolulu' });
    expect(formatDate('2026-11-23')).toBe('23 Nov 2026');
    expect(formatDate('2026-01-05')).toBe('5 Jan 2026');
    expect(formatDateTime('2026-11-23')).toBe('23 Nov 2026');
  });

  it('shows an instant in the preferred zone: "23 Nov 2026, 14:05"', () => {
    setDisplayPreferences({ timeZone: 'Europe/Amsterdam' });
    expect(formatDateTime('2026-11-23T13:05:00Z')).toBe('23 Nov 2026, 14:05');
    expect(formatDateTime('2026-07-01T22:30:00Z')).toBe('2 Jul 2026, 00:30');
    expect(formatDate('2026-07-01T22:30:00Z')).toBe('2 Jul 2026');
    expect(formatTime('2026-07-01T22:30:00Z')).toBe('00:30');
    setDisplayPreferences({ timeZone: 'America/New_York' });
    expect(formatDateTime('2026-11-23T13:05:00Z')).toBe('23 Nov 2026, 08:05');
  });

  it('follows the preferred formats', () => {
    setDisplayPreferences({ dateFormat: 'YYYY-MM-DD', timeFormat: 'H:mm', timeZone: 'UTC' });
    expect(formatDate('2026-11-23')).toBe('2026-11-23');
    expect(formatDateTime('2026-11-23T09:05:00Z')).toBe('2026-11-23, 9:05');
    setDisplayPreferences({ dateFormat: 'DD.MM.YYYY [r.]' });
    expect(formatDate('2026-03-04')).toBe('04.03.2026 r.');
  });

  it('shows the 12-hour clock of the profile, and a zone of null goes back to the browser', () => {
    setDisplayPreferences({ dateFormat: 'MM/DD/YYYY', timeFormat: 'h:mm A', timeZone: 'UTC' });
    expect(formatDateTime('2026-11-23T00:05:00Z')).toBe('11/23/2026, 12:05 AM');
    expect(formatTime('2026-11-23T12:30:00Z')).toBe('12:30 PM');
    expect(formatTime('2026-11-23T21:07:00Z')).toBe('9:07 PM');
    setDisplayPreferences({ timeZone: null });
    expect(displayPreferences().timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('reads a typed numeric date month first only for the MM/DD/YYYY preference, and a 12-hour time', () => {
    expect(parseTypedDate('11/12/2026')).toBe('2026-12-11');
    setDisplayPreferences({ dateFormat: 'MM/DD/YYYY' });
    expect(parseTypedDate('11/12/2026')).toBe('2026-11-12');
    expect(parseTypedDate('11/23/2026 2:05 PM', true)).toBe('2026-11-23 14:05:00');
    expect(parseTypedDate('11/23/2026 12:05 am', true)).toBe('2026-11-23 00:05:00');
    expect(parseTypedDate('11/23/2026 13:05 PM', true)).toBeNull();
  });

  it('says "—" for nothing and leaves unreadable text as it is', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime('')).toBe('—');
    expect(formatDateTime('soon')).toBe('soon');
  });

  it('defaults to the browser zone', () => {
    expect(displayPreferences().timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(displayPreferences().dateFormat).toBe('D MMM YYYY');
  });
});

describe('zone conversion', () => {
  const zone = 'Europe/Amsterdam';

  it('writes an instant with the offset of its own day, across the change to summer time', () => {
    expect(toZonedIso(new Date('2026-03-28T11:00:00Z'), zone)).toBe('2026-03-28T12:00:00+01:00');
    expect(toZonedIso(new Date('2026-03-29T11:00:00Z'), zone)).toBe('2026-03-29T13:00:00+02:00');
    expect(wallToIso('2026-03-28 12:00', zone)).toBe('2026-03-28T12:00:00+01:00');
    expect(wallToIso('2026-03-29 12:00', zone)).toBe('2026-03-29T12:00:00+02:00');
    expect(wallToIso('2026-10-25 12:00', zone)).toBe('2026-10-25T12:00:00+01:00');
  });

  it('round-trips wall time and instant on both sides of the changes', () => {
    for (const iso of [
      '2026-03-29T00:30:00Z',
      '2026-03-29T01:30:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T02:30:00Z',
    ]) {
      const wall = isoToWall(iso, zone) as string;
      expect(Date.parse(wallToIso(wall, zone) as string)).toBe(Date.parse(iso));
    }
  });

  it('reads a time the clocks skip as the same minutes after the jump, and refuses days that do not exist', () => {
    expect(wallToIso('2026-03-29 02:30', zone)).toBe('2026-03-29T03:30:00+02:00');
    // 02:30 happens twice on 25 Oct: summer time's first.
    expect(wallToIso('2026-10-25 02:30', zone)).toBe('2026-10-25T02:30:00+02:00');
    expect(wallToIso('2026-02-30 08:00', zone)).toBeNull();
    expect(wallToIso('tomorrow', zone)).toBeNull();
  });

  it('names the zone with its current offset', () => {
    expect(zoneLabel(zone, new Date('2026-01-10T00:00:00Z'))).toBe('Europe/Amsterdam (UTC+01:00)');
    expect(zoneLabel('America/New_York', new Date('2026-07-10T00:00:00Z'))).toBe(
      'America/New_York (UTC-04:00)',
    );
  });
});

describe('typed dates', () => {
  it('reads the ways people write a day, day first', () => {
    for (const text of [
      '23 Nov 2026',
      '23 november 2026',
      '2026-11-23',
      '23.11.2026',
      '23/11/2026',
      '23-11-2026',
      ' 23 Nov, 2026 ',
    ]) {
      expect(parseTypedDate(text), text).toBe('2026-11-23');
    }
  });

  it('waits for a four-digit year and refuses days that do not exist', () => {
    expect(parseTypedDate('23 Nov 2')).toBeNull();
    expect(parseTypedDate('30 Feb 2026')).toBeNull();
    expect(parseTypedDate('23 Noz 2026')).toBeNull();
  });

  it('reads a time when one is wanted', () => {
    expect(parseTypedDate('23 Nov 2026, 14:05', true)).toBe('2026-11-23 14:05:00');
    expect(parseTypedDate('2026-11-23T08:00', true)).toBe('2026-11-23 08:00:00');
    expect(parseTypedDate('23 Nov 2026 25:00', true)).toBeNull();
    expect(parseTypedDate('23 Nov 2026', true)).toBeNull();
  });
});
