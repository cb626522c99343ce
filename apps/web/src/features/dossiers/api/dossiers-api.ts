import {
  type AuditEntry,
  auditEntrySchema,
  type bookingRequestSchema,
  type chargesUpdateSchema,
  type Dossier,
  type DossierTransitionBody,
  type dossierCreateSchema,
  dossierListRowSchema,
  dossierSchema,
  dossierTransitionResultSchema,
  type dossierUpdateSchema,
  listResponseSchema,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import type { LookupOption, LookupSource } from '../../../components/records/record-select.tsx';
import { api, isApiError } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { dossierKeys } from './keys.ts';

const dossierListSchema = listResponseSchema(dossierListRowSchema);
const historySchema = z.array(auditEntrySchema);

export type DossierCreateBody = z.output<typeof dossierCreateSchema>;
export type DossierUpdateBody = z.output<typeof dossierUpdateSchema>;
export type BookingBody = z.output<typeof bookingRequestSchema>;
export type ChargesBody = z.output<typeof chargesUpdateSchema>;

const path = (idOrNumber: string) => `dossiers/${encodeURIComponent(idOrNumber)}`;

export function fetchDossierList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery('dossiers', params), { ...(signal ? { signal } : {}), schema: dossierListSchema });
}

export function dossierListOptions(params: ListParams) {
  return queryOptions({
    queryKey: dossierKeys.list(params),
    queryFn: ({ signal }) => fetchDossierList(params, signal),
  });
}

export function dossierOptions(idOrNumber: string) {
  return queryOptions({
    queryKey: dossierKeys.detail(idOrNumber),
    queryFn: ({ signal }) => api.get(path(idOrNumber), { signal, schema: dossierSchema }),
  });
}

export function dossierHistoryOptions(idOrNumber: string) {
  return queryOptions({
    queryKey: dossierKeys.history(idOrNumber),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(idOrNumber)}/history`, { signal, schema: historySchema }),
  });
}

/** After a change: the detail under the key the screen uses (and its number), fresh lists and history. */
function stored(queryClient: QueryClient, key: string | undefined, dossier: Dossier) {
  for (const k of new Set([key ?? dossier.number, dossier.number])) {
    queryClient.setQueryData(dossierKeys.detail(k), dossier);
    void queryClient.invalidateQueries({ queryKey: dossierKeys.history(k) });
  }
  void queryClient.invalidateQueries({ queryKey: dossierKeys.lists() });
}

export function useCreateDossier() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DossierCreateBody) => api.post('dossiers', body, { schema: dossierSchema }),
    onSuccess: (dossier) => stored(queryClient, undefined, dossier),
  });
}

/** A customer's booking request: a dossier in status requested, for their own organisation. */
export function useBookTransport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BookingBody) => api.post('dossiers/bookings', body, { schema: dossierSchema }),
    onSuccess: (dossier) => stored(queryClient, undefined, dossier),
  });
}

/** `key`: what the screen keys the detail by (the URL's number or id). */
export function useUpdateDossier(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DossierUpdateBody }) =>
      api.patch(path(id), body, { schema: dossierSchema }),
    onSuccess: (dossier) => stored(queryClient, key, dossier),
  });
}

/** A status action with the facts it states (ATD, ATA, handler): answers the dossier and the warnings. */
export function useTransitionDossier(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DossierTransitionBody }) =>
      api.post(`${path(id)}/transitions`, body, { schema: dossierTransitionResultSchema }),
    onSuccess: ({ warnings: _, ...dossier }) => stored(queryClient, key, dossier),
  });
}

export function useSaveCharges(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ChargesBody }) =>
      api.put(`${path(id)}/charges`, body, { schema: dossierSchema }),
    onSuccess: (dossier) => stored(queryClient, key, dossier),
  });
}

export function useDeleteDossier(key: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(path(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: dossierKeys.detail(key) });
      void queryClient.invalidateQueries({ queryKey: dossierKeys.lists() });
    },
  });
}

const dossierOption = (d: { id: string; number: string; customer: { name: string } }): LookupOption => ({
  value: d.id,
  label: `${d.number} · ${d.customer.name}`,
});

/**
 * Dossiers for a picker (filter documents by one, link an event to one), searched on the server by
 * number, references or containers; under the dossiers' key root, so a changed dossier refreshes it.
 */
export const dossierLookup: LookupSource = {
  key: [...dossierKeys.all, 'picker'],
  search: async (q, signal) =>
    (await fetchDossierList({ page: 1, pageSize: 20, q: q || undefined }, signal)).items.map(dossierOption),
  byId: async (id, signal) => {
    try {
      return dossierOption(
        await api.get(`dossiers/${encodeURIComponent(id)}`, { signal, schema: dossierSchema }),
      );
    } catch (error) {
      if (isApiError(error) && error.status === 404) return null;
      throw error;
    }
  },
};

/** The container numbers of a dossier (number or id), to offer them where a leg or event is made. */
export async function dossierContainerNumbers(id: string, signal?: AbortSignal): Promise<string[]> {
  const dossier = await api.get(`dossiers/${encodeURIComponent(id)}`, { signal, schema: dossierSchema });
  return dossier.containers.map((c) => c.number);
}
