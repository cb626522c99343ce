import { MOVEMENT_KIND_LABELS, type StockMovement, type StockUnit } from '@fvg/contracts';
import { Anchor, Badge, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { formatSignedQuantity, MOVEMENT_KIND_COLORS } from '../api/stock-meta.ts';
import classes from './stock-tree.module.css';

function fromTo(m: StockMovement): string {
  if (m.fromLocation && m.toLocation && m.fromLocation !== m.toLocation)
    return `${m.fromLocation} → ${m.toLocation}`;
  return m.toLocation ?? m.fromLocation ?? '';
}

/**
 * The movements of one handling unit (or of the record as a whole), newest first, two lines each so
 * they fit the side column: what and how much, when; then where, why or for which shipment, by whom.
 */
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
    <ol className={classes.movements} data-testid={testId} aria-label="Movements, newest first">
      {rows.map((m) => (
        <li key={m.id} className={classes.movement} data-testid="hu-movement" data-kind={m.kind}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Badge variant="light" size="sm" color={MOVEMENT_KIND_COLORS[m.kind]}>
                {MOVEMENT_KIND_LABELS[m.kind]}
              </Badge>
              <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="hu-movement-quantity">
                {formatSignedQuantity(m.quantity, unit)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(m.at)}
            </Text>
          </Group>
          <Text size="sm" mt={2}>
            <Text span ff="monospace" size="sm">
              {fromTo(m) || '—'}
            </Text>
            {m.shipment && (
              <>
                {' · '}
                <Anchor component={Link} to={pathFor('shipment', { id: m.shipment.number })} size="sm">
                  {m.shipment.number}
                </Anchor>
              </>
            )}
            {m.reason && ` · ${m.reason}`}
            <Text span c="dimmed" size="sm">
              {' · '}by {m.by?.name ?? 'the system'}
            </Text>
          </Text>
        </li>
      ))}
    </ol>
  );
}
