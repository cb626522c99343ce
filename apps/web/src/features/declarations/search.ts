import { DECLARATION_SORT_FIELDS, DECLARATION_STATUSES, DECLARATION_TYPES } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../components/records/list-search.ts';

/**
 * URL state of /declarations: paging, order, search and the filters (named as the API names them:
 * `reference` is an LRN or MRN prefix, `from`/`to` the creation dates); `new=1` opens the
 * new-declaration dialog.
 */
export const declarationsSearchSchema = z.object({
  ...listSearchShape(DECLARATION_SORT_FIELDS),
  type: searchParam.enumList(DECLARATION_TYPES),
  status: searchParam.enumList(DECLARATION_STATUSES),
  customerId: searchParam.uuid,
  dossierId: searchParam.uuid,
  reference: searchParam.text(35),
  from: searchParam.date,
  to: searchParam.date,
  pendingRequest: searchParam.enum(['true'] as const),
  new: searchParam.flag,
});
export type DeclarationsSearch = z.infer<typeof declarationsSearchSchema>;

/** URL state of /declarations/$id: the tab (`tab=messages`) and the amendment draft (`edit=1`). */
export const declarationSearchSchema = z.object({ ...detailSearchShape });
export type DeclarationSearch = z.infer<typeof declarationSearchSchema>;

export const validateDeclarationsSearch = searchValidator(declarationsSearchSchema);
export const validateDeclarationSearch = searchValidator(declarationSearchSchema);
