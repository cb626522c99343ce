import type { DeclarationMessage } from '@fvg/contracts';
import { Badge, Button, Code, Group, Stack, Text, Timeline } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowDownLeft, IconArrowUpRight, IconFileCode } from '@tabler/icons-react';
import { ErrorState } from '../../../components/error-state.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { downloadMessageXml } from '../api/declarations-api.ts';
import { DECLARATION_MESSAGE_KIND_LABELS, messageKindColor } from './declaration-meta.ts';

export interface DeclarationMessagesProps {
  /** The declaration the messages are of: a message sent as XML downloads from it. */
  declaration?: { id: string; lrn: string };
  messages: readonly DeclarationMessage[] | undefined;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
}

/**
 * What was sent to the authority and what it answered, oldest first: the time, the message's meaning,
 * its summary, the MRN it allocated, for a refusal each rule with its code and text, and for a message
 * exchanged as NCTS XML (a transit's IE015) a button that downloads it as sent.
 */
export function DeclarationMessages({
  declaration,
  messages,
  loading = false,
  error,
  onRetry,
}: DeclarationMessagesProps) {
  if (error) return <ErrorState title="The messages could not be loaded" error={error} onRetry={onRetry} />;
  if (loading || !messages)
    return (
      <Text size="sm" c="dimmed">
        Loading the messages…
      </Text>
    );
  if (messages.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="messages-empty">
        Nothing sent to the authority yet. Lodging the declaration sends it.
      </Text>
    );
  return (
    <Timeline bulletSize={26} lineWidth={2} data-testid="declaration-messages">
      {messages.map((m) => {
        const sent = m.direction === 'sent';
        const color = messageKindColor(m.kind);
        return (
          <Timeline.Item
            key={m.id}
            color={color}
            bullet={
              sent ? <IconArrowUpRight size={14} aria-hidden /> : <IconArrowDownLeft size={14} aria-hidden />
            }
            data-testid={`message-${m.kind}`}
            title={
              <Group gap="xs" wrap="wrap">
                <Text fw={600} size="sm">
                  {DECLARATION_MESSAGE_KIND_LABELS[m.kind]}
                </Text>
                <Badge size="xs" variant="light" color={sent ? 'gray' : 'blue'}>
                  {sent ? 'Sent' : 'Received'}
                </Badge>
                {m.sandbox && (
                  <Badge size="xs" variant="outline" color="yellow">
                    Sandbox
                  </Badge>
                )}
              </Group>
            }
          >
            <Stack gap={4} mt={2}>
              <Text size="xs" c="dimmed">
                {formatDateTime(m.at)}
                {sent ? (m.by ? ` · by ${m.by.name}` : '') : ' · from the customs authority'}
              </Text>
              <Text size="sm">{m.summary}</Text>
              {m.mrn && (
                <Text size="sm">
                  MRN <Code data-testid="message-mrn">{m.mrn}</Code>
                </Text>
              )}
              {m.xml && declaration && (
                <Group>
                  <Button
                    size="compact-sm"
                    variant="default"
                    leftSection={<IconFileCode size={14} aria-hidden />}
                    onClick={() =>
                      void downloadMessageXml(declaration, m.id).catch((e: unknown) =>
                        notifications.show({
                          color: 'red',
                          title: `${m.xml} message not downloaded`,
                          message: problemMessage(e),
                        }),
                      )
                    }
                    data-testid="message-xml"
                  >
                    {m.xml} message (XML)
                  </Button>
                </Group>
              )}
              {m.rules.length > 0 && (
                <Stack gap={2} data-testid="message-rules">
                  {m.rules.map((r) => (
                    <Text
                      key={`${r.code}-${r.field ?? ''}`}
                      size="sm"
                      c={color === 'red' ? 'red.8' : undefined}
                    >
                      <Code>{r.code}</Code> {r.text}
                    </Text>
                  ))}
                </Stack>
              )}
            </Stack>
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
