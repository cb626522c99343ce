import {
  type AuditEntry,
  auditEntrySchema,
  listResponseSchema,
  type OfferTransitionTarget,
  type SalesOffer,
  type salesOfferCreateSchema,
  salesOfferListItemSchema,
  salesOfferSchema,
  type salesOfferUpdateSchema,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { api, apiBlob } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { offerKeys } from './keys.ts';

const offerListSchema = listResponseSchema(salesOfferListItemSchema);
const historySchema = z.array(auditEntrySchema);

export type OfferCreateBody = z.output<typeof salesOfferCreateSchema>;
export type OfferUpdateBody = z.output<typeof salesOfferUpdateSchema>;

const path = (idOrNumber: string) => `sales-offers/${encodeURIComponent(idOrNumber)}`;

export function fetchOfferList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery('sales-offers', params), {
    ...(signal ? { signal } : {}),
    schema: offerListSchema,
  });
}

export function offerListOptions(params: ListParams) {
  return queryOptions({
    queryKey: offerKeys.list(params),
    queryFn: ({ signal }) => fetchOfferList(params, signal),
  });
}

export function offerOptions(idOrNumber: string) {
  return queryOptions({
    queryKey: offerKeys.detail(idOrNumber),
    queryFn: ({ signal }) => api.get(path(idOrNumber), { signal, schema: salesOfferSchema }),
  });
}

export function offerHistoryOptions(idOrNumber: string) {
  return queryOptions({
    queryKey: offerKeys.history(idOrNumber),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(idOrNumber)}/history`, { signal, schema: historySchema }),
  });
}

/** After a change: the detail (by id and number), fresh lists and history. */
function stored(queryClient: QueryClient, offer: SalesOffer) {
  for (const key of [offer.id, offer.number]) {
    queryClient.setQueryData(offerKeys.detail(key), offer);
    void queryClient.invalidateQueries({ queryKey: offerKeys.history(key) });
  }
  void queryClient.invalidateQueries({ queryKey: offerKeys.lists() });
}

export function useCreateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OfferCreateBody) => api.post('sales-offers', body, { schema: salesOfferSchema }),
    onSuccess: (offer) => stored(queryClient, offer),
  });
}

export function useUpdateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: OfferUpdateBody }) =>
      api.patch(path(id), body, { schema: salesOfferSchema }),
    onSuccess: (offer) => stored(queryClient, offer),
  });
}

export function useTransitionOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to, version }: { id: string; to: OfferTransitionTarget; version: number }) =>
      api.post(`${path(id)}/transitions`, { to, version }, { schema: salesOfferSchema }),
    onSuccess: (offer) => stored(queryClient, offer),
  });
}

/** Drafts only (the API refuses the others). */
export function useDeleteOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offer: { id: string; number: string }) => api.delete(path(offer.id)),
    onSuccess: (_, offer) => {
      for (const key of [offer.id, offer.number])
        queryClient.removeQueries({ queryKey: offerKeys.detail(key) });
      void queryClient.invalidateQueries({ queryKey: offerKeys.lists() });
    },
  });
}

/** The offer's PDF as the customer receives it (a blob: the API wants the bearer token, a link cannot send it). */
export async function fetchOfferPdf(id: string, signal?: AbortSignal): Promise<Blob> {
  const { blob } = await apiBlob(`${path(id)}/pdf`, signal ? { signal } : {});
  return blob;
}
