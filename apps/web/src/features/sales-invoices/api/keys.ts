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
