import type { ContainerSummary, UnlinkedEvent } from '@fvg/contracts';
import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { fetchContainerList, fetchUnlinkedList } from '../api/container-events-api.ts';
import { containerEventKeys } from '../api/keys.ts';
import { ClassifierBadge } from './classifier-badge.tsx';
import {
  EMPTY_LABELS,
  EVENT_KIND_OPTIONS,
  EVENT_TYPE_LABELS,
  eventLabel,
  formatEventTime,
  placeText,
  STATUS_OPTIONS,
  unlinkedReasonText,
} from './event-meta.ts';

const dash = (
  <Text size="sm" c="dimmed" span>
    —
  </Text>
);

function DossierLink({ dossier }: { dossier: { number: string } | null }) {
  if (!dossier) return dash;
  return (
    <Anchor
      component={Link}
      to={pathFor('dossier', { dossierId: dossier.number })}
      size="sm"
      ff="monospace"
      data-testid="dossier-link"
    >
      {dossier.number}
    </Anchor>
  );
}

export const containerColumns: RecordColumn<ContainerSummary>[] = [
  {
    id: 'containerNumber',
    header: 'Container',
    sortField: 'containerNumber',
    width: 130,
    required: true,
    cell: (c) => (
      <Text size="sm" fw={500} ff="monospace" span>
        {c.containerNumber}
      </Text>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    width: 200,
    cell: (c) => (
      <Group gap={6} wrap="nowrap" data-testid="row-status" data-status={c.status}>
        <Text size="sm" truncate>
          {EVENT_TYPE_LABELS[c.status] ?? c.status}
        </Text>
        <ClassifierBadge code={c.latestEvent.eventClassifierCode} size="xs" />
      </Group>
    ),
  },
  {
    id: 'location',
    header: 'Location',
    width: 180,
    cell: (c) => (
      <Text size="sm" truncate>
        {c.location
          ? [c.location.UNLocationCode, c.location.facilityCode].filter(Boolean).join(' · ') || '—'
          : '—'}
      </Text>
    ),
  },
  {
    id: 'lastEventAt',
    header: 'Last event',
    sortField: 'lastEventAt',
    sortDescFirst: true,
    width: 170,
    cell: (c) => formatEventTime(c.latestEvent.eventDateTime),
  },
  {
    id: 'emptyIndicator',
    header: 'Empty/laden',
    width: 100,
    cell: (c) => (c.emptyIndicatorCode ? EMPTY_LABELS[c.emptyIndicatorCode] : '—'),
  },
  { id: 'isoCode', header: 'Size/type', width: 90, cell: (c) => c.ISOEquipmentCode ?? '—' },
  { id: 'dossier', header: 'Dossier', width: 140, cell: (c) => <DossierLink dossier={c.dossier} /> },
  {
    id: 'customer',
    header: 'Customer',
    width: 180,
    cell: (c) =>
      c.dossier ? (
        <Text size="sm" truncate title={`${c.dossier.customer.name} (${c.dossier.customer.code})`}>
          {c.dossier.customer.name}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          Not linked
        </Text>
      ),
  },
  {
    id: 'eventCount',
    header: 'Events',
    width: 80,
    align: 'right',
    cell: (c) => formatNumber(c.eventCount),
  },
  {
    id: 'updatedAt',
    header: 'Updated',
    width: 150,
    hiddenByDefault: true,
    cell: (c) => formatDateTime(c.updatedAt),
  },
];

/** The containers list: one row per container and dossier, with its latest event; searched by number. */
export function containerListConfig(): ListConfig<ContainerSummary> {
  const filters: FilterDef[] = [
    { kind: 'multiselect', key: 'status', label: 'Status', options: STATUS_OPTIONS },
    { kind: 'select', key: 'eventType', label: 'Latest event', options: EVENT_KIND_OPTIONS, width: 150 },
    // Set by the dashboard's "last 24 hours" links.
    { kind: 'pinned', key: 'from', label: 'Latest event from', valueLabel: formatDateTime },
    { kind: 'pinned', key: 'to', label: 'Latest event to', valueLabel: formatDateTime },
  ];
  return {
    id: 'containers',
    path: 'containers',
    label: 'Containers',
    plural: 'containers',
    columns: containerColumns,
    filters,
    defaultSort: '-lastEventAt',
    searchPlaceholder: 'Container number, e.g. MSKU6011672',
    getRowId: (c) => c.id,
    getRowTestId: (c) => `row-container-${c.containerNumber}`,
    listKey: containerEventKeys.containerList,
    fetchList: fetchContainerList,
  };
}

/** The booking and bill-of-lading numbers an event names: what would link it to a dossier. */
const referencesOf = (e: UnlinkedEvent) =>
  [
    ...e.documentReferences.map((r) => r.documentReferenceValue),
    ...e.references
      .filter((r) => r.referenceType === 'BKG' || r.referenceType === 'TRD')
      .map((r) => r.referenceValue),
    ...(e.documentID ? [e.documentID] : []),
  ]
    .filter((v, i, all) => all.indexOf(v) === i)
    .join(', ');

/** The rule's verdict on an unlinked event: the dossier it matches now, the several that claim it, or none. */
function ClaimingDossiers({ event }: { event: UnlinkedEvent }) {
  const reason = unlinkedReasonText(event);
  if (event.reason === 'unmatched')
    return (
      <Text size="sm" c="dimmed" title={reason} truncate data-testid="unlinked-reason">
        No match
      </Text>
    );
  // Rows have one fixed height: a contested event says how many claim it; the title and the link
  // dialog name them.
  if (event.reason === 'ambiguous')
    return (
      <Text size="sm" c="orange.8" fw={500} truncate title={reason} data-testid="unlinked-reason">
        Ambiguous: {event.candidates.length} dossiers
      </Text>
    );
  return (
    <Text size="sm" truncate title={reason} data-testid="unlinked-reason">
      {event.candidates.map((c) => (
        <span key={c.id}>
          <DossierLink dossier={c} /> ({c.customer.code})
        </span>
      ))}
    </Text>
  );
}

export function unlinkedColumns(onLink: (event: UnlinkedEvent) => void): RecordColumn<UnlinkedEvent>[] {
  return [
    {
      id: 'event',
      header: 'Event',
      width: 160,
      required: true,
      cell: (e) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" truncate>
            {eventLabel(e)}
          </Text>
          <ClassifierBadge code={e.eventClassifierCode} size="xs" />
        </Group>
      ),
    },
    {
      id: 'eventDateTime',
      header: 'Event time',
      sortField: 'eventDateTime',
      sortDescFirst: true,
      width: 165,
      cell: (e) => formatEventTime(e.eventDateTime),
    },
    {
      id: 'container',
      header: 'Container',
      width: 125,
      cell: (e) =>
        e.equipmentReference ? (
          <Text size="sm" ff="monospace" span>
            {e.equipmentReference}
          </Text>
        ) : (
          dash
        ),
    },
    {
      id: 'place',
      header: 'Place',
      width: 115,
      cell: (e) => (
        <Text size="sm" truncate>
          {placeText(e)}
        </Text>
      ),
    },
    {
      id: 'references',
      header: 'Booking / BL',
      width: 115,
      cell: (e) => (
        <Text size="sm" truncate title={referencesOf(e)}>
          {referencesOf(e) || '—'}
        </Text>
      ),
    },
    {
      id: 'suggested',
      header: 'Dossiers claiming it',
      width: 185,
      cell: (e) => <ClaimingDossiers event={e} />,
    },
    {
      id: 'receivedAt',
      header: 'Received',
      sortField: 'receivedAt',
      sortDescFirst: true,
      width: 150,
      // Off by default so the table fits 1280 px; the list is sorted by it anyway.
      hiddenByDefault: true,
      cell: (e) => formatDateTime(e.receivedAt),
    },
    {
      id: 'link',
      header: 'Action',
      width: 100,
      required: true,
      cell: (e) => (
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconLink size={14} aria-hidden />}
          onClick={() => onLink(e)}
          aria-label={`Link ${eventLabel(e)} of ${e.equipmentReference ?? formatEventTime(e.eventDateTime)} to a dossier`}
          data-testid="link-event"
        >
          Link
        </Button>
      ),
    },
  ];
}

/** Events no dossier claims (staff): a row, or its button, opens the link dialog. */
export function unlinkedListConfig(onLink: (event: UnlinkedEvent) => void): ListConfig<UnlinkedEvent> {
  return {
    id: 'unlinked-events',
    path: 'container-events/unlinked',
    label: 'Unlinked events',
    plural: 'unlinked events',
    columns: unlinkedColumns(onLink),
    filters: [
      { kind: 'select', key: 'eventType', label: 'Event type', options: EVENT_KIND_OPTIONS, width: 150 },
    ],
    defaultSort: '-receivedAt',
    searchPlaceholder: 'Container number prefix, booking or BL',
    getRowId: (e) => e.id,
    getRowTestId: (e) => `row-unlinked-${e.eventID}`,
    listKey: containerEventKeys.unlinkedList,
    fetchList: fetchUnlinkedList,
  };
}
