import {
  CUSTOMS_STATUS_LABELS,
  HANDLING_UNIT_KIND_LABELS,
  type HandlingUnitNode,
  type StockTree,
} from '@fvg/contracts';
import { Anchor, Badge, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useTabTitle } from '../../../components/records/use-tab-title.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { routeTitle } from '../../../lib/route-text.ts';
import { pageTitle } from '../../../lib/title.ts';
import { CUSTOMS_STATUS_COLORS, formatQuantity, stockRecordName } from '../api/stock-meta.ts';
import { HandlingUnitTree, unitName } from './handling-unit-tree.tsx';
import { PalletLabelSheet } from './pallet-labels.tsx';
import classes from './stock-tree.module.css';
import { findNode, palletsOf, parentIds } from './tree-model.ts';
import { UnitMovements } from './unit-movements.tsx';

/** Which labels the sheet holds: all pallets, or the one whose "Print label" was pressed. */
type LabelChoice = { kind: 'all' } | { kind: 'one'; id: string };

export function StockTreeScreenBody({ tree }: { tree: StockTree }) {
  const { stock, units } = tree;
  // Named by its SKU and receipt, never by the id its address carries (issue 27 item 1).
  useTabTitle(pageTitle(routeTitle('stock-tree'), { id: stockRecordName(stock) }));
  // Pallets open at first: their cartons are what people look for; deeper levels on demand.
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(palletsOf(units).map((u) => u.id)));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [labels, setLabels] = useState<LabelChoice>({ kind: 'all' });
  const [printRequest, setPrintRequest] = useState(0);

  const pallets = useMemo(() => palletsOf(units).filter((p) => p.sscc), [units]);
  const allParents = useMemo(() => parentIds(units), [units]);
  const selected: HandlingUnitNode | undefined = selectedId ? findNode(units, selectedId) : undefined;
  const sheetPallets = labels.kind === 'all' ? pallets : pallets.filter((p) => p.id === labels.id);

  // Print once the sheet holds the chosen labels (the render after the state change).
  useEffect(() => {
    if (printRequest > 0) window.print();
  }, [printRequest]);

  const print = (choice: LabelChoice) => {
    setLabels(choice);
    setPrintRequest((n) => n + 1);
  };

  const qty = (n: number) => formatQuantity(n, stock.unit);

  return (
    <Stack gap="md" data-testid="stock-tree">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 320px' }}>
          <Group gap="sm" wrap="nowrap">
            <Title order={1} size="h2" ff="monospace" data-testid="stock-tree-sku">
              {stock.sku}
            </Title>
            <Badge
              color={CUSTOMS_STATUS_COLORS[stock.customsStatus]}
              variant="light"
              data-testid="stock-tree-status"
            >
              {CUSTOMS_STATUS_LABELS[stock.customsStatus]}
            </Badge>
          </Group>
          <Text c="dimmed" lineClamp={2}>
            {stock.description}
          </Text>
        </Stack>
        <Group gap="sm">
          <Button
            component={Link}
            to={pathFor('stock-item', { id: stock.id })}
            variant="default"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
            data-testid="stock-tree-back"
          >
            Back to the stock record
          </Button>
          <Button
            leftSection={<IconPrinter size={16} aria-hidden />}
            onClick={() => print({ kind: 'all' })}
            disabled={pallets.length === 0}
            data-testid="print-all-labels"
          >
            {pallets.length === 1 ? 'Print the pallet label' : `Print all pallet labels (${pallets.length})`}
          </Button>
        </Group>
      </Group>

      <Paper withBorder p="sm" radius="md">
        <div className={classes.facts} data-testid="stock-tree-facts">
          <Fact label="Owner" value={stock.owner.name} />
          <Fact label="Receipt" value={stock.receipt.number} />
          <Fact label="Received" value={formatDate(stock.receivedOn)} />
          <Fact label="On hand" value={qty(stock.quantityOnHand)} testId="fact-on-hand" />
          <Fact label="Reserved" value={qty(stock.quantityReserved)} testId="fact-reserved" />
          <Fact label="Available" value={qty(stock.quantityAvailable)} testId="fact-available" />
          <Fact
            label="Location"
            value={
              stock.locationCount > 1
                ? `${stock.location} (+${stock.locationCount - 1} more)`
                : stock.location
            }
          />
          {stock.inboundMrn && <Fact label="Inbound MRN" value={stock.inboundMrn} mono />}
        </div>
      </Paper>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="sm" radius="md">
            <Group justify="space-between" mb="xs" wrap="nowrap">
              <Title order={2} size="h4">
                Handling units
              </Title>
              <Group gap={4} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => setExpanded(new Set(allParents))}
                  disabled={allParents.length === 0}
                  data-testid="tree-expand-all"
                >
                  Expand all
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => setExpanded(new Set())}
                  disabled={allParents.length === 0}
                  data-testid="tree-collapse-all"
                >
                  Collapse all
                </Button>
              </Group>
            </Group>
            {units.length === 0 ? (
              <Text size="sm" c="dimmed" data-testid="hu-tree-empty">
                This stock is held loose, without pallets or cartons.
              </Text>
            ) : (
              <HandlingUnitTree
                units={units}
                unit={stock.unit}
                expanded={expanded}
                onExpandedChange={setExpanded}
                selectedId={selectedId}
                onSelect={setSelectedId}
                onPrintLabel={(palletId) => print({ kind: 'one', id: palletId })}
              />
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="sm" radius="md" data-testid="hu-detail">
            {selected ? (
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <div style={{ minWidth: 0 }}>
                    <Title order={2} size="h4" data-testid="hu-detail-title">
                      Movements
                    </Title>
                    <Text size="sm" data-testid="hu-detail-name">
                      {HANDLING_UNIT_KIND_LABELS[selected.kind]}{' '}
                      <Text span size="sm" ff={selected.sscc ? 'monospace' : undefined}>
                        {unitName(selected) || 'without reference'}
                      </Text>
                    </Text>
                  </div>
                  {selected.kind === 'pallet' && selected.sscc && (
                    <Button
                      size="compact-sm"
                      variant="default"
                      style={{ flexShrink: 0 }}
                      leftSection={<IconPrinter size={14} aria-hidden />}
                      onClick={() => print({ kind: 'one', id: selected.id })}
                      data-testid="hu-detail-print"
                    >
                      Print label
                    </Button>
                  )}
                </Group>
                <UnitMovements movements={selected.movements} unit={stock.unit} />
              </Stack>
            ) : (
              <Stack gap="xs">
                <Title order={2} size="h4">
                  Movements of the record
                </Title>
                <Text size="sm" c="dimmed">
                  Select a handling unit to see its own movements.
                </Text>
                {tree.movements.length > 0 && (
                  <UnitMovements movements={tree.movements} unit={stock.unit} testId="record-movements" />
                )}
              </Stack>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
      <Text size="sm">
        <Anchor component={Link} to={pathFor('stock')}>
          All stock
        </Anchor>
      </Text>
      <PalletLabelSheet stock={stock} pallets={sheetPallets} />
    </Stack>
  );
}

function Fact({
  label,
  value,
  mono,
  testId,
}: {
  label: string;
  value: string;
  mono?: boolean;
  testId?: string;
}) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} ff={mono ? 'monospace' : undefined} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
