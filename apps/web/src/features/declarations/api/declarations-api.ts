import {
  type AuditEntry,
  auditEntrySchema,
  type Declaration,
  type DeclarationAmend,
  type DeclarationCancel,
  type DeclarationCreate,
  type DeclarationMessage,
  type DeclarationUpdate,
  declarationListItemSchema,
  declarationMessageSchema,
  declarationSchema,
  listResponseSchema,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { declarationKeys } from './keys.ts';

const historySchema = z.array(auditEntrySchema);
const messagesSchema = z.array(declarationMessageSchema);
const declarationListSchema = listResponseSchema(declarationListItemSchema);

/** The list's API path (the list page's export uses it with `format=`). */
export const DECLARATIONS_PATH = 'declarations';
const path = (id: string) => `${DECLARATIONS_PATH}/${encodeURIComponent(id)}`;

export function fetchDeclarationList(params: ListParams, signal?: AbortSignal) {
  return api.get(withQuery(DECLARATIONS_PATH, params), {
    ...(signal ? { signal } : {}),
    schema: declarationListSchema,
  });
}

export function declarationListOptions(params: ListParams) {
  return queryOptions({
    queryKey: declarationKeys.list(params),
    queryFn: ({ signal }) => fetchDeclarationList(params, signal),
  });
}

export function declarationOptions(id: string) {
  return queryOptions({
    queryKey: declarationKeys.detail(id),
    queryFn: ({ signal }) => api.get(path(id), { signal, schema: declarationSchema }),
  });
}

/** What was sent to the authority and what it answered, oldest first. */
export function declarationMessagesOptions(id: string) {
  return queryOptions({
    queryKey: declarationKeys.messages(id),
    queryFn: ({ signal }): Promise<DeclarationMessage[]> =>
      api.get(`${path(id)}/messages`, { signal, schema: messagesSchema }),
  });
}

export function declarationHistoryOptions(id: string) {
  return queryOptions({
    queryKey: declarationKeys.history(id),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(id)}/history`, { signal, schema: historySchema }),
  });
}

/** After a change: the detail, fresh lists, messages and history; the dossier's tabs read them again. */
/** A message's NCTS XML as it was sent (a transit's IE015), saved as `<LRN>-IE015.xml`. */
export function downloadMessageXml(declaration: { id: string; lrn: string }, messageId: string) {
  return downloadFile(
    `${path(declaration.id)}/messages/${encodeURIComponent(messageId)}/xml`,
    {},
    `${declaration.lrn}-IE015.xml`,
  );
}

/** The answer of a change, under both keys its screen may be open by: the LRN (its address) and the id. */
export function storeDeclaration(queryClient: QueryClient, declaration: Declaration) {
  queryClient.setQueryData(declarationKeys.detail(declaration.lrn), declaration);
  queryClient.setQueryData(declarationKeys.detail(declaration.id), declaration);
  void queryClient.invalidateQueries({ queryKey: declarationKeys.messages(declaration.id) });
  void queryClient.invalidateQueries({ queryKey: declarationKeys.history(declaration.id) });
  void queryClient.invalidateQueries({ queryKey: declarationKeys.lists() });
}

export function useCreateDeclaration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeclarationCreate) => api.post(DECLARATIONS_PATH, body, { schema: declarationSchema }),
    onSuccess: (declaration) => storeDeclaration(queryClient, declaration),
  });
}

export function useUpdateDeclaration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DeclarationUpdate }) =>
      api.patch(path(id), body, { schema: declarationSchema }),
    onSuccess: (declaration) => storeDeclaration(queryClient, declaration),
  });
}

export function useDeleteDeclaration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(path(id)),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: declarationKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: declarationKeys.lists() });
    },
  });
}

/** Lodges the draft with the authority (the sandbox answers later, live through the hub). */
export function useLodgeDeclaration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      api.post(`${path(id)}/lodge`, { version }, { schema: declarationSchema }),
    onSuccess: (declaration) => storeDeclaration(queryClient, declaration),
  });
}

/** Sends an amendment request; the declaration shows it pending until the authority answers. */
export function useAmendDeclaration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DeclarationAmend }) =>
      api.post(`${path(id)}/amend`, body, { schema: declarationSchema }),
    onSuccess: (declaration) => storeDeclaration(queryClient, declaration),
  });
}

/** Sends a cancellation (invalidation) request; pending until the authority answers. */
export function useCancelDeclaration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DeclarationCancel }) =>
      api.post(`${path(id)}/cancel`, body, { schema: declarationSchema }),
    onSuccess: (declaration) => storeDeclaration(queryClient, declaration),
  });
}
