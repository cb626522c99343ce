import { TRANSPORT_MODES, TRANSPORT_STATUSES } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../components/records/list-search.ts';

/** The orders GET /api/transports takes. */
export const TRANSPORT_SORT_FIELDS = [
  'pickupFrom',
  'deliveryFrom',
  'status',
  'updatedAt',
  'dossier',
] as const;

/**
 * URL state of /transports: paging, order, search and the filters (named as the API names them);
 * `open=<id>` shows one leg in a dialog over the list, `edit=1` its edit form, `new=1` the create form.
 */
export const transportsSearchSchema = z.object({
  ...listSearchShape(TRANSPORT_SORT_FIELDS),
  status: searchParam.enumList(TRANSPORT_STATUSES),
  mode: searchParam.enum(TRANSPORT_MODES),
  carrierId: searchParam.uuid,
  pickupFrom: searchParam.date,
  pickupTo: searchParam.date,
  /** The zone of the pickup days (set by the dashboard's "today" links); the server's days when absent. */
  tz: searchParam.text(64),
  open: searchParam.text(64),
  ...detailSearchShape,
  new: searchParam.flag,
});
export type TransportsSearch = z.infer<typeof transportsSearchSchema>;

export const PLANNING_VIEWS = ['table', 'timeline'] as const;
export type PlanningView = (typeof PLANNING_VIEWS)[number];

/**
 * URL state of /planning/list: the view (the table by default), the table's date range (default: this
 * week) and the timeline's day (default: today).
 */
export const planningSearchSchema = z.object({
  view: searchParam.enum(PLANNING_VIEWS),
  from: searchParam.date,
  to: searchParam.date,
  day: searchParam.date,
});
export type PlanningSearch = z.infer<typeof planningSearchSchema>;

export const validateTransportsSearch = searchValidator(transportsSearchSchema);
export const validatePlanningSearch = searchValidator(planningSearchSchema);
