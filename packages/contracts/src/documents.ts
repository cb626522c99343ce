import { z } from 'zod';
import { DOCUMENT_RECORD_TYPES, DOCUMENT_TYPES } from './documents-values.ts';
import { calendarDate, versionSchema } from './primitives.ts';
import { listQueryBaseSchema, timeZoneSchema, uuidSchema } from './records.ts';

export * from './documents-values.ts';

export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const documentTypeSchema = z.enum(DOCUMENT_TYPES);

export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  bill_of_lading: 'Bill of lading',
  air_waybill: 'Air waybill',
  cmr: 'CMR',
  commercial_invoice: 'Commercial invoice',
  packing_list: 'Packing list',
  certificate_of_origin: 'Certificate of origin',
  eur1: 'EUR.1',
  transit_document: 'Transit document',
  export_accompanying_document: 'Export accompanying document',
  release_note: 'Release note',
  proof_of_delivery: 'Proof of delivery',
  sales_offer: 'Sales offer',
  sales_invoice: 'Sales invoice',
  credit_note: 'Credit note',
  other: 'Other',
};

export type DocumentRecordType = (typeof DOCUMENT_RECORD_TYPES)[number];
export const documentRecordTypeSchema = z.enum(DOCUMENT_RECORD_TYPES);

export const DOCUMENT_RECORD_TYPE_LABELS: Record<DocumentRecordType, string> = {
  dossier: 'Dossier',
  transport: 'Transport',
  declaration: 'Customs declaration',
  invoice: 'Sales invoice',
  offer: 'Sales offer',
  shipment: 'Shipment',
  stock: 'Stock record',
};

/** Content types the server accepts, as detected from the bytes (never from the client's claim). */
export const DOCUMENT_CONTENT_TYPES = {
  'application/pdf': 'PDF',
  'image/png': 'PNG image',
  'image/jpeg': 'JPEG image',
  'image/gif': 'GIF image',
  'image/webp': 'WebP image',
  'image/tiff': 'TIFF image',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel workbook',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint presentation',
  'application/msword': 'Word 97-2003 document',
  'application/vnd.ms-excel': 'Excel 97-2003 workbook',
  'application/vnd.ms-powerpoint': 'PowerPoint 97-2003 presentation',
  'application/vnd.ms-outlook': 'Outlook message',
  'application/xml': 'XML',
  'text/csv': 'CSV',
  'message/rfc822': 'E-mail (EML)',
} as const;
export type DocumentContentType = keyof typeof DOCUMENT_CONTENT_TYPES;

/** What a browser may show in place (`?inline=1`): PDF (pdf.js) and raster images; everything else downloads. */
export function canPreviewInline(contentType: string): boolean {
  return contentType === 'application/pdf' || /^image\/(png|jpeg|gif|webp|tiff)$/.test(contentType);
}

/** Default largest upload (DOCUMENT_MAX_BYTES on the server): 50 MB. */
export const DOCUMENT_DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
/** Files in one upload request. */
export const DOCUMENT_MAX_FILES_PER_UPLOAD = 20;

/**
 * A file name safe to store and to send back: the last path segment only (a client may send a full
 * path), without control or bidirectional-override characters, quotes or backslashes; NFC; at most 200
 * characters with the extension kept. Empty → `document`.
 */
export function sanitizeFileName(name: string): string {
  const base = name.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069"]/g, '')
    // A lone surrogate is not Unicode: it could not be stored or written to the audit trail.
    .replace(/\p{Cs}/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  if (!cleaned) return 'document';
  if (cleaned.length <= 200) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cutAt(cleaned, 200 - ext.length) + ext;
}

/**
 * The start of `s` in at most `max` UTF-16 units, never ending in half a surrogate pair: a lone
 * surrogate left by the cut would be refused (400) after the file was stored.
 */
function cutAt(s: string, max: number): string {
  const head = s.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

const fileNameSchema = z.string().max(1000).transform(sanitizeFileName).pipe(z.string().min(1).max(200));

/** Form fields of `POST /api/documents` (multipart/form-data; send them before the files). */
export const documentUploadFieldsSchema = z.strictObject({
  recordType: documentRecordTypeSchema,
  recordId: uuidSchema,
  documentType: documentTypeSchema,
  visibleToCustomer: z
    .enum(['true', 'false', '1', '0', 'on', 'off'], { message: 'Send true or false' })
    .transform((v) => v === 'true' || v === '1' || v === 'on')
    .default(false),
});
export type DocumentUploadFields = z.input<typeof documentUploadFieldsSchema>;

export const documentUpdateSchema = z.strictObject({
  documentType: documentTypeSchema.optional(),
  visibleToCustomer: z.boolean().optional(),
  fileName: fileNameSchema.optional(),
  version: versionSchema,
});
export type DocumentUpdate = z.input<typeof documentUpdateSchema>;

const refSchema = z.object({ id: z.string(), name: z.string() });

export const documentSchema = z.object({
  id: z.string(),
  recordType: documentRecordTypeSchema,
  recordId: z.string(),
  /** The dossier the document belongs to, directly or through its record; null for records outside dossiers. */
  dossier: z.object({ id: z.string(), number: z.string() }).nullable(),
  fileName: z.string(),
  /** Detected from the bytes at upload. */
  contentType: z.string(),
  size: z.number().int(),
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: z.string(),
  documentType: documentTypeSchema,
  visibleToCustomer: z.boolean(),
  /** An earlier document with the same bytes on the same record: flagged, not refused. */
  duplicateOf: z.string().nullable(),
  uploadedBy: refSchema.nullable(),
  uploadedAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});
export type Document = z.infer<typeof documentSchema>;

/** `GET /api/documents/limits`: what an upload may be, so the browser checks before sending. */
export const documentLimitsSchema = z.object({
  /** Largest file in bytes (DOCUMENT_MAX_BYTES). */
  maxBytes: z.number().int(),
  /** Files per upload request. */
  maxFiles: z.number().int(),
  /** Content types accepted, as detected from the bytes. */
  contentTypes: z.array(z.string()),
});
export type DocumentLimits = z.infer<typeof documentLimitsSchema>;

export const documentUploadResponseSchema = z.object({ items: z.array(documentSchema) });
export type DocumentUploadResponse = z.infer<typeof documentUploadResponseSchema>;

const csvOf = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(20));

/** `GET /api/documents` (and a dossier's documents tab): filters, `q` on the file name, paging and sorting. */
export const documentListQuerySchema = listQueryBaseSchema.extend({
  type: csvOf(documentTypeSchema).optional(),
  recordType: documentRecordTypeSchema.optional(),
  recordId: uuidSchema.optional(),
  /** Documents of this dossier: on the dossier itself and on its records (its transport legs…). */
  dossierId: uuidSchema.optional(),
  /** Uploaded on or after this day (in `tz`). */
  uploadedFrom: calendarDate.optional(),
  /** Uploaded on or before this day (in `tz`). */
  uploadedTo: calendarDate.optional(),
  /** The zone of those days (the browser's); UTC by default. */
  tz: timeZoneSchema.optional(),
  visibleToCustomer: z.enum(['true', 'false']).optional(),
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;

export const documentContentQuerySchema = z.object({
  /** `1` shows a PDF or an image in the browser; other types always download. */
  inline: z.enum(['0', '1', 'true', 'false']).optional(),
});
