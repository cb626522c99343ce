import { DECLARATION_STATUS_LABELS, type ShipmentListItem } from '@fvg/contracts';
import { Group } from '@mantine/core';
import {
  dateColumn,
  numberColumn,
  partyColumn,
  statusColumn,
  statusFilter,
  textColumn,
  updatedAtColumn,
} from '../../../components/records/columns.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import { RecordLink } from '../../../components/records/record-link.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { DECLARATION_STATUS_COLORS } from '../../declarations/index.ts';
import { shipmentKeys } from '../api/keys.ts';
import {
  SHIPMENT_STATUS_COLORS,
  SHIPMENT_STATUS_LABELS,
  SHIPMENT_STATUS_OPTIONS,
} from '../api/shipment-meta.ts';
import { fetchShipmentList, SHIPMENTS_PATH } from '../api/shipments-api.ts';

/** A shipment's screen goes by its number (ADR 0071). */
export const shipmentPath = (shipment: { number: string }) => pathFor('shipment', { id: shipment.number });

function columns(staff: boolean): RecordColumn<ShipmentListItem>[] {
  return [
    numberColumn({ width: 125, text: (s) => s.number, href: shipmentPath }),
    statusColumn({
      width: 90,
      status: (s) => s.status,
      colors: SHIPMENT_STATUS_COLORS,
      labels: SHIPMENT_STATUS_LABELS,
    }),
    // A customer sees only its own shipments: the owner would be the same on every row.
    ...(staff
      ? [partyColumn<ShipmentListItem>({ id: 'owner', header: 'Owner', width: 120, party: (s) => s.owner })]
      : []),
    textColumn({ id: 'consignee', header: 'Consignee', width: 120, text: (s) => s.consigneeName }),
    dateColumn({
      id: 'plannedDate',
      header: 'Planned',
      sortField: 'plannedDate',
      width: 112,
      date: (s) => s.plannedDate,
    }),
    { id: 'lines', header: 'Lines', width: 62, align: 'right', cell: (s) => formatNumber(s.lines) },
    { id: 'quantity', header: 'Quantity', width: 90, align: 'right', cell: (s) => formatNumber(s.quantity) },
    {
      id: 'declaration',
      header: 'Declaration',
      width: 160,
      cell: (s) =>
        s.declaration ? (
          <Group gap={4} wrap="nowrap">
            <RecordLink to={pathFor('declaration', { id: s.declaration.lrn })} truncate>
              {s.declaration.lrn}
            </RecordLink>
            <StatusBadge
              status={s.declaration.status}
              colors={DECLARATION_STATUS_COLORS}
              labels={DECLARATION_STATUS_LABELS}
              size="xs"
              testId="row-declaration-status"
            />
          </Group>
        ) : (
          '—'
        ),
    },
    textColumn({
      id: 'customerReference',
      header: 'Reference',
      width: 115,
      text: (s) => s.customerReference,
    }),
    updatedAtColumn(),
  ];
}

export interface ShipmentListOptions {
  /** Staff filter by owner and see the owner column; customers see their party's shipments only. */
  staff: boolean;
  ownerLookup: LookupSource;
}

/** The shipments list: search over number and customer reference; filters by status, owner, dates, SKU. */
export function shipmentListConfig({
  staff,
  ownerLookup,
}: ShipmentListOptions): ListConfig<ShipmentListItem> {
  const filters: FilterDef[] = [
    statusFilter(SHIPMENT_STATUS_OPTIONS),
    ...(staff ? ([{ kind: 'lookup', key: 'ownerId', label: 'Owner', source: ownerLookup }] as const) : []),
    { kind: 'dateRange', from: 'from', to: 'to', label: 'Planned', testId: 'planned' },
    {
      kind: 'text',
      key: 'reference',
      label: 'Reference',
      placeholder: 'Starts with',
      width: 150,
    },
    {
      kind: 'text',
      key: 'sku',
      label: 'Article (SKU)',
      placeholder: 'SKU starts with',
      width: 150,
      normalize: (v) => v.trim().toUpperCase(),
    },
  ];
  return {
    id: staff ? 'shipments' : 'shipments-customer',
    path: `${SHIPMENTS_PATH}/export`,
    label: 'Shipments',
    plural: 'shipments',
    columns: columns(staff),
    filters,
    defaultSort: '-createdAt',
    searchPlaceholder: 'Number or reference',
    getRowId: (s) => s.id,
    getRowTestId: (s) => `row-${s.number}`,
    rowHref: shipmentPath,
    listKey: shipmentKeys.list,
    fetchList: fetchShipmentList,
  };
}
