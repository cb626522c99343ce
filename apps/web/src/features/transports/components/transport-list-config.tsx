import type { Transport } from '@fvg/contracts';
import { Text } from '@mantine/core';
import { statusColumn, statusFilter, updatedAtColumn } from '../../../components/records/columns.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import { RecordLink } from '../../../components/records/record-link.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { transportKeys } from '../api/keys.ts';
import { fetchTransportList } from '../api/transports-api.ts';
import {
  MODE_LABELS,
  MODE_OPTIONS,
  STATUS_COLORS,
  STATUS_LABELS,
  STATUS_OPTIONS,
  vehicleOf,
} from './transport-meta.ts';

/** 'from – to' of a window, '—' when neither is set. */
export function formatWindow(from: string | null, to: string | null): string {
  if (!from && !to) return '—';
  return `${formatDateTime(from)} – ${formatDateTime(to)}`;
}

const place = (locode: string | null, address: string | null) => locode ?? address ?? '—';

export const transportColumns: RecordColumn<Transport>[] = [
  {
    id: 'dossier',
    header: 'Dossier',
    sortField: 'dossier',
    width: 140,
    required: true,
    cell: (t) => (
      <RecordLink to={pathFor('dossier', { dossierId: t.dossier.number })} strong>
        {t.dossier.number}
      </RecordLink>
    ),
  },
  { id: 'sequence', header: 'Leg', width: 60, align: 'right', cell: (t) => t.sequence },
  statusColumn({
    width: 120,
    size: 'sm',
    status: (t) => t.status,
    colors: STATUS_COLORS,
    labels: STATUS_LABELS,
  }),
  { id: 'mode', header: 'Mode', width: 80, cell: (t) => MODE_LABELS[t.mode] },
  {
    id: 'carrier',
    header: 'Carrier',
    width: 180,
    cell: (t) =>
      t.carrier ? (
        <Text size="sm" truncate title={`${t.carrier.name} (${t.carrier.code})`}>
          {t.carrier.name}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          Unassigned
        </Text>
      ),
  },
  { id: 'vehicle', header: 'Vehicle', width: 140, cell: (t) => vehicleOf(t) },
  {
    id: 'pickup',
    header: 'Pickup',
    sortField: 'pickupFrom',
    width: 250,
    cell: (t) => (
      <Text size="sm" truncate>
        {place(t.pickupLocode, t.pickupAddress)} · {formatWindow(t.pickupFrom, t.pickupTo)}
      </Text>
    ),
  },
  {
    id: 'delivery',
    header: 'Delivery',
    sortField: 'deliveryFrom',
    width: 250,
    cell: (t) => (
      <Text size="sm" truncate>
        {place(t.deliveryLocode, t.deliveryAddress)} · {formatWindow(t.deliveryFrom, t.deliveryTo)}
      </Text>
    ),
  },
  { id: 'driver', header: 'Driver', width: 140, cell: (t) => t.driverName ?? '—' },
  {
    id: 'containers',
    header: 'Containers',
    width: 100,
    align: 'right',
    cell: (t) => <span title={t.containers.join(' ')}>{formatNumber(t.containers.length)}</span>,
  },
  updatedAtColumn(),
];

export interface TransportListOptions {
  carrierLookup: LookupSource;
  /** Staff see the driver; a customer's list has no driver column and its search does not reach it. */
  staff?: boolean;
}

/** The transports list: filters by status, mode, carrier and pickup date range. */
export function transportListConfig({
  carrierLookup,
  staff = true,
}: TransportListOptions): ListConfig<Transport> {
  const filters: FilterDef[] = [
    statusFilter(STATUS_OPTIONS),
    { kind: 'select', key: 'mode', label: 'Mode', options: MODE_OPTIONS, width: 130 },
    { kind: 'lookup', key: 'carrierId', label: 'Carrier', source: carrierLookup },
    { kind: 'dateRange', from: 'pickupFrom', to: 'pickupTo', label: 'Pickup', testId: 'pickup' },
    // The dashboard's "today" and "this week" count the days of a zone: its links pin it.
    { kind: 'pinned', key: 'tz', label: 'Days in', valueLabel: (zone) => zone.replaceAll('_', ' ') },
  ];
  return {
    id: 'transports',
    path: 'transports',
    label: 'Transports',
    plural: 'transports',
    columns: staff ? transportColumns : transportColumns.filter((c) => c.id !== 'driver'),
    filters,
    defaultSort: 'pickupFrom',
    searchPlaceholder: staff ? 'Dossier, plate, vessel, flight, driver' : 'Dossier, plate, vessel, flight',
    getRowId: (t) => t.id,
    getRowTestId: (t) => `row-transport-${t.dossier.number}-${t.sequence}`,
    listKey: transportKeys.list,
    fetchList: fetchTransportList,
  };
}
