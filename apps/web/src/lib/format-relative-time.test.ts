import { describe, expect, it } from 'vitest';
import { formatDate, formatRelativeTime } from './format-date.ts';

describe('formatRelativeTime', () => {
  const now = new Date(2026, 10, 24, 15, 30);
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

  it('says how long ago in words, then the date from a week back', () => {
    expect(formatRelativeTime(ago(0.5), now)).toBe('just now');
    expect(formatRelativeTime(ago(5), now)).toBe('5 min ago');
    expect(formatRelativeTime(ago(59), now)).toBe('59 min ago');
    expect(formatRelativeTime(ago(3 * 60), now)).toBe('3 h ago');
    expect(formatRelativeTime(new Date(2026, 10, 23, 9, 0).toISOString(), now)).toBe('yesterday');
    expect(formatRelativeTime(new Date(2026, 10, 20, 23, 0).toISOString(), now)).toBe('4 days ago');
    const old = new Date(2026, 10, 10, 8, 0).toISOString();
    expect(formatRelativeTime(old, now)).toBe(formatDate(old));
  });

  it('keeps an unreadable value as it is', () => {
    expect(formatRelativeTime('soon', now)).toBe('soon');
  });
});
