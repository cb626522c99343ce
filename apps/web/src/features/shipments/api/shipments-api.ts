import {
  type AuditEntry,
  auditEntrySchema,
  listResponseSchema,
  type Shipment,
  type ShipmentPicks,
  type shipmentCreateSchema,
  shipmentListItemSchema,
  shipmentSchema,
  type shipmentTransitionSchema,
  type shipmentUpdateSchema,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { api } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { shipmentKeys } from './keys.ts';

export type ShipmentCreateBody = z.input<typeof shipmentCreateSchema>;
export type ShipmentUpdateBody = z.input<typeof shipmentUpdateSchema>;
export type ShipmentTransitionBody = z.input<typeof shipmentTransitionSchema>;

const historySchema = z.array(auditEntrySchema);
const shipmentListSchema = listResponseSchema(shipmentListItemSchema);

/** The list's API path (the list page's export uses it with `format=`). */
export const SHIPMENTS_PATH = 'shipments';
const path = (id: string) => `${SHIPMENTS_PATH}/${encodeURIComponent(id)}`;

export function fetchShipmentList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery(SHIPMENTS_PATH, params), {
    ...(signal ? { signal } : {}),
    schema: shipmentListSchema,
  });
}

export function shipmentListOptions(params: ListParams) {
  return queryOptions({
    queryKey: shipmentKeys.list(params),
    queryFn: ({ signal }) => fetchShipmentList(params, signal),
  });
}

export function fetchShipment(id: string, signal?: AbortSignal): Promise<Shipment> {
  return api.get(path(id), { ...(signal ? { signal } : {}), schema: shipmentSchema });
}

export function shipmentOptions(id: string) {
  return queryOptions({
    queryKey: shipmentKeys.detail(id),
    queryFn: ({ signal }) => fetchShipment(id, signal),
  });
}

export function shipmentHistoryOptions(id: string) {
  return queryOptions({
    queryKey: shipmentKeys.history(id),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(id)}/history`, { signal, schema: historySchema }),
  });
}

/**
 * After a change: the detail, fresh lists and history. A release, ship or cancel also moves stock
 * (reserved, on hand), so the stock area's queries read again; its keys are named by prefix here so
 * this module does not pull the stock area into the shipments chunk.
 */
export function storeShipment(queryClient: QueryClient, shipment: Shipment) {
  queryClient.setQueryData(shipmentKeys.detail(shipment.id), shipment);
  void queryClient.invalidateQueries({ queryKey: shipmentKeys.history(shipment.id) });
  void queryClient.invalidateQueries({ queryKey: shipmentKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: ['stock'] });
}

export function useCreateShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ShipmentCreateBody) => api.post(SHIPMENTS_PATH, body, { schema: shipmentSchema }),
    onSuccess: (shipment) => storeShipment(queryClient, shipment),
  });
}

/** Saves a draft (lines replace the whole array); 409 when it is no longer a draft or changed meanwhile. */
export function useUpdateShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ShipmentUpdateBody }) =>
      api.patch(path(id), body, { schema: shipmentSchema }),
    onSuccess: (shipment) => storeShipment(queryClient, shipment),
  });
}

export function useDeleteShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(path(id)),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: shipmentKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: shipmentKeys.lists() });
    },
  });
}

export function transitionShipment(id: string, body: ShipmentTransitionBody): Promise<Shipment> {
  return api.post(`${path(id)}/transitions`, body, { schema: shipmentSchema });
}

/**
 * Release / start picking / mark packed / ship / cancel. A refused release answers 409 with one
 * `lines.<i>.quantity` error per short line; a refused ship one on `declaration`.
 */
export function useTransitionShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ShipmentTransitionBody }) => transitionShipment(id, body),
    onSuccess: (shipment) => storeShipment(queryClient, shipment),
  });
}

/** Confirms allocations picked (or puts them back) while the shipment is being picked. */
export function usePickShipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ShipmentPicks }) =>
      api.post(`${path(id)}/picks`, body, { schema: shipmentSchema }),
    onSuccess: (shipment) => storeShipment(queryClient, shipment),
  });
}

/** Creates the outbound declaration draft (4071 import or 3171 export) and links it. */
export function useCreateShipmentDeclaration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      api.post(`${path(id)}/declaration`, { version }, { schema: shipmentSchema }),
    onSuccess: (shipment) => {
      storeShipment(queryClient, shipment);
      void queryClient.invalidateQueries({ queryKey: ['declarations'] });
    },
  });
}
