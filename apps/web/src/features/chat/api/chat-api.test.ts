import type { ChatMessage, ChatPage } from '@fvg/contracts';
import type { InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { appendMessage, flattenMessages } from './chat-api.ts';

const msg = (id: string): ChatMessage => ({
  id,
  dossierId: 'd1',
  author: { id: 'u1', name: 'Sam', role: 'staff' },
  text: id,
  sentAt: '2026-11-21T10:00:00.000000Z',
  readBy: [],
});
const data = (...pages: string[][]): InfiniteData<ChatPage> => ({
  pages: pages.map((ids) => ({ items: ids.map(msg), unread: 0, before: null })),
  pageParams: pages.map(() => ''),
});

describe('chat cache helpers', () => {
  it('flattens newest-first pages into one oldest-first list without duplicates', () => {
    expect(flattenMessages(data(['m4', 'm5'], ['m1', 'm2', 'm3'], ['m3'])).map((m) => m.id)).toEqual([
      'm3',
      'm1',
      'm2',
      'm4',
      'm5',
    ]);
    expect(flattenMessages(undefined)).toEqual([]);
  });

  it('appends a live message to the newest page once', () => {
    const once = appendMessage(data(['m1'], ['m0']), msg('m2'));
    expect(once?.pages[0]?.items.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(once?.pages[1]?.items.map((m) => m.id)).toEqual(['m0']);
    expect(appendMessage(once, msg('m2'))).toBe(once);
    expect(appendMessage(undefined, msg('m2'))).toBeUndefined();
  });
});
