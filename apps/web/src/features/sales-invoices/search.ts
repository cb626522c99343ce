import { INVOICE_KINDS, INVOICE_SORT_FIELDS, INVOICE_STATUSES } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../components/records/list-search.ts';

/**
 * URL state of /sales-invoices: paging, order, search and the filters (named as the API names them);
 * `new=1` opens the new-invoice form.
 */
export const invoicesSearchSchema = z.object({
  ...listSearchShape(INVOICE_SORT_FIELDS),
  status: searchParam.enumList(INVOICE_STATUSES),
  kind: searchParam.enum(INVOICE_KINDS),
  customerId: searchParam.uuid,
  dossierId: searchParam.uuid,
  issuedFrom: searchParam.date,
  issuedTo: searchParam.date,
  overdue: searchParam.enum(['true'] as const),
  new: searchParam.flag,
});
export type InvoicesSearch = z.infer<typeof invoicesSearchSchema>;

/** URL state of /sales-invoices/$id: the tab (`tab=payments`). */
export const invoiceSearchSchema = z.object({ ...detailSearchShape });
export type InvoiceSearch = z.infer<typeof invoiceSearchSchema>;

export const validateInvoicesSearch = searchValidator(invoicesSearchSchema);
export const validateInvoiceSearch = searchValidator(invoiceSearchSchema);
