/**
 * The company settings values that screens and the router read without the schemas (no zod here;
 * ADR 0023).
 */

/** The documents the company numbers, each with its own series. */
export const SERIES_KINDS = [
  'offer',
  'invoice',
  'credit_note',
  'declaration',
  'stock_receipt',
  'shipment',
] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

export const SERIES_KIND_LABELS: Readonly<Record<SeriesKind, string>> = {
  offer: 'Offers',
  invoice: 'Invoices',
  credit_note: 'Credit notes',
  declaration: 'Declarations (LRN)',
  stock_receipt: 'Stock receipts',
  shipment: 'Shipments',
};

/**
 * Peppol electronic address schemes (EAS code list) a forwarder in the EU is likely to use; BT-34
 * needs one of them next to the endpoint id.
 */
export const PEPPOL_SCHEMES = [
  '0106',
  '0190',
  '9944',
  '0208',
  '9925',
  '9930',
  '9957',
  '0088',
  '0060',
  '0007',
  '0184',
  '0192',
] as const;
export type PeppolScheme = (typeof PEPPOL_SCHEMES)[number];

export const PEPPOL_SCHEME_LABELS: Readonly<Record<PeppolScheme, string>> = {
  '0106': '0106 · Dutch Chamber of Commerce (KvK)',
  '0190': '0190 · Dutch government (OIN)',
  '9944': '9944 · Dutch VAT number',
  '0208': '0208 · Belgian enterprise number',
  '9925': '9925 · Belgian VAT number',
  '9930': '9930 · German VAT number',
  '9957': '9957 · French VAT number',
  '0088': '0088 · GLN (GS1)',
  '0060': '0060 · DUNS number',
  '0007': '0007 · Swedish organisation number',
  '0184': '0184 · Danish CVR number',
  '0192': '0192 · Norwegian organisation number',
};

/** The base currency: job costing converts every amount into it (BASE_CURRENCY of the dossiers). */
export const BASE_CURRENCIES = ['EUR'] as const;

/** A document number as printed: prefix, year, six digits (`I-2026-000042`), like the dossiers' `D-2026-000042`. */
export function formatSeriesNumber(prefix: string, year: number, value: number): string {
  return `${prefix}${year}-${String(value).padStart(6, '0')}`;
}
