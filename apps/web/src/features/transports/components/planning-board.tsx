import type { Planning, PlanningItem, Transport } from '@fvg/contracts';
import { Alert, Anchor, Badge, Box, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DateTimeValueInput } from '../../../components/records/date-inputs.tsx';
import {
  type LookupOption,
  type LookupSource,
  RecordSelect,
} from '../../../components/records/record-select.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { displayPreferences } from '../../../lib/display-preferences.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { transportKeys } from '../api/keys.ts';
import { type TransportUpdateBody, updateTransport } from '../api/transports-api.ts';
import classes from './planning-board.module.css';
import { FlagBadge, flagSentence } from './planning-flags.tsx';
import { PlanningLoad, usePlanning } from './planning-load.tsx';
import { MODE_LABELS, STATUS_COLORS, STATUS_LABELS, vehicleOf } from './transport-meta.ts';

export interface PlanningGroup {
  carrier: Transport['carrier'];
  transports: PlanningItem[];
}

/** The loaded legs by carrier: unassigned first, then carriers by name; legs keep their time order. */
export function groupPlanning(items: readonly PlanningItem[]): PlanningGroup[] {
  const groups = new Map<string, PlanningGroup>();
  for (const item of items) {
    const key = item.carrier?.id ?? '';
    const group = groups.get(key) ?? { carrier: item.carrier, transports: [] };
    group.transports.push(item);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) =>
    a.carrier ? (b.carrier ? a.carrier.name.localeCompare(b.carrier.name) : 1) : -1,
  );
}

const isoDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Monday to Sunday of the week of `today`, as YYYY-MM-DD. */
export function weekOf(today: Date = new Date()): { from: string; to: string } {
  const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
  const sunday = new Date(monday);
  sunday.setDate(monday.getDate() + 6);
  return { from: isoDay(monday), to: isoDay(sunday) };
}

/**
 * The board's columns, one layout for every carrier group. Pickup and delivery share the last column,
 * one above the other, and take what is left: at 1280 px wide (240 px of navigation) every column and
 * both times fit; narrower, the table scrolls instead of clipping. The status sits under the leg and
 * the mode under the vehicle.
 */
const COLUMNS: { id: string; label: string; width?: number }[] = [
  { id: 'leg', label: 'Leg', width: 150 },
  { id: 'flags', label: 'Flags', width: 128 },
  { id: 'route', label: 'Route', width: 116 },
  { id: 'vehicle', label: 'Vehicle', width: 116 },
  { id: 'carrier', label: 'Carrier', width: 184 },
  { id: 'times', label: 'Pickup and delivery' },
];
const TABLE_MIN_WIDTH = 980;

/** The fields an inline edit changes, with the carrier as the board shows it. */
type Change =
  | { field: 'carrierId'; value: string | null; carrier: Transport['carrier'] }
  | { field: 'pickupFrom' | 'deliveryFrom'; value: string | null };

export interface PlanningBoardProps {
  from: string;
  to: string;
  onRangeChange: (from: string, to: string) => void;
  carrierLookup: LookupSource;
  /** Staff plan inline; others read. */
  staff: boolean;
}

/** Label "Name (CODE)" → the carrier reference the board shows until the server answers. */
function carrierOf(option: LookupOption | null, id: string | null): Transport['carrier'] {
  if (!id) return null;
  const match = option?.label.match(/^(.*) \(([^()]*)\)$/);
  return { id, name: match?.[1] ?? option?.label ?? '', code: match?.[2] ?? '' };
}

/**
 * The planning board: transports of a date range by carrier (unassigned first), with what needs
 * attention flagged. Carrier and pickup/delivery times save at once (PATCH with the leg's version);
 * the board shows the change before the answer and takes it back when the server refuses it.
 */
export function PlanningBoard({ from, to, onRangeChange, carrierLookup, staff }: PlanningBoardProps) {
  const queryClient = useQueryClient();
  const key = transportKeys.planning(from, to);
  const { planning, items, total } = usePlanning(from, to);
  const [error, setError] = useState<string | null>(null);

  /** Changes one leg in every loaded page. */
  const patchLeg = (id: string, patch: (t: PlanningItem) => PlanningItem) =>
    queryClient.setQueryData<InfiniteData<Planning>>(key, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((t) => (t.id === id ? patch(t) : t)),
            })),
          }
        : data,
    );
  /** The leg as the board holds it now (its latest version after earlier saves). */
  const current = (id: string) =>
    queryClient
      .getQueryData<InfiniteData<Planning>>(key)
      ?.pages.flatMap((p) => p.items)
      .find((t) => t.id === id);

  const save = useMutation({
    // One save at a time: the next one sends the version the previous one produced.
    scope: { id: 'planning-board' },
    mutationFn: ({ item, change }: { item: PlanningItem; change: Change }) =>
      updateTransport(item.id, {
        [change.field]: change.value,
        version: current(item.id)?.version ?? item.version,
      } as TransportUpdateBody),
    onMutate: async ({ item, change }) => {
      setError(null);
      // Only the refetches: a "next legs" page still loading keeps loading.
      if (!planning.isFetchingNextPage) await queryClient.cancelQueries({ queryKey: key });
      const previous = current(item.id);
      patchLeg(item.id, (t) =>
        change.field === 'carrierId'
          ? {
              ...t,
              carrier: change.carrier,
              flags: change.carrier
                ? t.flags.filter((f) => f !== 'missing_carrier')
                : t.flags.includes('missing_carrier')
                  ? t.flags
                  : ['missing_carrier', ...t.flags],
            }
          : { ...t, [change.field]: change.value },
      );
      return { previous };
    },
    onSuccess: (saved) => {
      // The server's leg (new version, its fields) at once; flags come with the refetch.
      patchLeg(saved.id, (t) => ({ ...saved, flags: t.flags }));
    },
    onError: (err, { item, change }, context) => {
      // Undo this change only: other legs' edits in flight stay.
      const before = context?.previous;
      if (before)
        patchLeg(item.id, (t) =>
          change.field === 'carrierId'
            ? { ...t, carrier: before.carrier, flags: before.flags }
            : { ...t, [change.field]: before[change.field] },
        );
      setError(problemMessage(err));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: transportKeys.all });
    },
  });

  const range: [string | null, string | null] = [from, to];
  const groups = useMemo(() => groupPlanning(items), [items]);
  const count = items.length;

  return (
    <Stack gap="md" data-testid="planning-board">
      <Group gap="sm" align="flex-end">
        <DatePickerInput
          type="range"
          label="Pickup dates"
          valueFormat={displayPreferences().dateFormat}
          value={range}
          onChange={(value) => {
            const [a, b] = value;
            if (a && b) onRangeChange(String(a).slice(0, 10), String(b).slice(0, 10));
          }}
          allowSingleDateInRange
          w={260}
          data-testid="planning-range"
        />
        {(planning.isFetching || save.isPending) && <Loader size="xs" aria-label="Updating" />}
      </Group>
      {error && (
        <Alert
          color="orange"
          variant="light"
          role="alert"
          title="Not saved"
          data-testid="planning-error"
          withCloseButton
          onClose={() => setError(null)}
        >
          {error}
        </Alert>
      )}
      <PlanningLoad
        planning={planning}
        empty={count === 0}
        emptyText="No transports are planned in this range."
      >
        <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
          <Table
            verticalSpacing={4}
            horizontalSpacing="xs"
            layout="fixed"
            aria-label="Transports by carrier"
            data-testid="planning-table"
          >
            {/* One column layout for every carrier: the widths do not follow each group's content. */}
            <colgroup>
              {COLUMNS.map((c) => (
                <col key={c.id} style={c.width ? { width: c.width } : undefined} />
              ))}
            </colgroup>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((c) => (
                  <Table.Th key={c.id}>{c.label}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            {groups.map((group) => (
              <Table.Tbody
                key={group.carrier?.id ?? 'unassigned'}
                data-testid={`planning-group-${group.carrier?.code ?? 'unassigned'}`}
              >
                <Table.Tr className={classes.groupRow}>
                  <Table.Th colSpan={COLUMNS.length} scope="colgroup">
                    <Group gap="xs">
                      <Title order={4} size="h5">
                        {group.carrier ? group.carrier.name : 'Unassigned'}
                      </Title>
                      {group.carrier && (
                        <Text c="dimmed" size="sm" ff="monospace">
                          {group.carrier.code}
                        </Text>
                      )}
                      <Badge variant="light" color="gray" size="sm">
                        {group.transports.length}
                      </Badge>
                    </Group>
                  </Table.Th>
                </Table.Tr>
                {group.transports.map((item) => (
                  <PlanningRow
                    key={item.id}
                    item={item}
                    loaded={items}
                    staff={staff}
                    carrierLookup={carrierLookup}
                    onChange={(change) => save.mutate({ item, change })}
                  />
                ))}
              </Table.Tbody>
            ))}
          </Table>
        </Table.ScrollContainer>
      </PlanningLoad>
      {count > 0 && (
        <Group gap="sm" justify="center" data-testid="planning-paging">
          <Text size="sm" c="dimmed" data-testid="planning-count">
            {count < total
              ? `Showing the first ${formatNumber(count)} of ${formatNumber(total)} legs, in time order`
              : `${formatNumber(total)} ${total === 1 ? 'leg' : 'legs'}`}
          </Text>
          {planning.hasNextPage && (
            <Button
              variant="light"
              size="xs"
              loading={planning.isFetchingNextPage}
              onClick={() => void planning.fetchNextPage()}
              data-testid="planning-more"
            >
              Show the next legs
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

function PlanningRow({
  item,
  loaded,
  staff,
  carrierLookup,
  onChange,
}: {
  item: PlanningItem;
  /** Every loaded leg: an overlap's tooltip names the leg the vehicle is also on. */
  loaded: readonly PlanningItem[];
  staff: boolean;
  carrierLookup: LookupSource;
  onChange: (change: Change) => void;
}) {
  const editable = staff && item.status !== 'cancelled' && item.status !== 'delivered';
  return (
    <Table.Tr data-testid={`planning-row-${item.id}`}>
      <Table.Td>
        <Anchor
          component={Link}
          to={pathFor('transports')}
          // The route table's paths are not typed routes; the search is /transports' `open`.
          search={{ open: item.id } as never}
          size="sm"
          ff="monospace"
          fw={500}
          style={{ whiteSpace: 'nowrap' }}
        >
          {item.dossier.number}-{item.sequence}
        </Anchor>
        <div>
          <StatusBadge status={item.status} colors={STATUS_COLORS} labels={STATUS_LABELS} size="xs" />
        </div>
      </Table.Td>
      <Table.Td>
        <Stack gap={4} align="flex-start">
          {item.flags.map((flag) => (
            <FlagBadge key={flag} flag={flag} sentence={flagSentence(flag, item, loaded)} />
          ))}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{item.pickupLocode ?? item.pickupAddress ?? '—'} →</Text>
        <Text size="sm">{item.deliveryLocode ?? item.deliveryAddress ?? '—'}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{vehicleOf(item)}</Text>
        <Text size="xs" c="dimmed">
          {MODE_LABELS[item.mode]}
        </Text>
      </Table.Td>
      <Table.Td>
        {editable ? (
          <RecordSelect
            source={carrierLookup}
            value={item.carrier?.id ?? null}
            knownOption={
              item.carrier
                ? { value: item.carrier.id, label: `${item.carrier.name} (${item.carrier.code})` }
                : null
            }
            onChange={(value, option) => {
              if ((value ?? null) === (item.carrier?.id ?? null)) return;
              onChange({ field: 'carrierId', value, carrier: carrierOf(option, value) });
            }}
            placeholder="Assign a carrier"
            aria-label={`Carrier of ${item.dossier.number}-${item.sequence}`}
            size="xs"
            comboboxProps={{ withinPortal: true, width: 280, position: 'bottom-start' }}
            data-testid={`assign-carrier-${item.id}`}
          />
        ) : (
          <Text size="sm">{item.carrier?.name ?? '—'}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <Group gap={6} wrap="nowrap">
            <Text size="xs" c="dimmed" w={52} style={{ flex: 'none' }}>
              Pickup
            </Text>
            <Box style={{ flex: 1, minWidth: 0 }}>
              <TimeCell
                value={item.pickupFrom}
                editable={editable}
                label={`Pickup of ${item.dossier.number}-${item.sequence}`}
                testId={`pickup-${item.id}`}
                onSave={(value) => onChange({ field: 'pickupFrom', value })}
              />
            </Box>
          </Group>
          <Group gap={6} wrap="nowrap">
            <Text size="xs" c="dimmed" w={52} style={{ flex: 'none' }}>
              Delivery
            </Text>
            <Box style={{ flex: 1, minWidth: 0 }}>
              <TimeCell
                value={item.deliveryFrom}
                editable={editable}
                label={`Delivery of ${item.dossier.number}-${item.sequence}`}
                testId={`delivery-${item.id}`}
                onSave={(value) => onChange({ field: 'deliveryFrom', value })}
              />
            </Box>
          </Group>
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}

/** A date and time that saves when the input loses focus (or on Enter), if it changed. */
function TimeCell({
  value,
  editable,
  label,
  testId,
  onSave,
}: {
  value: string | null;
  editable: boolean;
  label: string;
  testId: string;
  onSave: (value: string | null) => void;
}) {
  // What is on screen; saved when the focus leaves the field or on Enter, not on every keystroke.
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  // The last edit sent: leaving the field again before the answer arrives does not send it twice.
  const sent = useRef(value);
  const commit = () => {
    if (draft === value || draft === sent.current) return;
    sent.current = draft;
    onSave(draft);
  };
  if (!editable) return <Text size="sm">{formatDateTime(value)}</Text>;
  return (
    <DateTimeValueInput
      size="xs"
      value={draft}
      ariaLabel={label}
      onChange={setDraft}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
      data-testid={testId}
    />
  );
}
