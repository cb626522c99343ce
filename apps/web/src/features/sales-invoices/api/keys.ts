import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the sales-invoices area; hooks and mutations go through these only. Details
 * are keyed by what the URL names the invoice with (its id; an issued one also by its number).
 */
export const invoiceKeys = {
  all: ['sales-invoices'] as const,
  lists: () => [...invoiceKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...invoiceKeys.lists(), params] as const,
  details: () => [...invoiceKeys.all, 'detail'] as const,
  detail: (idOrNumber: string) => [...invoiceKeys.details(), idOrNumber] as const,
  history: (idOrNumber: string) => [...invoiceKeys.detail(idOrNumber), 'history'] as const,
  pdf: (id: string, version: number) => [...invoiceKeys.detail(id), 'pdf', version] as const,
};

// Live updates (lib/live-updates.ts). A RecordChanged names the invoice by id while details are keyed
// by the number in the URL (issued ones), so `all` is the root: any invoice change (a payment, an
// issue, a credit note) refreshes the invoice queries on screen; inactive ones refetch when next used.
registerRecordKeys('sales-invoice', { all: invoiceKeys.all, detail: invoiceKeys.detail });
// A renamed party shows in the invoice lists (customer column).
registerRecordKeys('party', { all: invoiceKeys.lists(), detail: () => invoiceKeys.lists() });
