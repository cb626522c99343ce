import { DOCUMENT_RECORD_TYPES, DOCUMENT_SORT_FIELDS, DOCUMENT_TYPES } from '@fvg/contracts';
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
 * URL state of /documents: paging, order, search and the filters (named as the API names them);
 * `open=<id>` shows one document in a dialog over the list, `edit=1` its edit form, `upload=1` the
 * upload dialog for the record the filters name.
 */
export const documentsSearchSchema = z.object({
  ...listSearchShape(DOCUMENT_SORT_FIELDS),
  type: searchEnumList(DOCUMENT_TYPES),
  recordType: searchEnum(DOCUMENT_RECORD_TYPES),
  recordId: searchUuid,
  uploadedFrom: searchDate,
  uploadedTo: searchDate,
  visibleToCustomer: searchEnum(['true', 'false']),
  open: searchText(64),
  edit: searchFlag,
  upload: searchFlag,
});
export type DocumentsSearch = z.infer<typeof documentsSearchSchema>;

export const validateDocumentsSearch = searchValidator(documentsSearchSchema);
