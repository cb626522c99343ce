import { MOVEMENT_KIND_LABELS, type StockMovement, type StockUnit } from '@fvg/contracts';
import { Anchor, Table, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { pathFor } from '../../../app/route-table.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { formatSignedQuantity } from '../api/stock-meta.ts';

function fromTo(m: StockMovement): string {
  if (m.fromLocation && m.toLocation && m.fromLocation !== m.toLocation)
    return `${m.fromLocation} → ${m.toLocation}`;
  return m.toLocation ?? m.fromLocation ?? '';
}

/** The movements of one handling unit (or of the record as a whole), newest first. */
export function UnitMovements({
  movements,
  unit,
  testId = 'hu-movements',
}: {
  movements: readonly StockMovement[];
  unit: StockUnit;
  testId?: string;
}) {
  if (movements.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid={`${testId}-empty`}>
        No movements recorded for this unit.
      </Text>
    );
  }
  const rows = [...movements].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder fz="sm" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Movement</Table.Th>
            <Table.Th ta="right">Quantity</Table.Th>
            <Table.Th>From → to</Table.Th>
            <Table.Th>Reason / shipment</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>When</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((m) => (
            <Table.Tr key={m.id} data-testid="hu-movement" data-kind={m.kind}>
              <Table.Td>{MOVEMENT_KIND_LABELS[m.kind]}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="hu-movement-quantity">
                {formatSignedQuantity(m.quantity, unit)}
              </Table.Td>
              <Table.Td ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {fromTo(m) || '—'}
              </Table.Td>
              <Table.Td>
                {m.shipment ? (
                  <Anchor component={Link} to={pathFor('shipment', { id: m.shipment.id })} size="sm">
                    {m.shipment.number}
                  </Anchor>
                ) : (
                  (m.reason ?? '—')
                )}
              </Table.Td>
              <Table.Td>{m.by?.name ?? 'System'}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
