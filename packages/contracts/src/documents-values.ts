/**
 * The documents values that screens and the router read without the schemas (no zod here:
 * importing a value must not pull in the area's schemas; ADR 0023).
 */

/** The document types of product.md, in the order a picker shows them. */
export const DOCUMENT_TYPES = [
  'bill_of_lading',
  'air_waybill',
  'cmr',
  'commercial_invoice',
  'packing_list',
  'certificate_of_origin',
  'eur1',
  'transit_document',
  'export_accompanying_document',
  'release_note',
  'proof_of_delivery',
  // The PDFs the product makes of its own offers, invoices and credit notes (issue 27 item 3).
  'sales_offer',
  'sales_invoice',
  'credit_note',
  'other',
] as const;

/** The types of the documents the product files itself: not offered for an upload. */
export const GENERATED_DOCUMENT_TYPES = ['sales_offer', 'sales_invoice', 'credit_note'] as const;

/**
 * The records a document can be attached to. The API accepts all of them in its schemas; a type
 * whose area does not exist yet answers "no such <record>" until it does.
 */
export const DOCUMENT_RECORD_TYPES = [
  'dossier',
  'transport',
  'declaration',
  'invoice',
  'offer',
  'shipment',
  'stock',
] as const;

export const DOCUMENT_SORT_FIELDS = ['uploadedAt', 'fileName', 'size', 'documentType'] as const;
