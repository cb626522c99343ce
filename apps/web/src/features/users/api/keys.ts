import { registerRecordKeys } from '../../../lib/live-updates.ts';
import type { QueryParams } from '../../../lib/query-string.ts';

/** Every query key of the users area (admin list, handler picker). */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: QueryParams) => [...userKeys.lists(), params] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (id: string) => [...userKeys.details(), id] as const,
  /** Staff users a dossier can be assigned to. */
  handlers: () => [...userKeys.all, 'handlers'] as const,
};

// Live updates (lib/live-updates.ts): a changed user refreshes the user list and the handler picker.
registerRecordKeys('user', { all: userKeys.all, detail: userKeys.detail });
