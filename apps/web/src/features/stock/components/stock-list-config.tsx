import type { StockReceiptListItem, StockRecordListItem } from '@fvg/contracts';
import { Anchor, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { stockKeys } from '../api/keys.ts';
import { fetchReceiptList, fetchStockList, STOCK_PATH, STOCK_RECEIPTS_PATH } from '../api/stock-api.ts';
import {
  CUSTOMS_STATUS_COLORS,
  CUSTOMS_STATUS_LABELS,
  CUSTOMS_STATUS_OPTIONS,
  CUSTOMS_STATUS_SHORT_LABELS,
  formatQuantity,
} from '../api/stock-meta.ts';

export const stockPath = (record: { id: string }) => pathFor('stock-item', { id: record.id });

/** The customs status as a badge; the short label in tables, the full one as its tooltip. */
export function CustomsStatusBadge({
  status,
  size = 'sm',
  short = false,
}: {
  status: StockRecordListItem['customsStatus'];
  size?: 'xs' | 'sm' | 'md' | 'lg';
  short?: boolean;
}) {
  return (
    <span title={CUSTOMS_STATUS_LABELS[status]}>
      <StatusBadge
        status={status}
        colors={CUSTOMS_STATUS_COLORS}
        labels={short ? CUSTOMS_STATUS_SHORT_LABELS : CUSTOMS_STATUS_LABELS}
        size={size}
        testId="customs-status"
      />
    </span>
  );
}

/** "RTM1-A-03-02", or "RTM1-A-03-02 +2 more" when the units lie in several places. */
export function locationText(record: Pick<StockRecordListItem, 'location' | 'locationCount'>): string {
  return record.locationCount > 1 ? `${record.location} +${record.locationCount - 1} more` : record.location;
}

const qty = (n: number, r: StockRecordListItem) => formatQuantity(n, r.unit);

const stockColumns: RecordColumn<StockRecordListItem>[] = [
  {
    id: 'sku',
    header: 'SKU',
    sortField: 'sku',
    width: 115,
    required: true,
    cell: (r) => (
      <Anchor component={Link} to={stockPath(r)} size="sm" fw={500} ff="monospace">
        {r.sku}
      </Anchor>
    ),
  },
  {
    id: 'description',
    header: 'Description',
    width: 140,
    cell: (r) => (
      <Text size="sm" truncate title={r.description}>
        {r.description}
      </Text>
    ),
  },
  {
    id: 'owner',
    header: 'Owner',
    width: 110,
    cell: (r) => (
      <Text size="sm" truncate title={`${r.owner.name} (${r.owner.code})`}>
        {r.owner.name}
      </Text>
    ),
  },
  {
    id: 'onHand',
    header: 'On hand',
    sortField: 'onHand',
    sortDescFirst: true,
    width: 110,
    align: 'right',
    cell: (r) => qty(r.quantityOnHand, r),
  },
  {
    id: 'reserved',
    header: 'Reserved',
    width: 110,
    align: 'right',
    hiddenByDefault: true,
    cell: (r) => qty(r.quantityReserved, r),
  },
  {
    id: 'available',
    header: 'Available',
    sortField: 'available',
    sortDescFirst: true,
    width: 120,
    align: 'right',
    cell: (r) => (
      <Text size="sm" fw={500} c={r.quantityAvailable === 0 ? 'dimmed' : undefined}>
        {qty(r.quantityAvailable, r)}
      </Text>
    ),
  },
  {
    id: 'customsStatus',
    header: 'Customs status',
    width: 170,
    cell: (r) => <CustomsStatusBadge status={r.customsStatus} size="xs" short />,
  },
  {
    id: 'location',
    header: 'Location',
    sortField: 'location',
    width: 120,
    cell: (r) => (
      <Text size="sm" ff="monospace" truncate>
        {locationText(r)}
      </Text>
    ),
  },
  {
    id: 'receivedOn',
    header: 'Received',
    sortField: 'receivedOn',
    sortDescFirst: true,
    width: 105,
    cell: (r) => formatDate(r.receivedOn),
  },
  {
    id: 'receipt',
    header: 'Receipt',
    width: 140,
    hiddenByDefault: true,
    cell: (r) => (
      <Text size="sm" ff="monospace">
        {r.receipt.number}
      </Text>
    ),
  },
  {
    id: 'inboundMrn',
    header: 'Inbound MRN',
    width: 180,
    hiddenByDefault: true,
    cell: (r) => (
      <Text size="sm" ff="monospace">
        {r.inboundMrn ?? '—'}
      </Text>
    ),
  },
  {
    id: 'value',
    header: 'Value',
    width: 120,
    align: 'right',
    hiddenByDefault: true,
    cell: (r) =>
      r.value !== null && r.currency ? formatMoney(r.value as `${number}`, { currency: r.currency }) : '—',
  },
];

export interface StockListOptions {
  /** Staff filter by owner; a customer sees only their party's stock. */
  staff: boolean;
  ownerLookup: LookupSource;
  /** The number of the receipt the list is pinned to (`receiptId`), once known. */
  receiptNumber?: (receiptId: string) => string | undefined;
}

const upper = (value: string) => value.toUpperCase();

/** The stock records list: what lies where, for whom, under which customs status. */
export function stockListConfig({
  staff,
  ownerLookup,
  receiptNumber,
}: StockListOptions): ListConfig<StockRecordListItem> {
  const filters: FilterDef[] = [
    ...(staff ? ([{ kind: 'lookup', key: 'ownerId', label: 'Owner', source: ownerLookup }] as const) : []),
    { kind: 'text', key: 'sku', label: 'SKU', placeholder: 'Starts with', normalize: upper, width: 140 },
    { kind: 'multiselect', key: 'customsStatus', label: 'Customs status', options: CUSTOMS_STATUS_OPTIONS },
    {
      kind: 'text',
      key: 'location',
      label: 'Location',
      placeholder: 'e.g. RTM1-A',
      normalize: upper,
      width: 140,
    },
    { kind: 'dateRange', from: 'from', to: 'to', label: 'Received', testId: 'received' },
    {
      kind: 'select',
      key: 'available',
      label: 'Available',
      options: [{ value: 'true', label: 'Available only' }],
      width: 150,
    },
    {
      kind: 'select',
      key: 'onHand',
      label: 'On hand',
      options: [{ value: 'true', label: 'In the warehouse' }],
      width: 170,
    },
    {
      kind: 'pinned',
      key: 'receiptId',
      label: 'Receipt',
      ...(receiptNumber ? { valueLabel: receiptNumber } : {}),
    },
  ];
  return {
    id: staff ? 'stock' : 'stock-customer',
    path: `${STOCK_PATH}/export`,
    label: 'Stock',
    plural: 'stock records',
    columns: stockColumns,
    filters,
    defaultSort: '-receivedOn',
    searchPlaceholder: 'SKU, description, MRN',
    getRowId: (r) => r.id,
    getRowTestId: (r) => `row-${r.sku}-${r.receipt.number}`,
    rowHref: stockPath,
    listKey: stockKeys.list,
    fetchList: fetchStockList,
  };
}

const receiptColumns: RecordColumn<StockReceiptListItem>[] = [
  {
    id: 'number',
    header: 'Receipt',
    sortField: 'number',
    width: 150,
    required: true,
    cell: (r) => (
      <Text size="sm" fw={500} ff="monospace">
        {r.number}
      </Text>
    ),
  },
  {
    id: 'owner',
    header: 'Owner',
    width: 170,
    cell: (r) => (
      <Text size="sm" truncate title={`${r.owner.name} (${r.owner.code})`}>
        {r.owner.name}
      </Text>
    ),
  },
  {
    id: 'receivedOn',
    header: 'Received',
    sortField: 'receivedOn',
    sortDescFirst: true,
    width: 110,
    cell: (r) => formatDate(r.receivedOn),
  },
  {
    id: 'customsStatus',
    header: 'Customs status',
    width: 180,
    cell: (r) => <CustomsStatusBadge status={r.customsStatus} size="xs" short />,
  },
  {
    id: 'inboundMrn',
    header: 'Inbound MRN',
    width: 190,
    cell: (r) => (
      <Text size="sm" ff="monospace">
        {r.inboundMrn ?? '—'}
      </Text>
    ),
  },
  { id: 'lines', header: 'Lines', width: 80, align: 'right', cell: (r) => formatNumber(r.lines) },
  {
    id: 'quantity',
    header: 'Quantity',
    width: 100,
    align: 'right',
    cell: (r) => formatNumber(r.quantity),
  },
];

/** Receipts, each opening the stock list of its lines. */
export function receiptListConfig({
  staff,
  ownerLookup,
}: StockListOptions): ListConfig<StockReceiptListItem> {
  const filters: FilterDef[] = [
    ...(staff ? ([{ kind: 'lookup', key: 'ownerId', label: 'Owner', source: ownerLookup }] as const) : []),
    { kind: 'dateRange', from: 'from', to: 'to', label: 'Received', testId: 'received' },
  ];
  return {
    id: staff ? 'stock-receipts' : 'stock-receipts-customer',
    path: `${STOCK_RECEIPTS_PATH}/export`,
    label: 'Stock receipts',
    plural: 'receipts',
    columns: receiptColumns,
    filters,
    defaultSort: '-receivedOn',
    searchPlaceholder: 'Receipt number or MRN',
    getRowId: (r) => r.id,
    getRowTestId: (r) => `row-${r.number}`,
    listKey: stockKeys.receiptList,
    fetchList: fetchReceiptList,
  };
}
