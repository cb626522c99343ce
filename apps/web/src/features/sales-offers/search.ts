import { DOSSIER_MODES, OFFER_SORT_FIELDS, OFFER_STATUSES } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../components/records/list-search.ts';

/**
 * URL state of /sales-offers: paging, order, search and the filters (named as the API names them);
 * `open=<id>` shows one offer in a dialog over the list (`tab=history` its history), `new=1` the
 * create form (staff).
 */
export const salesOffersSearchSchema = z.object({
  ...listSearchShape(OFFER_SORT_FIELDS),
  status: searchParam.enumList(OFFER_STATUSES),
  customerId: searchParam.uuid,
  validFrom: searchParam.date,
  validTo: searchParam.date,
  mode: searchParam.enum(DOSSIER_MODES),
  open: searchParam.text(64),
  ...detailSearchShape,
  new: searchParam.flag,
});
export type SalesOffersSearch = z.infer<typeof salesOffersSearchSchema>;

export const validateSalesOffersSearch = searchValidator(salesOffersSearchSchema);
