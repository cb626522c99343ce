import {
  type AuditEntry,
  auditEntrySchema,
  listResponseSchema,
  type StockAvailability,
  type StockMovementCreate,
  type StockReceiptCreate,
  type StockRecord,
  stockAvailabilityResponseSchema,
  stockMovementSchema,
  stockReceiptListItemSchema,
  stockReceiptSchema,
  stockRecordListItemSchema,
  stockRecordSchema,
  stockTreeSchema,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { api } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { stockKeys } from './keys.ts';

export type * from './types.ts';

const historySchema = z.array(auditEntrySchema);
const stockListSchema = listResponseSchema(stockRecordListItemSchema);
const receiptListSchema = listResponseSchema(stockReceiptListItemSchema);
const movementListSchema = listResponseSchema(stockMovementSchema);

/** The lists' API paths (the list page's export uses them with `format=`). */
export const STOCK_PATH = 'stock';
export const STOCK_RECEIPTS_PATH = 'stock-receipts';
const path = (id: string) => `${STOCK_PATH}/${encodeURIComponent(id)}`;
const receiptPath = (id: string) => `${STOCK_RECEIPTS_PATH}/${encodeURIComponent(id)}`;

// ---- stock records ----

export function fetchStockList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery(STOCK_PATH, params), { ...(signal ? { signal } : {}), schema: stockListSchema });
}

export function stockListOptions(params: ListParams) {
  return queryOptions({
    queryKey: stockKeys.list(params),
    queryFn: ({ signal }) => fetchStockList(params, signal),
  });
}

export function stockOptions(id: string) {
  return queryOptions({
    queryKey: stockKeys.detail(id),
    queryFn: ({ signal }) => api.get(path(id), { signal, schema: stockRecordSchema }),
  });
}

/** The handling-unit tree of a record with each unit's movements (the /stock/$id/tree screen). */
export function stockTreeOptions(id: string) {
  return queryOptions({
    queryKey: stockKeys.tree(id),
    queryFn: ({ signal }) => api.get(`${path(id)}/tree`, { signal, schema: stockTreeSchema }),
  });
}

/** The record's movements, newest first, one page (the API pages them like lists). */
export function stockMovementsOptions(id: string, params: { pageSize?: number; cursor?: string } = {}) {
  return queryOptions({
    queryKey: [...stockKeys.movements(id), params] as const,
    queryFn: ({ signal }) =>
      api.get(withQuery(`${path(id)}/movements`, params), { signal, schema: movementListSchema }),
  });
}

export function stockHistoryOptions(id: string) {
  return queryOptions({
    queryKey: stockKeys.history(id),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(id)}/history`, { signal, schema: historySchema }),
  });
}

/**
 * What an owner may still draw by article, SKU prefix `q` (the shipment editor's lines). Staff name the
 * owner; a customer's is their party (leave `ownerId` out).
 */
export function stockAvailabilityOptions(params: {
  ownerId?: string | undefined;
  q: string;
  limit?: number;
}) {
  const query = { ownerId: params.ownerId, q: params.q, limit: params.limit };
  return queryOptions({
    queryKey: stockKeys.availability(query),
    queryFn: async ({ signal }): Promise<StockAvailability[]> =>
      (
        await api.get(withQuery(`${STOCK_PATH}/availability`, query), {
          signal,
          schema: stockAvailabilityResponseSchema,
        })
      ).items,
  });
}

/** After a change: the record (and its tree, movements, history), the lists and availability. */
export function storeStock(queryClient: QueryClient, record: StockRecord) {
  queryClient.setQueryData(stockKeys.detail(record.id), record);
  void queryClient.invalidateQueries({ queryKey: stockKeys.tree(record.id) });
  void queryClient.invalidateQueries({ queryKey: stockKeys.movements(record.id) });
  void queryClient.invalidateQueries({ queryKey: stockKeys.history(record.id) });
  void queryClient.invalidateQueries({ queryKey: stockKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: [...stockKeys.all, 'availability'] });
}

/** A transfer or an adjustment; answers the record as it is after. */
export function usePostMovement(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StockMovementCreate) =>
      api.post(`${path(id)}/movements`, body, { schema: stockRecordSchema }),
    onSuccess: (record) => storeStock(queryClient, record),
  });
}

// ---- receipts ----

export function fetchReceiptList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery(STOCK_RECEIPTS_PATH, params), {
    ...(signal ? { signal } : {}),
    schema: receiptListSchema,
  });
}

export function receiptListOptions(params: ListParams) {
  return queryOptions({
    queryKey: stockKeys.receiptList(params),
    queryFn: ({ signal }) => fetchReceiptList(params, signal),
  });
}

export function receiptOptions(id: string) {
  return queryOptions({
    queryKey: stockKeys.receipt(id),
    queryFn: ({ signal }) => api.get(receiptPath(id), { signal, schema: stockReceiptSchema }),
  });
}

/** Receives goods: one stock record per line; the lists, availability and receipts read again. */
export function useCreateReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StockReceiptCreate) =>
      api.post(STOCK_RECEIPTS_PATH, body, { schema: stockReceiptSchema }),
    onSuccess: (receipt) => {
      queryClient.setQueryData(stockKeys.receipt(receipt.id), receipt);
      void queryClient.invalidateQueries({ queryKey: stockKeys.all });
    },
  });
}
