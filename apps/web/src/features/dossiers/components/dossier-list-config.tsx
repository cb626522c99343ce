import { BASE_CURRENCY, type DossierListRow, normalizeContainerNumber } from '@fvg/contracts';
import { Badge, Text } from '@mantine/core';
import { IconMessage } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import {
  customerDossierFilters,
  numberColumn,
  partyColumn,
  statusColumn,
  statusFilter,
  updatedAtColumn,
} from '../../../components/records/columns.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { fetchDossierList } from '../api/dossiers-api.ts';
import { dossierKeys } from '../api/keys.ts';
import {
  MODE_LABELS,
  MODE_OPTIONS,
  STATUS_COLORS,
  STATUS_LABELS,
  STATUS_OPTIONS,
  TYPE_LABELS,
  TYPE_OPTIONS,
} from './dossier-meta.ts';

export const dossierPath = (dossier: { number: string }) => pathFor('dossier', { dossierId: dossier.number });

const staffOnly = new Set(['profit', 'handler']);

const columns: RecordColumn<DossierListRow>[] = [
  numberColumn({ width: 140, text: (d) => d.number, href: dossierPath }),
  statusColumn({
    width: 120,
    size: 'sm',
    status: (d) => d.status,
    colors: STATUS_COLORS,
    labels: STATUS_LABELS,
  }),
  {
    // The caller's unread chat messages: per user, so not sortable (it is no column of the dossier).
    id: 'unreadMessages',
    header: 'Chat',
    width: 80,
    cell: (d) =>
      d.unreadMessages > 0 ? (
        <Badge
          component={Link}
          to={dossierPath(d)}
          search={{ tab: 'chat' } as never}
          size="sm"
          variant="filled"
          color="blue"
          leftSection={<IconMessage size={12} aria-hidden />}
          aria-label={`${d.unreadMessages} unread ${d.unreadMessages === 1 ? 'message' : 'messages'}`}
          title={`${d.unreadMessages} unread ${d.unreadMessages === 1 ? 'message' : 'messages'}`}
          style={{ cursor: 'pointer' }}
          data-testid="row-unread"
        >
          {d.unreadMessages > 99 ? '99+' : d.unreadMessages}
        </Badge>
      ) : null,
  },
  { id: 'type', header: 'Type', width: 100, cell: (d) => TYPE_LABELS[d.type] },
  { id: 'mode', header: 'Mode', width: 90, cell: (d) => MODE_LABELS[d.mode] },
  partyColumn({ sortField: 'customer', width: 200, party: (d) => d.customer }),
  {
    id: 'route',
    header: 'Route',
    width: 170,
    cell: (d) => `${d.originLocode ?? '—'} → ${d.destinationLocode ?? '—'}`,
  },
  {
    id: 'etd',
    header: 'ETD',
    sortField: 'etd',
    sortDescFirst: true,
    width: 110,
    cell: (d) => formatDate(d.etd),
  },
  {
    id: 'eta',
    header: 'ETA',
    sortField: 'eta',
    sortDescFirst: true,
    width: 110,
    cell: (d) => formatDate(d.eta),
  },
  { id: 'customerReference', header: 'Customer ref.', width: 150, cell: (d) => d.customerReference ?? '—' },
  {
    id: 'masterBl',
    header: 'Master BL / AWB',
    width: 160,
    hiddenByDefault: true,
    cell: (d) => d.masterBl ?? '—',
  },
  {
    id: 'containers',
    header: 'Containers',
    width: 100,
    align: 'right',
    cell: (d) => formatNumber(d.containerCount),
  },
  {
    id: 'profit',
    header: `Profit (${BASE_CURRENCY})`,
    sortField: 'profit',
    sortDescFirst: true,
    width: 130,
    align: 'right',
    cell: (d) => (
      <Text size="sm" c={d.profit?.startsWith('-') ? 'red' : undefined}>
        {d.profit === null ? '—' : formatMoney(d.profit as `${number}`, { currency: BASE_CURRENCY })}
      </Text>
    ),
  },
  { id: 'handler', header: 'Handler', width: 140, cell: (d) => d.handler?.name ?? '—' },
  updatedAtColumn({ hiddenByDefault: false }),
];

export interface DossierListOptions {
  /** Staff see profit, handler and the customer filter; customers only their own dossiers. */
  staff: boolean;
  customerLookup: LookupSource;
}

/**
 * The dossiers list: search over number and references (customer reference, booking, BLs, CMR),
 * filters by status, type, mode, customer, ETD range and container number.
 */
export function dossierListConfig({ staff, customerLookup }: DossierListOptions): ListConfig<DossierListRow> {
  const filters: FilterDef[] = [
    statusFilter(STATUS_OPTIONS),
    { kind: 'select', key: 'type', label: 'Type', options: TYPE_OPTIONS, width: 140 },
    { kind: 'select', key: 'mode', label: 'Mode', options: MODE_OPTIONS, width: 130 },
    ...customerDossierFilters(staff, { customerLookup }),
    { kind: 'dateRange', from: 'etdFrom', to: 'etdTo', label: 'ETD', testId: 'etd' },
    {
      kind: 'text',
      key: 'container',
      label: 'Container',
      placeholder: 'MSKU6011672',
      normalize: normalizeContainerNumber,
      width: 150,
    },
  ];
  return {
    id: staff ? 'dossiers' : 'dossiers-customer',
    path: 'dossiers',
    label: 'Dossiers',
    plural: 'dossiers',
    columns: staff ? columns : columns.filter((c) => !staffOnly.has(c.id)),
    filters,
    defaultSort: '-updatedAt',
    searchPlaceholder: 'Number, reference, booking, BL, CMR',
    getRowId: (d) => d.id,
    getRowTestId: (d) => `row-${d.number}`,
    rowHref: dossierPath,
    listKey: dossierKeys.list,
    fetchList: fetchDossierList,
  };
}
