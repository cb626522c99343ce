import {
  type AuditEntry,
  auditEntrySchema,
  listResponseSchema,
  type SalesInvoice,
  type SalesInvoiceCreate,
  type SalesInvoiceUpdate,
  salesInvoiceListItemSchema,
  salesInvoiceSchema,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { api, apiBlob, apiRequest } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { invoiceKeys } from './keys.ts';

const historySchema = z.array(auditEntrySchema);
const salesInvoiceListSchema = listResponseSchema(salesInvoiceListItemSchema);

const path = (idOrNumber: string) => `sales-invoices/${encodeURIComponent(idOrNumber)}`;

export function fetchInvoiceList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery('sales-invoices', params), {
    ...(signal ? { signal } : {}),
    schema: salesInvoiceListSchema,
  });
}

export function invoiceListOptions(params: ListParams) {
  return queryOptions({
    queryKey: invoiceKeys.list(params),
    queryFn: ({ signal }) => fetchInvoiceList(params, signal),
  });
}

export function invoiceOptions(idOrNumber: string) {
  return queryOptions({
    queryKey: invoiceKeys.detail(idOrNumber),
    queryFn: ({ signal }) => api.get(path(idOrNumber), { signal, schema: salesInvoiceSchema }),
  });
}

export function invoiceHistoryOptions(idOrNumber: string) {
  return queryOptions({
    queryKey: invoiceKeys.history(idOrNumber),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(idOrNumber)}/history`, { signal, schema: historySchema }),
  });
}

/**
 * The PDF's bytes for the preview. An issued invoice's PDF never changes (it is stored at issue), a
 * draft's follows its version; dropped soon after the preview closes.
 */
export function invoicePdfOptions(invoice: Pick<SalesInvoice, 'id' | 'version'>) {
  return queryOptions({
    queryKey: invoiceKeys.pdf(invoice.id, invoice.version),
    queryFn: async ({ signal }) => (await apiBlob(`${path(invoice.id)}/pdf`, { signal })).blob,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30_000,
  });
}

const fileBase = (invoice: Pick<SalesInvoice, 'number' | 'kind'>) =>
  invoice.number ?? (invoice.kind === 'credit_note' ? 'credit-note-draft' : 'invoice-draft');

/** Saves the PDF or the UBL e-invoice through the browser; the server names the file. */
export function downloadInvoicePdf(invoice: Pick<SalesInvoice, 'id' | 'number' | 'kind'>) {
  return downloadFile(`${path(invoice.id)}/pdf`, {}, `${fileBase(invoice)}.pdf`);
}
export function downloadInvoiceUbl(invoice: Pick<SalesInvoice, 'id' | 'number' | 'kind'>) {
  return downloadFile(`${path(invoice.id)}/ubl`, {}, `${fileBase(invoice)}.xml`);
}

/** After a change: the detail under the keys the screens use (id and number), fresh lists and history. */
export function storeInvoice(queryClient: QueryClient, invoice: SalesInvoice, key?: string) {
  for (const k of new Set([key ?? invoice.id, invoice.id, ...(invoice.number ? [invoice.number] : [])])) {
    queryClient.setQueryData(invoiceKeys.detail(k), invoice);
    void queryClient.invalidateQueries({ queryKey: invoiceKeys.history(k) });
  }
  void queryClient.invalidateQueries({ queryKey: invoiceKeys.lists() });
  // Issuing marks the dossier's revenue charges as invoiced: its screen reads them again.
  void queryClient.invalidateQueries({ queryKey: ['dossiers'] });
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SalesInvoiceCreate) =>
      api.post('sales-invoices', body, { schema: salesInvoiceSchema }),
    onSuccess: (invoice) => storeInvoice(queryClient, invoice),
  });
}

export function useUpdateInvoice(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SalesInvoiceUpdate }) =>
      api.patch(path(id), body, { schema: salesInvoiceSchema }),
    onSuccess: (invoice) => storeInvoice(queryClient, invoice, key),
  });
}

export function useDeleteInvoice(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(path(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: invoiceKeys.detail(key) });
      void queryClient.invalidateQueries({ queryKey: invoiceKeys.lists() });
    },
  });
}

export function useIssueInvoice(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: { version: number; issueDate?: string } }) =>
      api.post(`${path(id)}/issue`, body, { schema: salesInvoiceSchema }),
    onSuccess: (invoice) => storeInvoice(queryClient, invoice, key),
  });
}

/** A credit note of the invoice (all that is still creditable, or the chosen lines): a new draft. */
export function useCreateCreditNote(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      body,
    }: {
      id: string;
      body: { version: number; lines?: { lineId: string; quantity: string }[] };
    }) => api.post(`${path(id)}/credit-notes`, body, { schema: salesInvoiceSchema }),
    onSuccess: (creditNote) => {
      storeInvoice(queryClient, creditNote);
      void queryClient.invalidateQueries({ queryKey: invoiceKeys.detail(key) });
    },
  });
}

export function useRecordPayment(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      body,
    }: {
      id: string;
      body: { paidOn: string; amount: string; reference?: string | null };
    }) => api.post(`${path(id)}/payments`, body, { schema: salesInvoiceSchema }),
    onSuccess: (invoice) => storeInvoice(queryClient, invoice, key),
  });
}

export function useRemovePayment(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, paymentId, reason }: { id: string; paymentId: string; reason: string }) =>
      apiRequest(`${path(id)}/payments/${encodeURIComponent(paymentId)}`, {
        method: 'DELETE',
        body: { reason },
        schema: salesInvoiceSchema,
      }),
    onSuccess: (invoice) => storeInvoice(queryClient, invoice, key),
  });
}
