import {
  type AuditEntry,
  auditEntrySchema,
  listResponseSchema,
  type Planning,
  planningSchema,
  type Transport,
  type TransportStatus,
  type transportCreateSchema,
  transportSchema,
  type transportUpdateSchema,
} from '@fvg/contracts';
import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { api } from '../../../lib/api-client.ts';
import { displayPreferences } from '../../../lib/display-preferences.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { transportKeys } from './keys.ts';

const transportListSchema = listResponseSchema(transportSchema);
const historySchema = z.array(auditEntrySchema);

export type TransportCreateBody = z.output<typeof transportCreateSchema>;
export type TransportUpdateBody = z.output<typeof transportUpdateSchema>;

const path = (id: string) => `transports/${encodeURIComponent(id)}`;

export function fetchTransportList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery('transports', params), {
    ...(signal ? { signal } : {}),
    schema: transportListSchema,
  });
}

export function transportListOptions(params: ListParams) {
  return queryOptions({
    queryKey: transportKeys.list(params),
    queryFn: ({ signal }) => fetchTransportList(params, signal),
  });
}

export function transportOptions(id: string) {
  return queryOptions({
    queryKey: transportKeys.detail(id),
    queryFn: ({ signal }) => api.get(path(id), { signal, schema: transportSchema }),
  });
}

export function transportHistoryOptions(id: string) {
  return queryOptions({
    queryKey: transportKeys.history(id),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(id)}/history`, { signal, schema: historySchema }),
  });
}

/**
 * The planning list of a range, a page at a time (time order; the server's `nextCursor` continues).
 * A live change refetches every loaded page, so the board stays whole.
 */
export function planningOptions(from: string, to: string) {
  return infiniteQueryOptions({
    queryKey: transportKeys.planning(from, to),
    initialPageParam: null as string | null,
    queryFn: ({ signal, pageParam }): Promise<Planning> =>
      api.get(
        withQuery('planning', {
          from,
          to,
          tz: displayPreferences().timeZone,
          cursor: pageParam ?? undefined,
        }),
        {
          signal,
          schema: planningSchema,
        },
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** After a change: the detail, fresh lists, history and planning. */
function stored(queryClient: QueryClient, transport: Transport) {
  queryClient.setQueryData(transportKeys.detail(transport.id), transport);
  void queryClient.invalidateQueries({ queryKey: transportKeys.history(transport.id) });
  void queryClient.invalidateQueries({ queryKey: transportKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: transportKeys.plannings() });
}

export function useCreateTransport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TransportCreateBody) => api.post('transports', body, { schema: transportSchema }),
    onSuccess: (transport) => stored(queryClient, transport),
  });
}

export function updateTransport(id: string, body: TransportUpdateBody) {
  return api.patch(path(id), body, { schema: transportSchema });
}

export function useUpdateTransport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TransportUpdateBody }) => updateTransport(id, body),
    onSuccess: (transport) => stored(queryClient, transport),
  });
}

export function useTransitionTransport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, to, version }: { id: string; to: TransportStatus; version: number }) =>
      api.post(`${path(id)}/transitions`, { to, version }, { schema: transportSchema }),
    onSuccess: (transport) => stored(queryClient, transport),
  });
}
