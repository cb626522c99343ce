import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the documents area; hooks, mutations and live updates go through these only.
 * A dossier's documents tab lies under the root too, so any document change refreshes it.
 */
export const documentKeys = {
  all: ['documents'] as const,
  lists: () => [...documentKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...documentKeys.lists(), params] as const,
  dossierLists: () => [...documentKeys.all, 'dossier'] as const,
  dossierList: (dossierId: string, params: QueryParams) =>
    [...documentKeys.dossierLists(), dossierId, params] as const,
  details: () => [...documentKeys.all, 'detail'] as const,
  detail: (id: string) => [...documentKeys.details(), id] as const,
  history: (id: string) => [...documentKeys.detail(id), 'history'] as const,
  /**
   * A document's bytes (for the preview), keyed by its SHA-256: they never change for an id, so they
   * live outside the root. A change of the document (its type, its visibility) refreshes the lists
   * and the detail without downloading the file again.
   */
  content: (id: string, sha256: string) => ['document-content', id, sha256] as const,
  contents: (id: string) => ['document-content', id] as const,
  /** The server's upload limits: configuration, not records, so outside the root too. */
  limits: () => ['document-limits'] as const,
};

// Live updates (lib/live-updates.ts): a document uploaded, changed or deleted by anyone refreshes the
// lists, every dossier's documents tab and its own detail.
registerRecordKeys('document', { all: documentKeys.all, detail: documentKeys.detail });
