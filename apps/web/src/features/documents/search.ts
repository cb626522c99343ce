import { DOCUMENT_RECORD_TYPES, DOCUMENT_SORT_FIELDS, DOCUMENT_TYPES } from '@fvg/contracts';
import { z } from 'zod';
import { listSearchShape, searchParam, searchValidator } from '../../components/records/list-search.ts';

/**
 * URL state of /documents: paging, order, search and the filters (named as the API names them);
 * `open=<id>` shows one document in a dialog over the list, `edit=1` its edit form, `upload=1` the
 * upload dialog for the record the filters name.
 */
export const documentsSearchSchema = z.object({
  ...listSearchShape(DOCUMENT_SORT_FIELDS),
  type: searchParam.enumList(DOCUMENT_TYPES),
  recordType: searchParam.enum(DOCUMENT_RECORD_TYPES),
  recordId: searchParam.uuid,
  dossierId: searchParam.uuid,
  uploadedFrom: searchParam.date,
  uploadedTo: searchParam.date,
  visibleToCustomer: searchParam.enum(['true', 'false']),
  open: searchParam.text(64),
  edit: searchParam.flag,
  upload: searchParam.flag,
});
export type DocumentsSearch = z.infer<typeof documentsSearchSchema>;

export const validateDocumentsSearch = searchValidator(documentsSearchSchema);
