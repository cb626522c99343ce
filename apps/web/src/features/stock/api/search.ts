import { CUSTOMS_STATUSES, STOCK_RECEIPT_SORT_FIELDS, STOCK_SORT_FIELDS } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../../components/records/list-search.ts';

/**
 * URL state of /stock: paging, order, search and the filters (named as the API names them: `sku` and
 * `location` are prefixes, `from`/`to` the received dates, `available=true` only what can still be
 * drawn); `view=receipts` shows the receipts list instead (its own sort; `reference` is a receipt
 * number or MRN prefix); `new=1` opens the receipt form.
 */
export const stockSearchSchema = z.object({
  ...listSearchShape([...new Set([...STOCK_SORT_FIELDS, ...STOCK_RECEIPT_SORT_FIELDS])]),
  view: searchParam.enum(['receipts'] as const),
  ownerId: searchParam.uuid,
  sku: searchParam.text(40),
  customsStatus: searchParam.enumList(CUSTOMS_STATUSES),
  location: searchParam.text(40),
  from: searchParam.date,
  to: searchParam.date,
  available: searchParam.enum(['true'] as const),
  onHand: searchParam.enum(['true'] as const),
  receiptId: searchParam.uuid,
  reference: searchParam.text(35),
  new: searchParam.flag,
});
export type StockSearch = z.infer<typeof stockSearchSchema>;

/** URL state of /stock/$id: the tab (`tab=movements`). */
export const stockItemSearchSchema = z.object({ ...detailSearchShape });
export type StockItemSearch = z.infer<typeof stockItemSearchSchema>;

export const validateStockSearch = searchValidator(stockSearchSchema);
export const validateStockItemSearch = searchValidator(stockItemSearchSchema);
