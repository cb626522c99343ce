import type { SalesOfferListItem } from '@fvg/contracts';
import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import {
  customerDossierFilters,
  dateColumn,
  dossierColumn,
  partyColumn,
  statusColumn,
  statusFilter,
  updatedAtColumn,
} from '../../../components/records/columns.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { offerKeys } from '../api/keys.ts';
import { fetchOfferList } from '../api/sales-offers-api.ts';
import { MODE_LABELS, MODE_OPTIONS, STATUS_COLORS, STATUS_LABELS, STATUS_OPTIONS } from './offer-meta.ts';

/** '€12,450.00 · $3,200.00': the gross total in each currency of the offer. */
export function totalsText(totals: SalesOfferListItem['totals']): string {
  return totals.length === 0
    ? '—'
    : totals.map((t) => formatMoney(t.gross as `${number}`, { currency: t.currency })).join(' · ');
}

export const offerColumns: RecordColumn<SalesOfferListItem>[] = [
  {
    id: 'number',
    header: 'Number',
    sortField: 'number',
    width: 130,
    required: true,
    // A real link (a new tab, a copied address) to the offer over the list.
    cell: (o) => (
      <Anchor
        component={Link}
        to={pathFor('sales-offers')}
        search={{ open: o.id } as never}
        size="sm"
        fw={500}
        ff="monospace"
      >
        {o.number}
      </Anchor>
    ),
  },
  partyColumn({ sortField: 'customer', width: 160, party: (o) => o.customer }),
  statusColumn({
    width: 100,
    size: 'sm',
    status: (o) => o.status,
    colors: STATUS_COLORS,
    labels: STATUS_LABELS,
  }),
  dateColumn({
    id: 'validUntil',
    header: 'Valid until',
    sortField: 'validUntil',
    sortDescFirst: true,
    width: 130,
    date: (o) => o.validUntil,
  }),
  {
    id: 'route',
    header: 'Route',
    width: 130,
    cell: (o) => `${o.originLocode ?? '—'} → ${o.destinationLocode ?? '—'}`,
  },
  { id: 'mode', header: 'Mode', width: 80, cell: (o) => MODE_LABELS[o.mode] },
  {
    id: 'totals',
    header: 'Total',
    width: 130,
    align: 'right',
    cell: (o) =>
      o.totals.length > 1 ? (
        // One line per currency, so no amount is cut.
        <Stack gap={0} align="flex-end">
          {o.totals.map((t) => (
            <Text key={t.currency} size="sm">
              {formatMoney(t.gross as `${number}`, { currency: t.currency })}
            </Text>
          ))}
        </Stack>
      ) : (
        <Text size="sm">{totalsText(o.totals)}</Text>
      ),
  },
  dossierColumn({ width: 130 }),
  updatedAtColumn(),
];

export interface OfferListOptions {
  /** Staff see every status and filter by customer; customers see their own sent and decided offers. */
  staff: boolean;
  customerLookup: LookupSource;
}

/** The offers list: search over number, customer and contact; filters by status, customer, valid-until range and mode. */
export function offerListConfig({ staff, customerLookup }: OfferListOptions): ListConfig<SalesOfferListItem> {
  const filters: FilterDef[] = [
    // Customers never see drafts (nor cancelled-before-sending ones): their status filter leaves it out.
    statusFilter(STATUS_OPTIONS, { staff }),
    ...customerDossierFilters(staff, { customerLookup }),
    { kind: 'dateRange', from: 'validFrom', to: 'validTo', label: 'Valid until', testId: 'valid' },
    { kind: 'select', key: 'mode', label: 'Mode', options: MODE_OPTIONS, width: 130 },
  ];
  return {
    id: staff ? 'sales-offers' : 'sales-offers-customer',
    path: 'sales-offers',
    label: 'Sales offers',
    plural: 'offers',
    // A customer's offers are all their own: no customer column.
    columns: staff ? offerColumns : offerColumns.filter((c) => c.id !== 'customer'),
    filters,
    defaultSort: '-updatedAt',
    searchPlaceholder: 'Number, contact, cargo',
    getRowId: (o) => o.id,
    getRowTestId: (o) => `row-${o.number}`,
    listKey: offerKeys.list,
    fetchList: fetchOfferList,
  };
}
