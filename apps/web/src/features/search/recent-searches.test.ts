import { describe, expect, it } from 'vitest';
import {
  RECENT_SEARCHES_MAX,
  readRecentSearches,
  recentSearchesKey,
  rememberSearch,
} from './recent-searches.ts';

describe('recent searches', () => {
  it('keeps the newest first, once whatever the case, a few per user', () => {
    rememberSearch('u1', 'MSCU1234565');
    rememberSearch('u1', ' acme ');
    rememberSearch('u1', 'mscu1234565');
    expect(readRecentSearches('u1')).toEqual(['mscu1234565', 'acme']);
    expect(readRecentSearches('u2')).toEqual([]);

    for (let i = 0; i < RECENT_SEARCHES_MAX + 3; i++) rememberSearch('u2', `q${i}`);
    const kept = readRecentSearches('u2');
    expect(kept).toHaveLength(RECENT_SEARCHES_MAX);
    expect(kept[0]).toBe(`q${RECENT_SEARCHES_MAX + 2}`);
  });

  it('remembers nothing without a user or a text, and survives a damaged entry', () => {
    expect(rememberSearch(undefined, 'acme')).toEqual([]);
    expect(rememberSearch('u1', '   ')).toEqual([]);
    expect(localStorage.length).toBe(0);
    localStorage.setItem(recentSearchesKey('u1'), '{not json');
    expect(readRecentSearches('u1')).toEqual([]);
    localStorage.setItem(recentSearchesKey('u1'), JSON.stringify(['acme', 7, null]));
    expect(readRecentSearches('u1')).toEqual(['acme']);
  });
});
