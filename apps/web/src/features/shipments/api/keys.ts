import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the shipments area; hooks and mutations go through these only. A shipment is
 * addressed by its id everywhere (the number is shown, the URL carries the id).
 */
export const shipmentKeys = {
  all: ['shipments'] as const,
  lists: () => [...shipmentKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...shipmentKeys.lists(), params] as const,
  details: () => [...shipmentKeys.all, 'detail'] as const,
  detail: (id: string) => [...shipmentKeys.details(), id] as const,
  history: (id: string) => [...shipmentKeys.detail(id), 'history'] as const,
};

// Live updates (lib/live-updates.ts): a release, pick, pack, ship or cancel by someone else arrives
// as RecordChanged of kind 'shipment' (only on connections with warehouse access); the detail key's
// prefix covers the history, so the allocations and status on screen follow without a reload.
registerRecordKeys('shipment', { all: shipmentKeys.lists(), detail: shipmentKeys.detail });
// The outbound declaration's status shows on the shipment (list column, declaration panel, ship blocker).
registerRecordKeys('declaration', { all: shipmentKeys.all, detail: () => shipmentKeys.all });
// A renamed party shows in the owner and consignee columns.
registerRecordKeys('party', { all: shipmentKeys.lists(), detail: () => shipmentKeys.lists() });
