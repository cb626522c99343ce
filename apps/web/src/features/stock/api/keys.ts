import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the stock area (stock records and receipts); hooks and mutations go through
 * these only. A stock record and a receipt are addressed by id.
 */
export const stockKeys = {
  all: ['stock'] as const,
  lists: () => [...stockKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...stockKeys.lists(), params] as const,
  details: () => [...stockKeys.all, 'detail'] as const,
  detail: (id: string) => [...stockKeys.details(), id] as const,
  tree: (id: string) => [...stockKeys.detail(id), 'tree'] as const,
  movements: (id: string) => [...stockKeys.detail(id), 'movements'] as const,
  history: (id: string) => [...stockKeys.detail(id), 'history'] as const,
  /** What a shipment line may draw: changes with every receipt, movement and release. */
  availability: (params: QueryParams) => [...stockKeys.all, 'availability', params] as const,
  receipts: () => [...stockKeys.all, 'receipts'] as const,
  receiptList: (params: QueryParams) => [...stockKeys.receipts(), 'list', params] as const,
  receipt: (id: string) => [...stockKeys.receipts(), 'detail', id] as const,
};

// Live updates (lib/live-updates.ts): a receipt, a movement, a release, a pick or a cancel publishes
// the stock records it touched (kind 'stock'); the detail key's prefix covers the tree, movements and
// history. `all` as the root also refreshes availability and the receipts list, which any stock change
// can move.
registerRecordKeys('stock', { all: stockKeys.all, detail: stockKeys.detail });
// A renamed party shows in the stock lists (owner column).
registerRecordKeys('party', { all: stockKeys.lists(), detail: () => stockKeys.lists() });
