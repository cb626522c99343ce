import { type ChatMessage, type ChatPage, chatPageSchema } from '@fvg/contracts';
import { type InfiniteData, infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { registerRecordKeys } from '../../../lib/live-updates.ts';

/** Query keys of the dossier chat. A `chat` RecordChanged (read markers moved) refreshes a dossier's messages. */
export const chatKeys = {
  all: ['chat'] as const,
  messages: (dossierId: string) => [...chatKeys.all, 'messages', dossierId] as const,
};
registerRecordKeys('chat', { all: chatKeys.all, detail: chatKeys.messages });

export function chatMessagesOptions(dossierId: string) {
  return infiniteQueryOptions({
    queryKey: chatKeys.messages(dossierId),
    queryFn: ({ pageParam, signal }) =>
      api.get<ChatPage>(
        `/dossiers/${encodeURIComponent(dossierId)}/messages?limit=50${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ''}`,
        { schema: chatPageSchema, signal },
      ),
    initialPageParam: '' as string,
    // Pages go back in time: the next page to fetch is the older one.
    getNextPageParam: (page) => page.before ?? undefined,
  });
}

/** All loaded messages, oldest first, without duplicates. */
export function flattenMessages(data: InfiniteData<ChatPage> | undefined): ChatMessage[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: ChatMessage[] = [];
  for (const page of [...data.pages].reverse()) {
    for (const m of page.items) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  }
  return out;
}

/** Adds a message that arrived live to the newest page (no refetch, no duplicate). */
export function appendMessage(
  data: InfiniteData<ChatPage> | undefined,
  message: ChatMessage,
): InfiniteData<ChatPage> | undefined {
  if (!data || data.pages.length === 0) return data;
  if (data.pages.some((p) => p.items.some((m) => m.id === message.id))) return data;
  const [newest, ...older] = data.pages as [ChatPage, ...ChatPage[]];
  return { ...data, pages: [{ ...newest, items: [...newest.items, message] }, ...older] };
}
