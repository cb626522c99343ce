import {
  type AuditEntry,
  auditEntrySchema,
  type Document,
  type DocumentRecordType,
  type DocumentType,
  documentLimitsSchema,
  documentSchema,
  type documentUpdateSchema,
  documentUploadResponseSchema,
  listResponseSchema,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import { ApiError, api, apiBlob } from '../../../lib/api-client.ts';
import { displayPreferences } from '../../../lib/display-preferences.ts';
import { downloadFile } from '../../../lib/download.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { type UploadProgress, uploadForm } from '../../../lib/upload.ts';
import { documentKeys } from './keys.ts';

const documentListSchema = listResponseSchema(documentSchema);
const historySchema = z.array(auditEntrySchema);

export type DocumentUpdateBody = z.output<typeof documentUpdateSchema>;

const path = (id: string) => `documents/${encodeURIComponent(id)}`;

export function fetchDocumentList(params: ListParams, signal?: AbortSignal) {
  // Upload dates are the user's calendar days.
  const withZone =
    params.uploadedFrom || params.uploadedTo ? { ...params, tz: displayPreferences().timeZone } : params;
  return api.get(withQuery('documents', withZone), {
    ...(signal ? { signal } : {}),
    schema: documentListSchema,
  });
}

export function documentListOptions(params: ListParams) {
  return queryOptions({
    queryKey: documentKeys.list(params),
    queryFn: ({ signal }) => fetchDocumentList(params, signal),
  });
}

/** A dossier's documents tab: documents on the dossier and on its records. */
export function dossierDocumentsOptions(dossierId: string, params: ListParams) {
  return queryOptions({
    queryKey: documentKeys.dossierList(dossierId, params),
    queryFn: ({ signal }) =>
      api.get(withQuery(`dossiers/${encodeURIComponent(dossierId)}/documents`, params), {
        signal,
        schema: documentListSchema,
      }),
  });
}

/** What an upload may be (largest file, accepted types), as the server is configured; read once. */
export function documentLimitsOptions() {
  return queryOptions({
    queryKey: documentKeys.limits(),
    queryFn: ({ signal }) => api.get('documents/limits', { signal, schema: documentLimitsSchema }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function documentOptions(id: string) {
  return queryOptions({
    queryKey: documentKeys.detail(id),
    queryFn: ({ signal }) => api.get(path(id), { signal, schema: documentSchema }),
  });
}

export function documentHistoryOptions(id: string) {
  return queryOptions({
    queryKey: documentKeys.history(id),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get(`${path(id)}/history`, { signal, schema: historySchema }),
  });
}

/**
 * The bytes of a document for the preview (`inline=1`). Never stale (the bytes of an id do not
 * change), and dropped soon after the preview closes so large files do not stay in memory.
 */
export function documentContentOptions(document: Pick<Document, 'id' | 'sha256'>) {
  return queryOptions({
    queryKey: documentKeys.content(document.id, document.sha256),
    queryFn: async ({ signal }) => (await apiBlob(`${path(document.id)}/content?inline=1`, { signal })).blob,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 30_000,
  });
}

/** Saves the file through the browser; the server names it (Content-Disposition). */
export function downloadDocument(document: Pick<Document, 'id' | 'fileName'>) {
  return downloadFile(`${path(document.id)}/content`, {}, document.fileName);
}

/** Where an upload goes and how its documents are marked: the form fields sent before the file. */
export interface UploadRequest {
  recordType: DocumentRecordType;
  recordId: string;
  documentType: DocumentType;
  visibleToCustomer: boolean;
}

export interface SendOptions {
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * One file, one request: each file has its own progress and can be cancelled alone, and a refused
 * file (too large, a type not accepted) does not take the others down with it (the API stores all
 * files of a request or none). The fields go first: the API reads them before the files.
 */
export async function uploadDocument(
  request: UploadRequest,
  file: File,
  options: SendOptions = {},
): Promise<Document> {
  const form = new FormData();
  form.append('recordType', request.recordType);
  form.append('recordId', request.recordId);
  form.append('documentType', request.documentType);
  form.append('visibleToCustomer', String(request.visibleToCustomer));
  form.append('files', file, file.name);
  const answer = await uploadForm('documents', form, { ...options, schema: documentUploadResponseSchema });
  const [document] = answer.items;
  if (!document) {
    throw new ApiError(201, {
      type: 'about:blank',
      title: 'Unexpected answer',
      status: 201,
      detail: 'The server stored no document for this file.',
    });
  }
  return document;
}

/** After a change: the detail, its history, fresh lists (the dossier tabs included). */
function stored(queryClient: QueryClient, document: Document) {
  queryClient.setQueryData(documentKeys.detail(document.id), document);
  void queryClient.invalidateQueries({ queryKey: documentKeys.history(document.id) });
  void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: documentKeys.dossierLists() });
}

/** New documents appear in every list showing their record. */
export function invalidateDocumentLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: documentKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: documentKeys.dossierLists() });
}

export function useUpdateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: DocumentUpdateBody }) =>
      api.patch(path(id), body, { schema: documentSchema }),
    onSuccess: (document) => stored(queryClient, document),
  });
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(path(id)),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: documentKeys.detail(id) });
      queryClient.removeQueries({ queryKey: documentKeys.contents(id) });
      invalidateDocumentLists(queryClient);
    },
  });
}
