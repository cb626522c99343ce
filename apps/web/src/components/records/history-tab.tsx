import { type AuditEntry, isCalendarDate, isDateTime } from '@fvg/contracts';
import {
  Code,
  EmptyState,
  Group,
  ScrollArea,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Timeline,
} from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { formatDate, formatDateTime } from '../../lib/format-date.ts';
import { t as translate, useT } from '../../lib/i18n.ts';
import { ErrorState } from '../error-state.tsx';

export interface HistoryTabProps {
  entries: readonly AuditEntry[] | undefined;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Labels of the record's fields ('etd' → 'ETD'); unknown fields show as named. */
  fieldLabels?: Readonly<Record<string, string>>;
  /** How a value of a field reads (party ids → names…); falls back to formatAuditValue. */
  formatValue?: (field: string, value: unknown) => ReactNode;
  /** Offer the raw JSON of the audit trail (admin mode). */
  allowRaw?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const SNAKE_CODE = /^[a-z]+(_[a-z]+)+$/;
/** Fields of the machinery, not of the record: never shown to users. */
const INTERNAL_FIELDS = new Set(['version', 'updatedAt']);

/**
 * A stored value as a short text: null/empty → '—', instants formatted, codes in words, lists joined,
 * objects by their main fields.
 */
export function formatAuditValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean')
    return value ? translate('records:history.yes') : translate('records:history.no');
  if (typeof value === 'string') {
    // An instant reads as everywhere else in the app, not as ISO 8601 in UTC.
    if (isDateTime(value)) return formatDateTime(value);
    if (isCalendarDate(value)) return formatDate(value);
    // A code value (`picked_up`) reads as words ("Picked up"); areas map their own labels first.
    if (SNAKE_CODE.test(value)) return humanizeField(value);
    return value;
  }
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(formatAuditValue).join(', ');
  if (isRecord(value)) {
    // References ({ id, code, name }), containers ({ number, sizeType, seals }) and the like.
    if (typeof value.name === 'string' && typeof value.code === 'string')
      return `${value.name} (${value.code})`;
    const main = value.number ?? value.name ?? value.code ?? value.id;
    if (typeof main === 'string') {
      const extra = Object.entries(value)
        .filter(
          ([k, v]) =>
            !['number', 'name', 'code', 'id'].includes(k) &&
            v !== null &&
            v !== '' &&
            !(Array.isArray(v) && v.length === 0),
        )
        .map(([, v]) => formatAuditValue(v));
      return extra.length ? `${main} (${extra.join(', ')})` : main;
    }
    return JSON.stringify(value);
  }
  return String(value);
}

/** Labels of the code values of some fields (`{ status: STATUS_LABELS }`): their history reads in words. */
export type ValueLabels = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** A `formatValue` that names the values of the labelled fields and formats the others as usual. */
export function labelledValues(labels: ValueLabels) {
  return (field: string, value: unknown): ReactNode => {
    const names = labels[field];
    return names && typeof value === 'string' ? (names[value] ?? value) : formatAuditValue(value);
  };
}

export interface RecordHistoryProps<K extends QueryKey>
  extends Omit<HistoryTabProps, 'entries' | 'loading' | 'error' | 'onRetry'> {
  /** The record's history query (`declarationHistoryOptions(id)`): it runs when the tab shows. */
  query: UseQueryOptions<AuditEntry[], Error, AuditEntry[], K>;
  /** Code values of these fields read as their labels (`{ status: STATUS_LABELS }`). */
  valueLabels?: ValueLabels;
}

/** A record's History tab: its audit trail loaded, retried and shown as HistoryTab shows it. */
export function RecordHistory<K extends QueryKey>({
  query,
  valueLabels,
  formatValue,
  ...props
}: RecordHistoryProps<K>) {
  const history = useQuery(query);
  const format = formatValue ?? (valueLabels ? labelledValues(valueLabels) : undefined);
  return (
    <HistoryTab
      entries={history.data}
      loading={history.isPending}
      error={history.error ?? undefined}
      onRetry={() => void history.refetch()}
      {...(format ? { formatValue: format } : {})}
      {...props}
    />
  );
}

/** A field name as a label when none is given: `customerReference` → 'Customer reference'. */
export function humanizeField(field: string): string {
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

/** The audit trail of a record, newest first: who, when, what, and each field from → to. */
export function HistoryTab({
  entries,
  loading = false,
  error,
  onRetry,
  fieldLabels = {},
  formatValue,
  allowRaw = false,
}: HistoryTabProps) {
  const t = useT('records');
  const [raw, setRaw] = useState(false);

  if (error)
    return <ErrorState title={t('history.loadFailed')} error={error} {...(onRetry ? { onRetry } : {})} />;
  if (loading || !entries) {
    return (
      <Stack gap="sm" data-testid="history-loading">
        <Skeleton height={20} width="40%" />
        <Skeleton height={14} />
        <Skeleton height={20} width="40%" />
        <Skeleton height={14} />
      </Stack>
    );
  }

  const show = (field: string, value: unknown) => formatValue?.(field, value) ?? formatAuditValue(value);

  return (
    <Stack gap="md" data-testid="history">
      {allowRaw && (
        <Group justify="flex-end">
          <Switch
            label={t('history.raw')}
            checked={raw}
            onChange={(event) => setRaw(event.currentTarget.checked)}
            data-testid="history-raw-toggle"
          />
        </Group>
      )}
      {raw ? (
        <ScrollArea.Autosize mah={600}>
          <Code block data-testid="history-raw">
            {JSON.stringify(entries, null, 2)}
          </Code>
        </ScrollArea.Autosize>
      ) : entries.length === 0 ? (
        <EmptyState
          icon={<IconHistory size={28} stroke={1.5} aria-hidden />}
          title={t('history.emptyTitle')}
          description={t('history.emptyText')}
          data-testid="history-empty"
        />
      ) : (
        <Timeline bulletSize={14} lineWidth={2}>
          {entries.map((entry) => (
            <Timeline.Item
              key={entry.id}
              data-testid="history-entry"
              title={
                <Group gap={6} wrap="wrap">
                  <Text fw={600} size="sm" data-testid="history-actor">
                    {entry.actor?.name ?? t('history.system')}
                  </Text>
                  <Text size="sm">{entry.action}</Text>
                  <Text size="sm" c="dimmed" component="time" dateTime={entry.at} data-testid="history-at">
                    {formatDateTime(entry.at)}
                  </Text>
                </Group>
              }
            >
              {entry.changes.some((c) => !INTERNAL_FIELDS.has(c.field)) && (
                <Table
                  withRowBorders={false}
                  verticalSpacing={2}
                  horizontalSpacing="xs"
                  fz="sm"
                  mt={4}
                  layout="fixed"
                >
                  <Table.Tbody>
                    {entry.changes
                      .filter((c) => !INTERNAL_FIELDS.has(c.field))
                      .map((change) => (
                        <Table.Tr key={change.field} data-testid="history-change" data-field={change.field}>
                          <Table.Td w={180} c="dimmed" style={{ verticalAlign: 'top' }}>
                            {fieldLabels[change.field] ?? humanizeField(change.field)}
                          </Table.Td>
                          <Table.Td style={{ wordBreak: 'break-word' }}>
                            <Text span size="sm" c="dimmed" data-testid="history-from">
                              {show(change.field, change.from)}
                            </Text>
                            <Text span size="sm" mx={6} aria-label={t('history.changedTo')}>
                              →
                            </Text>
                            <Text span size="sm" fw={500} data-testid="history-to">
                              {show(change.field, change.to)}
                            </Text>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                  </Table.Tbody>
                </Table>
              )}
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}
