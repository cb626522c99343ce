import {
  type AuditEntry,
  auditEntrySchema,
  listResponseSchema,
  type Party,
  type partyCreateSchema,
  partySchema,
  type partyUpdateSchema,
} from '@fvg/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import type { LookupOption, LookupSource } from '../../../components/records/record-select.tsx';
import { api, isApiError } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { partyKeys } from './keys.ts';

const partyListSchema = listResponseSchema(partySchema);
const historySchema = z.array(auditEntrySchema);

export type PartyCreateBody = z.output<typeof partyCreateSchema>;
export type PartyUpdateBody = z.output<typeof partyUpdateSchema>;

export function fetchPartyList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery('parties', params), { ...(signal ? { signal } : {}), schema: partyListSchema });
}

export function partyListOptions(params: ListParams) {
  return queryOptions({
    queryKey: partyKeys.list(params),
    queryFn: ({ signal }) => fetchPartyList(params, signal),
  });
}

export function partyOptions(id: string) {
  return queryOptions({
    queryKey: partyKeys.detail(id),
    queryFn: ({ signal }) => api.get(`parties/${encodeURIComponent(id)}`, { signal, schema: partySchema }),
  });
}

export function partyHistoryOptions(id: string) {
  return queryOptions({
    queryKey: partyKeys.history(id),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`parties/${encodeURIComponent(id)}/history`, { signal, schema: historySchema }),
  });
}

export function useCreateParty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PartyCreateBody) => api.post('parties', body, { schema: partySchema }),
    onSuccess: (party) => {
      queryClient.setQueryData(partyKeys.detail(party.id), party);
      void queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: partyKeys.lookups() });
    },
  });
}

export function useUpdateParty(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PartyUpdateBody) =>
      api.patch(`parties/${encodeURIComponent(id)}`, body, { schema: partySchema }),
    onSuccess: (party) => {
      queryClient.setQueryData(partyKeys.detail(id), party);
      void queryClient.invalidateQueries({ queryKey: partyKeys.history(id) });
      void queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: partyKeys.lookups() });
    },
  });
}

export function useDeleteParty(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`parties/${encodeURIComponent(id)}`),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: partyKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: partyKeys.lookups() });
    },
  });
}

export const partyOption = (party: { id: string; code: string; name: string }): LookupOption => ({
  value: party.id,
  label: `${party.name} (${party.code})`,
});

/** Parties to pick in other areas' forms and filters, optionally of one role (customers…). */
export function partyLookup(kind?: Party['kinds'][number]): LookupSource {
  return {
    key: [...partyKeys.lookups(), kind ?? 'any'],
    search: async (q, signal) => {
      const page = await api.get(withQuery('parties', { q, kind, pageSize: 20, sort: 'name' }), {
        signal,
        schema: partyListSchema,
      });
      return page.items.map(partyOption);
    },
    byId: async (id, signal) => {
      try {
        return partyOption(
          await api.get(`parties/${encodeURIComponent(id)}`, { signal, schema: partySchema }),
        );
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  };
}

/** Any party (consignors, consignees, notify parties, charge parties). */
export const anyPartyLookup = partyLookup();
/** Parties with the customer role (a dossier's customer, the list's customer filter). */
export const customerPartyLookup = partyLookup('customer');
