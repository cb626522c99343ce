import { formatSscc, HANDLING_UNIT_KIND_LABELS, type HandlingUnitNode, type StockUnit } from '@fvg/contracts';
import { ActionIcon, Badge, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPrinter } from '@tabler/icons-react';
import { type KeyboardEvent, useMemo, useRef } from 'react';
import { formatNumber } from '../../../lib/format.ts';
import { formatQuantity, HANDLING_UNIT_KIND_COLORS } from '../api/stock-meta.ts';
import classes from './stock-tree.module.css';
import { type VisibleNode, visibleNodes } from './tree-model.ts';

export interface HandlingUnitTreeProps {
  units: readonly HandlingUnitNode[];
  unit: StockUnit;
  expanded: ReadonlySet<string>;
  onExpandedChange: (next: Set<string>) => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onPrintLabel: (id: string) => void;
}

/** What names a unit on screen: the SSCC in its printed form, else the reference. */
export function unitName(node: Pick<HandlingUnitNode, 'sscc' | 'reference'>): string {
  if (node.sscc) return formatSscc(node.sscc);
  return node.reference ?? '';
}

/**
 * The handling units as a WAI-ARIA tree: one tab stop (the selected row), arrows move and open/close,
 * Enter and Space select and toggle, Home/End jump. Rows are plain buttons so a screen reader reads
 * the kind, name, quantity and location as one sentence.
 */
export function HandlingUnitTree({
  units,
  unit,
  expanded,
  onExpandedChange,
  selectedId,
  onSelect,
  onPrintLabel,
}: HandlingUnitTreeProps) {
  const rows = useMemo(() => visibleNodes(units, expanded), [units, expanded]);
  const refs = useRef(new Map<string, HTMLElement>());
  const focusId = rows.some((r) => r.node.id === selectedId) ? selectedId : (rows[0]?.node.id ?? null);

  const setOpen = (id: string, open: boolean) => {
    const next = new Set(expanded);
    if (open) next.add(id);
    else next.delete(id);
    onExpandedChange(next);
  };
  const moveTo = (row: VisibleNode | undefined) => {
    if (!row) return;
    onSelect(row.node.id);
    refs.current.get(row.node.id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const row = rows[index] as VisibleNode;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(rows[index + 1]);
        break;
      case 'ArrowUp':
        moveTo(rows[index - 1]);
        break;
      case 'Home':
        moveTo(rows[0]);
        break;
      case 'End':
        moveTo(rows[rows.length - 1]);
        break;
      case 'ArrowRight':
        if (row.hasChildren && !row.expanded) setOpen(row.node.id, true);
        else if (row.expanded) moveTo(rows[index + 1]);
        break;
      case 'ArrowLeft':
        if (row.expanded) setOpen(row.node.id, false);
        else moveTo(rows.find((r) => r.node.id === row.parentId));
        break;
      case 'Enter':
      case ' ':
        onSelect(row.node.id);
        if (row.hasChildren) setOpen(row.node.id, !row.expanded);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div role="tree" aria-label="Handling units" className={classes.tree} data-testid="hu-tree">
      {rows.map((row, index) => {
        const { node } = row;
        const selected = node.id === selectedId;
        const name = unitName(node);
        return (
          <div
            key={node.id}
            role="treeitem"
            aria-level={row.level}
            aria-expanded={row.hasChildren ? row.expanded : undefined}
            aria-selected={selected}
            // Named by what it shows (kind, reference, quantity, location): a separate label said the same
            // words with commas, which WCAG 2.5.3 counts as a name that differs from the visible label.
            tabIndex={node.id === focusId ? 0 : -1}
            ref={(el) => {
              if (el) refs.current.set(node.id, el);
              else refs.current.delete(node.id);
            }}
            className={classes.row}
            data-selected={selected || undefined}
            style={{ paddingInlineStart: `calc(${row.level - 1} * 1.5rem + 0.25rem)` }}
            onKeyDown={(e) => onKeyDown(e, index)}
            onClick={() => onSelect(node.id)}
            data-testid={`hu-node-${node.id}`}
            data-kind={node.kind}
          >
            {row.hasChildren ? (
              <ActionIcon
                variant="subtle"
                size="sm"
                tabIndex={-1}
                aria-hidden
                onClick={(e) => {
                  e.stopPropagation();
                  setOpen(node.id, !row.expanded);
                }}
                data-testid="hu-toggle"
              >
                {row.expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
              </ActionIcon>
            ) : (
              <span className={classes.toggleSpace} />
            )}
            <div className={classes.rowMain}>
              <Badge
                variant="light"
                size="sm"
                color={HANDLING_UNIT_KIND_COLORS[node.kind]}
                className={classes.kind}
              >
                {HANDLING_UNIT_KIND_LABELS[node.kind]}
              </Badge>
              <Text
                size="sm"
                ff={node.sscc ? 'monospace' : undefined}
                className={classes.name}
                truncate="end"
              >
                {name || (
                  <Text span c="dimmed" size="sm">
                    No reference
                  </Text>
                )}
              </Text>
              <div className={classes.qty}>
                <Text size="sm" data-testid="hu-quantity">
                  {formatQuantity(node.quantity, unit)}
                </Text>
                {node.quantityReserved > 0 && (
                  <Text size="xs" c="dimmed" data-testid="hu-reserved">
                    {formatNumber(node.quantityReserved)} reserved
                  </Text>
                )}
              </div>
              <Text size="sm" ff="monospace" className={classes.location} data-testid="hu-location">
                {node.location}
              </Text>
            </div>
            {node.kind === 'pallet' && node.sscc && (
              <Tooltip label="Print label" withArrow>
                <ActionIcon
                  variant="subtle"
                  size="md"
                  tabIndex={-1}
                  onClick={(e) => {
                    e.stopPropagation();
                    onPrintLabel(node.id);
                  }}
                  aria-label={`Print the label of pallet ${name}`}
                  data-testid="hu-print-label"
                >
                  <IconPrinter size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
          </div>
        );
      })}
    </div>
  );
}
