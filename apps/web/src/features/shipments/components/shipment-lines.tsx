import { CUSTOMS_STATUS_LABELS, formatSscc, quantityWithUnit, type ShipmentLine } from '@fvg/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { ALLOCATION_STATE_COLORS, ALLOCATION_STATE_LABELS } from '../api/shipment-meta.ts';

/** With the article's unit; a draft's line of an article not in stock has none yet. */
const qty = (quantity: number, unit: ShipmentLine['unit']) =>
  unit ? quantityWithUnit(formatNumber(quantity), unit) : formatNumber(quantity);

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** Confirms picks while the shipment is being picked (staff); absent, the states are read only. */
export interface PickControl {
  onPick: (allocationIds: string[], picked: boolean) => void;
  /** A confirmation is on its way: the boxes wait for it. */
  pending: boolean;
}

/** Which stock records and handling units one line takes, oldest receipt first (the server's FIFO order). */
export function AllocationsTable({
  line,
  picking,
}: {
  line: ShipmentLine;
  picking?: PickControl | undefined;
}) {
  if (line.allocations.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid="allocations-empty">
        Nothing reserved yet: the stock is taken when the shipment is released, oldest receipts first.
      </Text>
    );
  return (
    <Table withTableBorder striped fz="sm" data-testid="allocations">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Receipt</Table.Th>
          <Table.Th>Customs status</Table.Th>
          <Table.Th>Handling unit</Table.Th>
          <Table.Th>Location</Table.Th>
          <Table.Th ta="right">Quantity</Table.Th>
          <Table.Th>State</Table.Th>
          {picking && <Table.Th>Picked</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {line.allocations.map((a, i) => (
          <Table.Tr key={a.id} data-testid={`allocation-${i}`}>
            {/* The receipt with its date: the date is what first-in first-out goes by. */}
            <Table.Td style={NOWRAP}>
              <Anchor
                component={Link}
                to={pathFor('stock-item', { id: a.stockRecordId })}
                ff="monospace"
                size="sm"
              >
                {a.receiptNumber}
              </Anchor>
              <Text size="xs" c="dimmed" data-testid="allocation-received">
                received {formatDate(a.receivedOn)}
              </Text>
            </Table.Td>
            <Table.Td>{CUSTOMS_STATUS_LABELS[a.customsStatus]}</Table.Td>
            <Table.Td style={NOWRAP}>
              {a.handlingUnit ? (
                a.handlingUnit.sscc ? (
                  <Code data-testid="allocation-sscc">{formatSscc(a.handlingUnit.sscc)}</Code>
                ) : (
                  (a.handlingUnit.reference ?? 'Unit without SSCC')
                )
              ) : (
                'Loose stock'
              )}
            </Table.Td>
            <Table.Td ff="monospace" style={NOWRAP}>
              {a.location}
            </Table.Td>
            <Table.Td ta="right" style={NOWRAP} data-testid="allocation-quantity">
              {qty(a.quantity, line.unit)}
            </Table.Td>
            <Table.Td style={NOWRAP}>
              <StatusBadge
                status={a.state}
                colors={ALLOCATION_STATE_COLORS}
                labels={ALLOCATION_STATE_LABELS}
                size="xs"
                testId="allocation-state"
              />
            </Table.Td>
            {picking && (
              <Table.Td>
                <Checkbox
                  checked={a.state === 'picked'}
                  disabled={picking.pending}
                  onChange={(event) => picking.onPick([a.id], event.currentTarget.checked)}
                  aria-label={`Picked: ${qty(a.quantity, line.unit)} from ${a.location}`}
                  data-testid={`pick-${i}`}
                />
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface ShipmentLinesProps {
  lines: readonly ShipmentLine[];
  /** Why a line was refused (a release short of stock), by line index. */
  lineErrors?: Readonly<Record<number, string>>;
  /** While picking, staff confirm each allocation picked (issue 27 item 6). */
  picking?: PickControl | undefined;
}

/** "3 of 5 picked" while a line is being picked. */
function pickedCount(line: ShipmentLine): string {
  const open = line.allocations.filter((a) => a.state === 'reserved' || a.state === 'picked');
  return `${open.filter((a) => a.state === 'picked').length} of ${open.length} picked`;
}

/** The lines as they ship: article, quantity, and under each the stock it takes. */
export function ShipmentLines({ lines, lineErrors = {}, picking }: ShipmentLinesProps) {
  return (
    <Stack gap="md" data-testid="shipment-lines">
      {lines.map((line, index) => (
        <Paper key={line.id} withBorder p="sm" radius="md" data-testid={`line-${index + 1}`}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="sm" wrap="nowrap">
                <Badge variant="default" radius="sm">
                  {index + 1}
                </Badge>
                <Text fw={600} ff="monospace">
                  {line.sku}
                </Text>
                {line.description && <Text size="sm">{line.description}</Text>}
              </Group>
              <Group gap="sm">
                {line.stockRecordId && (
                  <Text size="sm" c="dimmed">
                    from one{' '}
                    <Anchor component={Link} to={pathFor('stock-item', { id: line.stockRecordId })} size="sm">
                      stock record
                    </Anchor>
                  </Text>
                )}
                <Text fw={600} data-testid="line-quantity">
                  {qty(line.quantity, line.unit)}
                </Text>
                {picking && (
                  <>
                    <Text size="sm" c="dimmed" data-testid={`line-picked-${index + 1}`}>
                      {pickedCount(line)}
                    </Text>
                    {line.allocations.some((a) => a.state === 'reserved') && (
                      <Button
                        size="xs"
                        variant="default"
                        disabled={picking.pending}
                        onClick={() =>
                          picking.onPick(
                            line.allocations.filter((a) => a.state === 'reserved').map((a) => a.id),
                            true,
                          )
                        }
                        data-testid={`pick-line-${index + 1}`}
                      >
                        All picked
                      </Button>
                    )}
                  </>
                )}
              </Group>
            </Group>
            {lineErrors[index] && (
              <Alert color="red" variant="light" p="xs" data-testid={`line-error-${index + 1}`}>
                {lineErrors[index]}
              </Alert>
            )}
            <AllocationsTable line={line} picking={picking} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
