import { DOSSIER_MODES, DOSSIER_SORT_FIELDS, DOSSIER_STATUSES, DOSSIER_TYPES } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../components/records/list-search.ts';

/**
 * URL state of /dossiers: paging, order, search and the filters (named as the API names them, so
 * the URL and the request say the same); `new=1` opens the create (staff) or booking (customer) form.
 */
export const dossiersSearchSchema = z.object({
  ...listSearchShape(DOSSIER_SORT_FIELDS),
  status: searchParam.enumList(DOSSIER_STATUSES),
  type: searchParam.enum(DOSSIER_TYPES),
  mode: searchParam.enum(DOSSIER_MODES),
  customerId: searchParam.uuid,
  etdFrom: searchParam.date,
  etdTo: searchParam.date,
  container: searchParam.text(11),
  new: searchParam.flag,
});
export type DossiersSearch = z.infer<typeof dossiersSearchSchema>;

/**
 * URL state of /dossiers/$dossierId: the tab and edit mode; `add=leg` (Transports tab) and
 * `add=event&container=<number>` (Container events tab) open the staff's add dialogs of those areas.
 */
export const dossierSearchSchema = z.object({
  ...detailSearchShape,
  add: searchParam.enum(['leg', 'event'] as const),
  container: searchParam.text(11),
});

export const validateDossiersSearch = searchValidator(dossiersSearchSchema);
export const validateDossierSearch = searchValidator(dossierSearchSchema);
