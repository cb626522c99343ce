import { describe, expect, it } from 'vitest';
import { isTimeZone, timeZoneSchema } from './records.ts';

// Node 24's Intl takes ES2024 offset zones ('+01:00' = UTC+1); PostgreSQL reads the same text as a
// POSIX zone, UTC−1. Every zone the API hands to SQL must mean the same on both sides: names only.
describe('time zones the API accepts', () => {
  it.each(['Europe/Amsterdam', 'UTC', 'America/New_York', 'Pacific/Kiritimati'])(
    'takes the name %s',
    (tz) => {
      expect(isTimeZone(tz)).toBe(true);
      expect(timeZoneSchema.safeParse(tz).success).toBe(true);
    },
  );

  it.each(['+01:00', '-05:30', '+0100', '-00:00', 'Mars/Olympus_Mons', ''])('refuses %s', (tz) => {
    expect(isTimeZone(tz)).toBe(false);
    expect(timeZoneSchema.safeParse(tz).success).toBe(false);
  });
});
