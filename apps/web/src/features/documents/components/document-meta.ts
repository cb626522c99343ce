import {
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_RECORD_TYPE_LABELS,
  DOCUMENT_RECORD_TYPES,
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPES,
  type DocumentContentType,
  type DocumentType,
  GENERATED_DOCUMENT_TYPES,
} from '@fvg/contracts';

export const DOCUMENT_TYPE_OPTIONS = DOCUMENT_TYPES.map((value) => ({
  value,
  label: DOCUMENT_TYPE_LABELS[value],
}));

/** What an upload may be filed as: not the types of the PDFs the product makes itself. */
export const UPLOAD_DOCUMENT_TYPE_OPTIONS = DOCUMENT_TYPE_OPTIONS.filter(
  (o) => !(GENERATED_DOCUMENT_TYPES as readonly string[]).includes(o.value),
);

export const RECORD_TYPE_OPTIONS = DOCUMENT_RECORD_TYPES.map((value) => ({
  value,
  label: DOCUMENT_RECORD_TYPE_LABELS[value],
}));

export const VISIBILITY_OPTIONS = [
  { value: 'true', label: 'Visible to the customer' },
  { value: 'false', label: 'Internal only' },
];

/** The fields of the audit trail, as the history shows them. */
export const DOCUMENT_FIELD_LABELS: Record<string, string> = {
  fileName: 'File name',
  documentType: 'Document type',
  visibleToCustomer: 'Visible to customer',
  record: 'Record',
  sha256: 'SHA-256',
};

export function documentTypeLabel(type: string): string {
  return DOCUMENT_TYPE_LABELS[type as DocumentType] ?? type;
}

/** 'PDF', 'PNG image'… for the content types the server accepts; the raw type otherwise. */
export function contentTypeLabel(contentType: string): string {
  return DOCUMENT_CONTENT_TYPES[contentType as DocumentContentType] ?? contentType;
}

/** A file size as people read it (shared with other screens through lib/format). */
export { formatBytes } from '../../../lib/format.ts';

/** The accepted types in one sentence, for the upload zone's hint (the server checks the bytes). */
export const ACCEPTED_SUMMARY = 'PDF, images, Office documents, XML, CSV or e-mails (EML)';
