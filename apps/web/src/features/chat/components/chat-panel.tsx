import type { ChatMessage, PresenceUser } from '@fvg/contracts';
import { CHAT_MESSAGE_MAX_LENGTH } from '@fvg/contracts';
import {
  Alert,
  Avatar,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useHub, useHubEvent } from '../../../lib/hub-provider.tsx';
import { useMe } from '../../../lib/session.ts';
import { appendMessage, chatMessagesOptions, flattenMessages } from '../api/chat-api.ts';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');
}

/** Who else has this dossier open, as avatars. */
export function PresenceAvatars({ users, meId }: { users: PresenceUser[]; meId: string | undefined }) {
  const others = users.filter((u) => u.id !== meId);
  if (others.length === 0) return null;
  return (
    <Tooltip.Group>
      <Avatar.Group data-testid="presence">
        {others.map((u) => (
          <Tooltip key={u.id} label={`${u.name} (${u.role}) is looking at this dossier`} withArrow>
            <Avatar
              radius="xl"
              size="sm"
              color={u.role === 'customer' ? 'teal' : 'blue'}
              data-testid={`presence-${u.id}`}
              aria-label={u.name}
            >
              {initials(u.name)}
            </Avatar>
          </Tooltip>
        ))}
      </Avatar.Group>
    </Tooltip.Group>
  );
}

function MessageBubble({ message, mine }: { message: ChatMessage; mine: boolean }) {
  const read = message.readBy.length > 0;
  return (
    <Group
      justify={mine ? 'flex-end' : 'flex-start'}
      data-testid="chat-message"
      data-mine={mine || undefined}
    >
      <Paper
        withBorder
        p="xs"
        radius="md"
        maw="75%"
        bg={mine ? 'var(--mantine-color-blue-light)' : undefined}
      >
        <Text size="xs" c="dimmed">
          {mine ? 'You' : message.author.name} · {formatDateTime(message.sentAt)}
        </Text>
        {/* Plain text, never HTML: React escapes it; newlines are kept. */}
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="chat-text">
          {message.text}
        </Text>
        {mine && (
          <Text size="xs" c="dimmed" ta="right" data-testid="chat-read-marker">
            {read ? 'Read' : 'Sent'}
          </Text>
        )}
      </Paper>
    </Group>
  );
}

/**
 * The chat of one dossier, live over the hub: appends messages as they arrive, moves the read marker,
 * pages back in time. Being in the room (join, presence) is the screen's DossierRoom.
 */
export function ChatPanel({ dossierId }: { dossierId: string }) {
  const hub = useHub();
  const me = useMe();
  const meId = me.data?.id;
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(chatMessagesOptions(dossierId));
  const messages = useMemo(() => flattenMessages(query.data), [query.data]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const viewport = useRef<HTMLDivElement>(null);
  const lastRead = useRef<string | null>(null);

  useHubEvent('ReceiveMessage', (m: ChatMessage) => {
    if (m.dossierId !== dossierId) return;
    queryClient.setQueryData(chatMessagesOptions(dossierId).queryKey, (data) => appendMessage(data, m));
  });

  // Keep the newest message in view, and mark what the user now sees as read.
  const newest = messages.at(-1);
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
    if (!newest || newest.author.id === meId || lastRead.current === newest.id || document.hidden) return;
    lastRead.current = newest.id;
    void hub
      .invoke('MarkRead', dossierId, newest.id)
      .catch((e: unknown) => console.error('[chat] mark read failed', e));
  }, [newest, meId, hub, dossierId]);

  const send = async () => {
    const value = text.trim();
    if (!value || sending) return;
    setSending(true);
    setError(null);
    try {
      const message = await hub.invoke('SendMessage', dossierId, value);
      queryClient.setQueryData(chatMessagesOptions(dossierId).queryKey, (data) =>
        appendMessage(data, message),
      );
      setText('');
    } catch (e) {
      setError(
        e instanceof Error
          ? e.message.replace(/^An error occurred while invoking '\w+' on the server\. HubException: /, '')
          : 'Sending failed.',
      );
    } finally {
      setSending(false);
    }
  };

  if (query.isPending) return <Loader data-testid="chat-loading" />;
  if (query.isError) {
    return (
      <Alert color="red" title="The chat could not be loaded" data-testid="chat-error">
        {problemMessage(query.error)}
        <Button variant="light" size="xs" ml="sm" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  const tooLong = text.length > CHAT_MESSAGE_MAX_LENGTH;
  return (
    <Stack gap="sm" data-testid="chat-panel">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Messages between our team and the customer on this dossier.
        </Text>
      </Group>
      <ScrollArea h={360} viewportRef={viewport} type="auto" offsetScrollbars>
        <Stack gap="xs" p="xs">
          {query.hasNextPage && (
            <Button
              variant="subtle"
              size="xs"
              onClick={() => void query.fetchNextPage()}
              loading={query.isFetchingNextPage}
            >
              Load earlier messages
            </Button>
          )}
          {messages.length === 0 && (
            <Text c="dimmed" ta="center" py="xl" data-testid="chat-empty">
              No messages yet. Write the first one below.
            </Text>
          )}
          {messages.map((m) => (
            <MessageBubble key={m.id} message={m} mine={m.author.id === meId} />
          ))}
        </Stack>
      </ScrollArea>
      {error && (
        <Alert color="red" data-testid="chat-send-error" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
      <Group align="flex-end" gap="xs">
        <Textarea
          style={{ flex: 1 }}
          autosize
          minRows={1}
          maxRows={6}
          placeholder="Write a message — Enter sends, Shift+Enter starts a new line"
          aria-label="Message"
          value={text}
          error={tooLong ? `At most ${CHAT_MESSAGE_MAX_LENGTH} characters (${text.length})` : undefined}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          data-testid="chat-input"
        />
        <Button
          onClick={() => void send()}
          loading={sending}
          disabled={!text.trim() || tooLong}
          data-testid="chat-send"
        >
          Send
        </Button>
      </Group>
    </Stack>
  );
}

/** The caller's unread count for a dossier's chat, for a tab badge. */
export function ChatUnreadBadge({ dossierId }: { dossierId: string }) {
  const query = useInfiniteQuery(chatMessagesOptions(dossierId));
  const unread = query.data?.pages[0]?.unread ?? 0;
  if (!unread) return null;
  return (
    <Badge size="xs" circle color="red" data-testid="chat-unread">
      {unread}
    </Badge>
  );
}
