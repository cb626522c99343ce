import {
  formatSscc,
  HANDLING_UNIT_KIND_LABELS,
  type HandlingUnit,
  type Role,
  type StockMovement,
  type StockRecord,
} from '@fvg/contracts';
import { Alert, Anchor, Badge, Button, Code, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconArrowsTransferUp, IconHierarchy2, IconPlusMinus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { DetailLayout, type DetailTab, useRecordScreen } from '../../../components/records/detail-layout.tsx';
import { FactsTable, SidePanel } from '../../../components/records/facts.tsx';
import { RecordHistory } from '../../../components/records/history-tab.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { DocumentsTab } from '../../documents/index.ts';
import { stockHistoryOptions, stockMovementsOptions, stockOptions } from '../api/stock-api.ts';
import {
  CUSTOMS_STATUS_LABELS,
  formatQuantity,
  formatSignedQuantity,
  HANDLING_UNIT_KIND_COLORS,
  MOVEMENT_KIND_COLORS,
  MOVEMENT_KIND_LABELS,
  STOCK_FIELD_LABELS,
  stockRecordName,
} from '../api/stock-meta.ts';
import { AdjustDialog, TransferDialog } from './movement-dialogs.tsx';
import { CustomsStatusBadge, locationText } from './stock-list-config.tsx';

const kg = (value: string | null) => (value === null ? null : `${formatNumber(value as `${number}`)} kg`);

function Facts({ r, staff }: { r: StockRecord; staff: boolean }) {
  const q = (n: number) => formatQuantity(n, r.unit);
  return (
    <FactsTable
      testId="stock-facts"
      rows={[
        ['Owner', `${r.owner.name} (${r.owner.code})`],
        ['Description', r.description],
        ['Commodity code', r.commodityCode && <Code>{r.commodityCode}</Code>],
        ['Origin', r.countryOfOrigin],
        [
          'Quantity',
          <span key="q" data-testid="stock-quantities">
            {q(r.quantityOnHand)} on hand · {q(r.quantityReserved)} reserved ·{' '}
            <strong>{q(r.quantityAvailable)} available</strong>
          </span>,
        ],
        ['Received', `${q(r.quantityReceived)} on ${formatDate(r.receivedOn)}, receipt ${r.receipt.number}`],
        ['Customs status', <CustomsStatusBadge key="s" status={r.customsStatus} />],
        ['Inbound MRN', r.inboundMrn && <Code data-testid="stock-mrn">{r.inboundMrn}</Code>],
        [
          'Entry declaration',
          r.entryDeclaration &&
            (staff ? (
              <Anchor component={Link} to={pathFor('declaration', { id: r.entryDeclaration.lrn })} size="sm">
                {r.entryDeclaration.lrn}
              </Anchor>
            ) : (
              r.entryDeclaration.lrn
            )),
        ],
        ['Location', <Code key="l">{locationText(r)}</Code>],
        ['Packages', r.packages !== null ? formatNumber(r.packages) : null],
        [
          'Gross / net mass',
          r.grossMassKg || r.netMassKg ? `${kg(r.grossMassKg) ?? '—'} / ${kg(r.netMassKg) ?? '—'}` : null,
        ],
        [
          'Value',
          r.value !== null && r.currency
            ? formatMoney(r.value as `${number}`, { currency: r.currency })
            : null,
        ],
        ...(staff ? ([['Internal notes', r.notes]] as const) : []),
      ]}
    />
  );
}

function Side({ r }: { r: StockRecord }) {
  return (
    <SidePanel
      rows={[
        ['Customs status', CUSTOMS_STATUS_LABELS[r.customsStatus]],
        ['Available', formatQuantity(r.quantityAvailable, r.unit)],
        ['Pallets', formatNumber(r.pallets)],
        ['Received', formatDate(r.receivedOn)],
        ['Created', `${formatDateTime(r.createdAt)}${r.createdBy ? ` by ${r.createdBy.name}` : ''}`],
        ['Updated', formatDateTime(r.updatedAt)],
      ]}
    />
  );
}

/** Depth of each unit in the flat, depth-first list (0 = a root). */
function depths(units: readonly HandlingUnit[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const u of units) out.set(u.id, u.parentId ? (out.get(u.parentId) ?? 0) + 1 : 0);
  return out;
}

function Units({ r }: { r: StockRecord }) {
  const depth = depths(r.handlingUnits);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {r.handlingUnits.length
            ? `${formatNumber(r.handlingUnits.length)} handling units`
            : 'Loose stock: no pallets or cartons were recorded.'}
        </Text>
        <Button
          component={Link}
          to={pathFor('stock-tree', { id: r.id })}
          variant="default"
          size="xs"
          leftSection={<IconHierarchy2 size={14} aria-hidden />}
          data-testid="open-tree"
        >
          Open tree
        </Button>
      </Group>
      {r.handlingUnits.length > 0 && (
        <Table striped withTableBorder data-testid="units-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Unit</Table.Th>
              <Table.Th>SSCC / reference</Table.Th>
              <Table.Th>Location</Table.Th>
              <Table.Th ta="right">Quantity</Table.Th>
              <Table.Th ta="right">Reserved</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {r.handlingUnits.map((u) => (
              <Table.Tr key={u.id} data-testid={`unit-${u.kind}`}>
                <Table.Td
                  style={{
                    paddingLeft: `calc(var(--mantine-spacing-sm) + ${(depth.get(u.id) ?? 0) * 1.25}rem)`,
                  }}
                >
                  <Badge color={HANDLING_UNIT_KIND_COLORS[u.kind]} variant="light" size="sm">
                    {HANDLING_UNIT_KIND_LABELS[u.kind]}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {u.sscc ? formatSscc(u.sscc) : (u.reference ?? '—')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {u.location}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatQuantity(u.quantity, r.unit)}</Table.Td>
                <Table.Td ta="right">{u.parentId ? '' : formatQuantity(u.quantityReserved, r.unit)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function unitName(m: StockMovement): string | null {
  if (!m.handlingUnit) return null;
  const u = m.handlingUnit;
  return `${HANDLING_UNIT_KIND_LABELS[u.kind]} ${u.sscc ? formatSscc(u.sscc) : (u.reference ?? '')}`.trim();
}

function fromTo(m: StockMovement): string {
  if (m.fromLocation && m.toLocation && m.fromLocation !== m.toLocation)
    return `${m.fromLocation} → ${m.toLocation}`;
  return m.toLocation ?? m.fromLocation ?? '—';
}

/** The record's movements, newest first (the API's order). */
function Movements({ r }: { r: StockRecord }) {
  const movements = useQuery(stockMovementsOptions(r.id, { pageSize: 200 }));
  if (movements.isPending) return <Loader size="sm" aria-label="Loading movements" />;
  if (movements.error)
    return (
      <Alert color="red" variant="light" title="The movements could not be loaded">
        {problemMessage(movements.error)}
      </Alert>
    );
  const items = movements.data.items;
  if (!items.length) return <Text c="dimmed">No movements yet.</Text>;
  return (
    <Table striped withTableBorder data-testid="movements-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th w={120}>Kind</Table.Th>
          <Table.Th ta="right">Quantity</Table.Th>
          <Table.Th>Unit</Table.Th>
          <Table.Th>From → to</Table.Th>
          <Table.Th>Reason / shipment</Table.Th>
          <Table.Th>By</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((m) => (
          <Table.Tr key={m.id} data-testid={`movement-${m.kind}`}>
            <Table.Td>{formatDateTime(m.at)}</Table.Td>
            <Table.Td>
              <Badge
                color={MOVEMENT_KIND_COLORS[m.kind]}
                variant="light"
                size="sm"
                style={{ overflow: 'visible' }}
              >
                {MOVEMENT_KIND_LABELS[m.kind]}
              </Badge>
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {m.kind === 'transfer' ? '—' : formatSignedQuantity(m.quantity, r.unit)}
            </Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace">
                {unitName(m) ?? 'Whole record'}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {fromTo(m)}
              </Text>
            </Table.Td>
            <Table.Td>
              {m.shipment ? (
                <Anchor component={Link} to={pathFor('shipment', { id: m.shipment.number })} size="sm">
                  {m.shipment.number}
                </Anchor>
              ) : (
                (m.reason ?? '—')
              )}
            </Table.Td>
            <Table.Td>{m.by?.name ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface StockDetailProps {
  id: string;
  role: Role | undefined;
}

/**
 * /stock/$id: one stock record — its facts, handling units, movements, documents and history. Staff
 * with warehouse access transfer it (or one unit) and adjust it with a reason; customers read their
 * own party's stock without the internal notes. Changes by others arrive live (hub kind 'stock').
 */
export function StockDetail({ id, role }: StockDetailProps): ReactNode {
  const { record: r, staff, waiting } = useRecordScreen(stockOptions(id), { id, role }, 'stock-item');
  const [dialog, setDialog] = useState<'transfer' | 'adjust' | null>(null);
  if (!r) return waiting;
  const can = (action: StockRecord['allowedActions'][number]) => staff && r.allowedActions.includes(action);
  const tabs: DetailTab[] = [
    { value: 'details', label: 'Details', content: <Facts r={r} staff={staff} /> },
    {
      value: 'units',
      label: 'Handling units',
      badge: r.handlingUnits.length || undefined,
      content: <Units r={r} />,
    },
    { value: 'movements', label: 'Movements', content: <Movements r={r} /> },
    { value: 'documents', label: 'Documents', content: <DocumentsTab recordType="stock" recordId={r.id} /> },
    ...(staff
      ? [
          {
            value: 'history',
            label: 'History',
            content: (
              <RecordHistory
                query={stockHistoryOptions(r.id)}
                fieldLabels={STOCK_FIELD_LABELS}
                valueLabels={{ customsStatus: CUSTOMS_STATUS_LABELS }}
              />
            ),
          },
        ]
      : []),
  ];
  const actions = (
    <>
      {can('transfer') && (
        <Button
          variant="light"
          leftSection={<IconArrowsTransferUp size={16} aria-hidden />}
          onClick={() => setDialog('transfer')}
          data-testid="transfer-stock"
        >
          Transfer…
        </Button>
      )}
      {can('adjust') && (
        <Button
          variant="light"
          leftSection={<IconPlusMinus size={16} aria-hidden />}
          onClick={() => setDialog('adjust')}
          data-testid="adjust-stock"
        >
          Adjust…
        </Button>
      )}
    </>
  );
  return (
    <>
      <DetailLayout
        route="stock-item"
        recordId={r.sku}
        tabTitleName={stockRecordName(r)}
        subtitle={
          <>
            {r.description} · {r.owner.name}
          </>
        }
        status={<CustomsStatusBadge status={r.customsStatus} size="lg" />}
        actions={actions}
        tabs={tabs}
        side={<Side r={r} />}
      />
      {staff && (
        <>
          <TransferDialog record={r} opened={dialog === 'transfer'} onClose={() => setDialog(null)} />
          <AdjustDialog record={r} opened={dialog === 'adjust'} onClose={() => setDialog(null)} />
        </>
      )}
    </>
  );
}
