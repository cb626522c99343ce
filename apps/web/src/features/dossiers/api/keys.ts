import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/**
 * Every query key of the dossiers area; hooks, mutations and live updates go through these only.
 * Details are keyed by what the URL names the dossier with (its number, or its id).
 */
export const dossierKeys = {
  all: ['dossiers'] as const,
  lists: () => [...dossierKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...dossierKeys.lists(), params] as const,
  details: () => [...dossierKeys.all, 'detail'] as const,
  detail: (idOrNumber: string) => [...dossierKeys.details(), idOrNumber] as const,
  history: (idOrNumber: string) => [...dossierKeys.detail(idOrNumber), 'history'] as const,
};

// Live updates (lib/live-updates.ts). A RecordChanged names the dossier by id while details are
// keyed by the number in the URL, so `all` is the root: any dossier change refreshes the dossier
// queries on screen (one extra request at most); inactive ones refetch when next used.
registerRecordKeys('dossier', { all: dossierKeys.all, detail: dossierKeys.detail });
// A chat message sent or read changes the unread counts of the dossier lists (per user).
registerRecordKeys('chat', { all: dossierKeys.lists(), detail: () => dossierKeys.lists() });
// A renamed party shows in the dossier lists (customer column).
registerRecordKeys('party', { all: dossierKeys.lists(), detail: () => dossierKeys.lists() });
