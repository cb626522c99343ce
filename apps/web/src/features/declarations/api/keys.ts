import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the declarations area; hooks and mutations go through these only. The screen's
 * address names a declaration by its LRN (issue 27 item 1), but once found it is read, changed and
 * updated live by its id: a draft's LRN can change, its id cannot.
 */
export const declarationKeys = {
  all: ['declarations'] as const,
  lists: () => [...declarationKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...declarationKeys.lists(), params] as const,
  details: () => [...declarationKeys.all, 'detail'] as const,
  detail: (id: string) => [...declarationKeys.details(), id] as const,
  messages: (id: string) => [...declarationKeys.detail(id), 'messages'] as const,
  history: (id: string) => [...declarationKeys.detail(id), 'history'] as const,
};

// Live updates (lib/live-updates.ts): the sandbox authority's answers arrive as RecordChanged of kind
// 'declaration'; the detail key's prefix covers its messages and history, so an accepted or released
// declaration shows its new status, MRN and message on screen without a reload.
registerRecordKeys('declaration', { all: declarationKeys.lists(), detail: declarationKeys.detail });
// A renamed party shows in the declaration lists (customer column).
registerRecordKeys('party', { all: declarationKeys.lists(), detail: () => declarationKeys.lists() });
// A renumbered or re-assigned dossier shows in the lists' dossier column.
registerRecordKeys('dossier', { all: declarationKeys.lists(), detail: () => declarationKeys.lists() });
