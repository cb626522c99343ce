import { useCallback, useEffect, useState } from 'react';

/** How many recent searches the palette offers. */
export const RECENT_SEARCHES_MAX = 6;

/** Per user: two people sharing a browser do not see each other's searches. */
export const recentSearchesKey = (userId: string) => `fvg.search.recent.${userId}`;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    // Storage refused (privacy mode, sandboxed frame): no recent searches, nothing breaks.
    return undefined;
  }
}

export function readRecentSearches(userId: string | undefined): string[] {
  if (!userId) return [];
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(recentSearchesKey(userId)) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter((q): q is string => typeof q === 'string').slice(0, RECENT_SEARCHES_MAX)
      : [];
  } catch {
    return [];
  }
}

function write(userId: string, items: string[]): void {
  try {
    if (items.length === 0) storage()?.removeItem(recentSearchesKey(userId));
    else storage()?.setItem(recentSearchesKey(userId), JSON.stringify(items));
  } catch {
    // Full or refused storage: the list simply is not remembered.
  }
}

/** Puts `q` first (once, whatever its case) and keeps the newest few; answers the new list. */
export function rememberSearch(userId: string | undefined, q: string): string[] {
  const query = q.trim();
  if (!userId || !query) return readRecentSearches(userId);
  const items = [
    query,
    ...readRecentSearches(userId).filter((item) => item.toLowerCase() !== query.toLowerCase()),
  ].slice(0, RECENT_SEARCHES_MAX);
  write(userId, items);
  return items;
}

/** The signed-in user's recent searches, newest first, with ways to add one and to forget them all. */
export function useRecentSearches(userId: string | undefined) {
  const [items, setItems] = useState(() => readRecentSearches(userId));
  useEffect(() => setItems(readRecentSearches(userId)), [userId]);
  const remember = useCallback((q: string) => setItems(rememberSearch(userId, q)), [userId]);
  const clear = useCallback(() => {
    if (userId) write(userId, []);
    setItems([]);
  }, [userId]);
  return { items, remember, clear };
}
