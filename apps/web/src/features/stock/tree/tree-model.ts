import type { HandlingUnitNode } from '@fvg/contracts';

/** A node of the tree as drawn: its depth and whether it has children to open. */
export interface VisibleNode {
  node: HandlingUnitNode;
  level: number;
  parentId: string | null;
  hasChildren: boolean;
  expanded: boolean;
}

/** The rows on screen, depth first: children only under expanded parents. */
export function visibleNodes(
  units: readonly HandlingUnitNode[],
  expanded: ReadonlySet<string>,
): VisibleNode[] {
  const out: VisibleNode[] = [];
  const walk = (nodes: readonly HandlingUnitNode[], level: number, parentId: string | null) => {
    for (const node of nodes) {
      const hasChildren = node.children.length > 0;
      const open = hasChildren && expanded.has(node.id);
      out.push({ node, level, parentId, hasChildren, expanded: open });
      if (open) walk(node.children, level + 1, node.id);
    }
  };
  walk(units, 1, null);
  return out;
}

/** Every node that has children ("Expand all"). */
export function parentIds(units: readonly HandlingUnitNode[]): string[] {
  const out: string[] = [];
  const walk = (nodes: readonly HandlingUnitNode[]) => {
    for (const node of nodes) {
      if (node.children.length > 0) {
        out.push(node.id);
        walk(node.children);
      }
    }
  };
  walk(units);
  return out;
}

export function findNode(units: readonly HandlingUnitNode[], id: string): HandlingUnitNode | undefined {
  for (const node of units) {
    if (node.id === id) return node;
    const below = findNode(node.children, id);
    if (below) return below;
  }
  return undefined;
}

/** The pallets of the tree (root units of kind pallet), the ones that get a label. */
export function palletsOf(units: readonly HandlingUnitNode[]): HandlingUnitNode[] {
  return units.filter((u) => u.kind === 'pallet');
}
