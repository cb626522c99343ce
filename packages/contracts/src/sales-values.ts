/**
 * The values of sales offers and sales invoices that screens and the router read without the schemas
 * (no zod here: importing a value must not pull in the area's schemas; ADR 0023). Offers and invoices
 * share the charge codes, units and VAT codes, so an accepted offer's lines become dossier charges and
 * those charges invoice lines without any mapping.
 */

/** The small code list of what a line charges for (offers, invoices, and the revenue charges they make). */
/**
 * The one charge vocabulary of the product (issue 27 item 4): offer lines, a dossier's costs and revenue
 * and invoice lines all take these codes, so a line keeps its code and name from the offer to the
 * invoice. A database check holds the dossier charges to it (migration 0045).
 */
export const SALES_CHARGE_CODES = [
  'FREIGHT',
  'FUEL',
  'THC',
  'ORIGIN',
  'DESTINATION',
  'CUSTOMS',
  'SECURITY',
  'HANDLING',
  'STORAGE',
  'INSURANCE',
  'DOCUMENTATION',
  'CANCELLATION',
  'OTHER',
] as const;
export type SalesChargeCode = (typeof SALES_CHARGE_CODES)[number];

export const SALES_CHARGE_CODE_LABELS: Readonly<Record<SalesChargeCode, string>> = {
  FREIGHT: 'Freight',
  FUEL: 'Fuel surcharge',
  THC: 'Terminal handling (THC)',
  ORIGIN: 'Origin charges',
  DESTINATION: 'Destination charges',
  CUSTOMS: 'Customs clearance',
  SECURITY: 'Security screening',
  HANDLING: 'Handling',
  STORAGE: 'Storage',
  INSURANCE: 'Insurance',
  DOCUMENTATION: 'Documentation',
  CANCELLATION: 'Cancellation fee',
  OTHER: 'Other',
};

/** Units of measure of a line: UN/ECE Recommendation 20/21 codes, as Peppol (BT-130) wants them. */
export const SALES_UNITS = ['C62', 'LS', 'XCN', 'KGM', 'TNE', 'MTQ', 'DAY', 'HUR', 'KMT'] as const;
export type SalesUnit = (typeof SALES_UNITS)[number];

export const SALES_UNIT_LABELS: Readonly<Record<SalesUnit, string>> = {
  C62: 'unit',
  LS: 'lump sum',
  XCN: 'container',
  KGM: 'kg',
  TNE: 'tonne',
  MTQ: 'm³',
  DAY: 'day',
  HUR: 'hour',
  KMT: 'km',
};

/** VAT categories (UNCL 5305, EN 16931 BT-151) the product uses. */
export const VAT_CODES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export type VatCode = (typeof VAT_CODES)[number];

export const VAT_CODE_LABELS: Readonly<Record<VatCode, string>> = {
  S: 'Standard rate',
  Z: 'Zero rate',
  E: 'Exempt',
  AE: 'Reverse charge',
  K: 'Intra-Community supply of goods',
  G: 'Export of goods outside the EU',
  O: 'Outside the scope of VAT',
};

/** Exemption reasons (VATEX list, BT-121) with the wording printed on the invoice (BT-120). */
export const VAT_EXEMPTION_REASONS = [
  'VATEX-EU-146-1E',
  'VATEX-EU-144',
  'VATEX-EU-AE',
  'VATEX-EU-IC',
  'VATEX-EU-G',
  'VATEX-EU-O',
] as const;
export type VatExemptionReason = (typeof VAT_EXEMPTION_REASONS)[number];

export const VAT_EXEMPTION_TEXTS: Readonly<Record<VatExemptionReason, string>> = {
  'VATEX-EU-146-1E':
    'Exempt: transport services connected with the export of goods (art. 146(1)(e) VAT Directive)',
  'VATEX-EU-144': 'Exempt: services connected with the import of goods (art. 144 VAT Directive)',
  'VATEX-EU-AE': 'Reverse charge (art. 196 VAT Directive)',
  'VATEX-EU-IC': 'Exempt: intra-Community supply of goods (art. 138 VAT Directive)',
  'VATEX-EU-G': 'Exempt: export of goods outside the EU (art. 146 VAT Directive)',
  'VATEX-EU-O': 'Not subject to VAT',
};

export const OFFER_STATUSES = ['draft', 'sent', 'accepted', 'rejected', 'expired', 'cancelled'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const OFFER_STATUS_LABELS: Readonly<Record<OfferStatus, string>> = {
  draft: 'Draft',
  sent: 'Sent',
  accepted: 'Accepted',
  rejected: 'Rejected',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** The status actions a user takes on an offer (`expired` is the scheduled job's alone). */
export const OFFER_TRANSITION_TARGETS = ['sent', 'accepted', 'rejected', 'cancelled'] as const;
export type OfferTransitionTarget = (typeof OFFER_TRANSITION_TARGETS)[number];

export const OFFER_SORT_FIELDS = [
  'number',
  'status',
  'validUntil',
  'customer',
  'createdAt',
  'updatedAt',
] as const;

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_KIND_LABELS: Readonly<Record<InvoiceKind, string>> = {
  invoice: 'Invoice',
  credit_note: 'Credit note',
};

export const INVOICE_STATUSES = ['draft', 'issued', 'partially_paid', 'paid', 'credited'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_LABELS: Readonly<Record<InvoiceStatus, string>> = {
  draft: 'Draft',
  issued: 'Issued',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  credited: 'Credited',
};

export const INVOICE_SORT_FIELDS = [
  'number',
  'status',
  'issueDate',
  'dueDate',
  'customer',
  'total',
  'createdAt',
  'updatedAt',
] as const;

/**
 * An invoice amount as lists and exports show it: a credit note's is negative (issue 27 item 3), so a
 * column reads as what the customer owes and is owed.
 */
export function signedAmount(kind: string, amount: string): string {
  if (kind !== 'credit_note' || /^-?0*(\.0*)?$/.test(amount)) return amount;
  return amount.startsWith('-') ? amount.slice(1) : `-${amount}`;
}
