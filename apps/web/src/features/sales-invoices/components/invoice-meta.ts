import {
  INVOICE_KIND_LABELS,
  INVOICE_KINDS,
  INVOICE_STATUS_LABELS,
  INVOICE_STATUSES,
  type InvoiceStatus,
  VAT_CODE_LABELS,
  VAT_CODES,
  VAT_EXEMPTION_REASONS,
  type VatCode,
  type VatExemptionReason,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';

export { INVOICE_KIND_LABELS, INVOICE_STATUS_LABELS };

export const INVOICE_STATUS_COLORS: Record<InvoiceStatus, MantineColor> = {
  draft: 'gray',
  issued: 'blue',
  partially_paid: 'yellow',
  paid: 'green',
  credited: 'violet',
};

export const STATUS_OPTIONS = INVOICE_STATUSES.map((s) => ({ value: s, label: INVOICE_STATUS_LABELS[s] }));
export const KIND_OPTIONS = INVOICE_KINDS.map((k) => ({ value: k, label: INVOICE_KIND_LABELS[k] }));
export { CHARGE_CODE_OPTIONS, UNIT_OPTIONS } from '../../../components/records/charge-vocabulary.ts';
/** Short: the cell is narrow; the full name is in the VAT summary. */
export const VAT_CODE_OPTIONS = VAT_CODES.map((c) => ({ value: c, label: `${c} · ${VAT_CODE_LABELS[c]}` }));
/** Short enough for the line's cell; the VAT summary and the PDF print the full wording. */
const EXEMPTION_SHORT: Readonly<Record<VatExemptionReason, string>> = {
  'VATEX-EU-146-1E': 'Export transport (art. 146(1)(e))',
  'VATEX-EU-144': 'Import services (art. 144)',
  'VATEX-EU-AE': 'Reverse charge (art. 196)',
  'VATEX-EU-IC': 'Intra-Community supply (art. 138)',
  'VATEX-EU-G': 'Export of goods (art. 146)',
  'VATEX-EU-O': 'Not subject to VAT',
};
export const EXEMPTION_OPTIONS = VAT_EXEMPTION_REASONS.map((r) => ({ value: r, label: EXEMPTION_SHORT[r] }));

/** The codes whose lines carry an exemption reason (and print its wording). */
export const EXEMPT_CODES: ReadonlySet<VatCode> = new Set(['E', 'AE', 'K', 'G', 'O']);
/** The codes without a rate of their own: O has none, the others are 0 %. */
export const rateless = (code: string) => code === 'O';

/** The labels of the invoice's fields as the form and the server's problems name them. */
export const INVOICE_FIELD_LABELS: Record<string, string> = {
  customerId: 'Customer',
  dossierId: 'Dossier',
  currency: 'Currency',
  exchangeRate: 'Exchange rate',
  supplyDate: 'Supply date',
  issueDate: 'Issue date',
  dueDate: 'Due date',
  buyerReference: 'Buyer reference',
  orderReference: 'Order reference',
  notes: 'Internal notes',
  lines: 'Lines',
  chargeCode: 'Charge',
  description: 'Description',
  quantity: 'Quantity',
  unit: 'Unit',
  unitPrice: 'Unit price',
  vatCode: 'VAT code',
  vatRate: 'VAT rate',
  exemptionReason: 'Exemption reason',
  creditedLineId: 'Credited line',
  creditedInvoice: 'Credited invoice',
  paymentId: 'Payment',
  amount: 'Amount',
  paidOn: 'Paid on',
  reference: 'Reference',
  status: 'Status',
  number: 'Number',
  paidAmount: 'Paid',
};

/** "VAT 21 %", "Exempt", "Reverse charge": a VAT group or line as the summary names it. */
export function vatGroupLabel(code: VatCode, rate: string | null): string {
  if (code === 'S' || code === 'Z') return `${VAT_CODE_LABELS[code]} ${Number(rate ?? 0)} %`;
  return VAT_CODE_LABELS[code];
}
