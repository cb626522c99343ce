import {
  type ContainerEventLink,
  type CsvImportResponse,
  containerEventLinkResponseSchema,
  containerEventSchema,
  containerSummarySchema,
  containerTimelineSchema,
  csvImportResponseSchema,
  type DcsaEvent,
  dossierEventsSchema,
  type IntegrationKey,
  ingestResponseSchema,
  integrationKeyCreatedSchema,
  integrationKeySchema,
  listResponseSchema,
  normalizeContainerNumber,
  unlinkedEventSchema,
} from '@fvg/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { api } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { containerEventKeys, integrationKeyKeys } from './keys.ts';

const containerListSchema = listResponseSchema(containerSummarySchema);
const unlinkedListSchema = listResponseSchema(unlinkedEventSchema);
const integrationKeyListSchema = z.array(integrationKeySchema);

/** The container number as the server keys it (and announces it on the hub): upper case, no spaces. */
export const containerKey = (containerNumber: string) => normalizeContainerNumber(containerNumber);

export function fetchContainerList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery('containers', params), {
    ...(signal ? { signal } : {}),
    schema: containerListSchema,
  });
}

export function fetchUnlinkedList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery('container-events/unlinked', params), {
    ...(signal ? { signal } : {}),
    schema: unlinkedListSchema,
  });
}

/** A container's timeline, oldest first (the server keeps the latest 500). */
export function timelineOptions(containerNumber: string) {
  const key = containerKey(containerNumber);
  return queryOptions({
    queryKey: containerEventKeys.timeline(key),
    queryFn: ({ signal }) =>
      api.get(`containers/${encodeURIComponent(key)}/events`, { signal, schema: containerTimelineSchema }),
  });
}

/** The events linked to a dossier (its events tab), oldest first. */
export function dossierEventsOptions(dossierId: string) {
  return queryOptions({
    queryKey: containerEventKeys.dossierEvents(dossierId),
    queryFn: ({ signal }) =>
      api.get(`dossiers/${encodeURIComponent(dossierId)}/events`, { signal, schema: dossierEventsSchema }),
  });
}

export function containerEventOptions(id: string) {
  return queryOptions({
    queryKey: containerEventKeys.event(id),
    queryFn: ({ signal }) =>
      api.get(`container-events/${encodeURIComponent(id)}`, { signal, schema: containerEventSchema }),
  });
}

/** Links an event (and, if asked, its container's other unlinked events) to a dossier by hand. */
export function useLinkContainerEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ContainerEventLink }) =>
      api.post(`container-events/${encodeURIComponent(id)}/link`, body, {
        schema: containerEventLinkResponseSchema,
      }),
    // Lists, timelines and events tabs all change; the hub says so too, but this screen should not wait.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: containerEventKeys.all }),
  });
}

/**
 * Stores one event entered by hand (staff): the ingest route with the user's token, source `manual`.
 * Idempotent by eventID: sent again, it answers `duplicate` and changes nothing. A single invalid event
 * answers 400 with DCSA field paths (`transportCall.UNLocationCode`).
 */
export function useAddContainerEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (event: DcsaEvent) => api.post('container-events', event, { schema: ingestResponseSchema }),
    // The timeline, the lists and the events tabs change; the hub says so too, but not without a hub.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: containerEventKeys.all }),
  });
}

export interface CsvImportRequest {
  file: Blob;
  mode: 'preview' | 'commit';
  validRowsOnly?: boolean;
}

/** The CSV import: `preview` checks every row and stores nothing; `commit` stores (see the API). */
export function importCsv({
  file,
  mode,
  validRowsOnly = false,
}: CsvImportRequest): Promise<CsvImportResponse> {
  // The server takes the file as text/csv, whatever type the browser guessed for it (often none).
  const body = new Blob([file], { type: 'text/csv' });
  return api.post(
    withQuery('container-events/import', { mode, validRowsOnly: validRowsOnly ? 'true' : undefined }),
    body,
    { schema: csvImportResponseSchema },
  );
}

export function useImportCsv() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importCsv,
    onSuccess: (result) => {
      if (result.committed) void queryClient.invalidateQueries({ queryKey: containerEventKeys.all });
    },
  });
}

export function integrationKeysOptions() {
  return queryOptions({
    queryKey: integrationKeyKeys.list(),
    queryFn: ({ signal }): Promise<IntegrationKey[]> =>
      api.get('integration-keys', { signal, schema: integrationKeyListSchema }),
  });
}

/** The answer carries the key: reset the mutation once it is shown, and the cache lets go of it at once. */
export function useCreateIntegrationKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string }) =>
      api.post('integration-keys', body, { schema: integrationKeyCreatedSchema }),
    gcTime: 0,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: integrationKeyKeys.all }),
  });
}

export function useRevokeIntegrationKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`integration-keys/${encodeURIComponent(id)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: integrationKeyKeys.all }),
  });
}
