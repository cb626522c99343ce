import { DECLARATION_STATUS_LABELS, type ShipmentListItem } from '@fvg/contracts';
import { Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { DECLARATION_STATUS_COLORS } from '../../declarations/index.ts';
import { shipmentKeys } from '../api/keys.ts';
import {
  SHIPMENT_STATUS_COLORS,
  SHIPMENT_STATUS_LABELS,
  SHIPMENT_STATUS_OPTIONS,
} from '../api/shipment-meta.ts';
import { fetchShipmentList, SHIPMENTS_PATH } from '../api/shipments-api.ts';

export const shipmentPath = (shipment: { id: string }) => pathFor('shipment', { id: shipment.id });

function columns(staff: boolean): RecordColumn<ShipmentListItem>[] {
  return [
    {
      id: 'number',
      header: 'Number',
      sortField: 'number',
      width: 125,
      required: true,
      cell: (s) => (
        <Anchor component={Link} to={shipmentPath(s)} size="sm" fw={500} ff="monospace">
          {s.number}
        </Anchor>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      sortField: 'status',
      width: 90,
      cell: (s) => (
        <StatusBadge
          status={s.status}
          colors={SHIPMENT_STATUS_COLORS}
          labels={SHIPMENT_STATUS_LABELS}
          size="xs"
          testId="row-status"
        />
      ),
    },
    // A customer sees only its own shipments: the owner would be the same on every row.
    ...(staff
      ? [
          {
            id: 'owner',
            header: 'Owner',
            width: 120,
            cell: (s: ShipmentListItem) => (
              <Text size="sm" truncate title={`${s.owner.name} (${s.owner.code})`}>
                {s.owner.name}
              </Text>
            ),
          },
        ]
      : []),
    {
      id: 'consignee',
      header: 'Consignee',
      width: 120,
      cell: (s) =>
        s.consigneeName ? (
          <Text size="sm" truncate title={s.consigneeName}>
            {s.consigneeName}
          </Text>
        ) : (
          '—'
        ),
    },
    {
      id: 'plannedDate',
      header: 'Planned',
      sortField: 'plannedDate',
      width: 112,
      cell: (s) => (s.plannedDate ? formatDate(s.plannedDate) : '—'),
    },
    { id: 'lines', header: 'Lines', width: 62, align: 'right', cell: (s) => formatNumber(s.lines) },
    { id: 'quantity', header: 'Quantity', width: 90, align: 'right', cell: (s) => formatNumber(s.quantity) },
    {
      id: 'declaration',
      header: 'Declaration',
      width: 160,
      cell: (s) =>
        s.declaration ? (
          <Group gap={4} wrap="nowrap">
            <Anchor
              component={Link}
              to={pathFor('declaration', { id: s.declaration.id })}
              size="sm"
              ff="monospace"
              truncate
            >
              {s.declaration.lrn}
            </Anchor>
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
    {
      id: 'customerReference',
      header: 'Reference',
      width: 115,
      cell: (s) =>
        s.customerReference ? (
          <Text size="sm" truncate title={s.customerReference}>
            {s.customerReference}
          </Text>
        ) : (
          '—'
        ),
    },
    {
      id: 'updatedAt',
      header: 'Updated',
      sortField: 'updatedAt',
      sortDescFirst: true,
      width: 150,
      hiddenByDefault: true,
      cell: (s) => formatDateTime(s.updatedAt),
    },
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
    { kind: 'multiselect', key: 'status', label: 'Status', options: SHIPMENT_STATUS_OPTIONS },
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
