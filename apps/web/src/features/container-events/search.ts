import {
  CONTAINER_SORT_FIELDS,
  DCSA_EVENT_TYPES,
  EVENT_TYPE_CODES,
  UNLINKED_SORT_FIELDS,
} from '@fvg/contracts';
import { z } from 'zod';
import { listSearchShape, searchParam, searchValidator } from '../../components/records/list-search.ts';

/** The parts of /containers: everyone's containers list; staff also fix unlinked events and import CSV. */
export const CONTAINERS_TABS = ['containers', 'unlinked', 'import'] as const;
export type ContainersTab = (typeof CONTAINERS_TABS)[number];

/**
 * URL state of /containers: the tab, the list's paging, order, search and filters (named as the API
 * names them; the two lists share them, and a tab change clears them), `open=<container number>`
 * for the timeline dialog over the list, and `add=1` for the form that adds an event to it by hand (staff).
 */
export const containersSearchSchema = z.object({
  ...listSearchShape([...CONTAINER_SORT_FIELDS, ...UNLINKED_SORT_FIELDS]),
  tab: searchParam.enum(CONTAINERS_TABS),
  status: searchParam.enumList(EVENT_TYPE_CODES),
  eventType: searchParam.enum(DCSA_EVENT_TYPES),
  /** The latest event at or after / at or before these instants (the dashboard's last 24 hours). */
  from: searchParam.text(40),
  to: searchParam.text(40),
  open: searchParam.text(32),
  add: searchParam.flag,
});
export type ContainersSearch = z.infer<typeof containersSearchSchema>;

/** The list parameters a tab change drops (the other list names other sorts and filters). */
export const LIST_SEARCH_KEYS = [
  'page',
  'pageSize',
  'sort',
  'q',
  'status',
  'eventType',
  'from',
  'to',
] as const;

export const validateContainersSearch = searchValidator(containersSearchSchema);

/** URL state of /admin/integration-keys: `new=1` opens the create dialog. */
export const integrationKeysSearchSchema = z.object({
  new: searchParam.flag,
});
export const validateIntegrationKeysSearch = searchValidator(integrationKeysSearchSchema);
