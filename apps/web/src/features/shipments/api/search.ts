import { SHIPMENT_SORT_FIELDS, SHIPMENT_STATUSES } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../../components/records/list-search.ts';

/**
 * URL state of /shipments: paging, order, search and the filters (named as the API names them:
 * `reference` is a shipment number or customer reference prefix, `from`/`to` the planned dates,
 * `sku` an article number prefix).
 */
export const shipmentsSearchSchema = z.object({
  ...listSearchShape(SHIPMENT_SORT_FIELDS),
  status: searchParam.enumList(SHIPMENT_STATUSES),
  ownerId: searchParam.uuid,
  sku: searchParam.text(40),
  reference: searchParam.text(50),
  from: searchParam.date,
  to: searchParam.date,
});
export type ShipmentsSearch = z.infer<typeof shipmentsSearchSchema>;

/** URL state of /shipments/$id: the tab (`tab=history`). */
export const shipmentSearchSchema = z.object({ ...detailSearchShape });
export type ShipmentSearch = z.infer<typeof shipmentSearchSchema>;

/** URL state of /shipments/new/edit: `stock=<id>` starts the draft with a line from that stock record. */
export const shipmentEditSearchSchema = z.object({ stock: searchParam.uuid });
export type ShipmentEditSearch = z.infer<typeof shipmentEditSearchSchema>;

export const validateShipmentsSearch = searchValidator(shipmentsSearchSchema);
export const validateShipmentSearch = searchValidator(shipmentSearchSchema);
export const validateShipmentEditSearch = searchValidator(shipmentEditSearchSchema);
