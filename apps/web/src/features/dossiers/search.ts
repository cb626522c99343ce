import { DOSSIER_MODES, DOSSIER_SORT_FIELDS, DOSSIER_STATUSES, DOSSIER_TYPES } from '@fvg/contracts';
import { z } from 'zod';
import {
  listSearchShape,
  searchDate,
  searchEnum,
  searchEnumList,
  searchFlag,
  searchText,
  searchUuid,
  searchValidator,
} from '../../components/records/list-search.ts';

/**
 * URL state of /dossiers: paging, order, search and the filters (named as the API names them, so
 * the URL and the request say the same); `new=1` opens the create (staff) or booking (customer) form.
 */
export const dossiersSearchSchema = z.object({
  ...listSearchShape(DOSSIER_SORT_FIELDS),
  status: searchEnumList(DOSSIER_STATUSES),
  type: searchEnum(DOSSIER_TYPES),
  mode: searchEnum(DOSSIER_MODES),
  customerId: searchUuid,
  etdFrom: searchDate,
  etdTo: searchDate,
  container: searchText(11),
  new: searchFlag,
});
export type DossiersSearch = z.infer<typeof dossiersSearchSchema>;

/** URL state of /dossiers/$dossierId: the tab and edit mode. */
export const dossierSearchSchema = z.object({ tab: searchText(30), edit: searchFlag });

export const validateDossiersSearch = searchValidator(dossiersSearchSchema);
export const validateDossierSearch = searchValidator(dossierSearchSchema);
