import {
  DOSSIER_MODE_LABELS,
  DOSSIER_MODES,
  DOSSIER_TYPE_LABELS,
  DOSSIER_TYPES,
  INCOTERMS_2020,
  OFFER_STATUS_LABELS,
  OFFER_STATUSES,
  OFFER_TRANSITION_LABELS,
  type OfferStatus,
  SALES_CHARGE_CODE_LABELS,
  SALES_UNIT_LABELS,
  VAT_CODE_LABELS,
  VAT_CODES,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';

export const STATUS_LABELS = OFFER_STATUS_LABELS;

export const STATUS_COLORS: Record<OfferStatus, MantineColor> = {
  draft: 'gray',
  sent: 'blue',
  accepted: 'green',
  rejected: 'red',
  expired: 'orange',
  cancelled: 'dark',
};

export const STATUS_OPTIONS = OFFER_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));
export const MODE_LABELS = DOSSIER_MODE_LABELS;
export const MODE_OPTIONS = DOSSIER_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }));
export const TYPE_LABELS = DOSSIER_TYPE_LABELS;
export const TYPE_OPTIONS = DOSSIER_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }));
export const INCOTERM_OPTIONS = INCOTERMS_2020.map((t) => ({ value: t, label: t }));

export const CHARGE_CODE_LABELS = SALES_CHARGE_CODE_LABELS;
export const UNIT_LABELS = SALES_UNIT_LABELS;
export { CHARGE_CODE_OPTIONS, UNIT_OPTIONS } from '../../../components/records/charge-vocabulary.ts';
/** 'S · Standard rate': the code is what the invoice and Peppol print, the words say what it means. */
export const VAT_CODE_OPTIONS = VAT_CODES.map((c) => ({ value: c, label: `${c} · ${VAT_CODE_LABELS[c]}` }));

/** Button labels of the status actions (`draft` and `expired` are no action anyone takes). */
export const TRANSITION_LABELS: Readonly<Record<OfferStatus, string>> = {
  ...OFFER_TRANSITION_LABELS,
  draft: 'Back to draft',
  expired: 'Expire',
};

/** The questions each status action asks before it is taken (none can be undone). */
export function transitionQuestions(
  offer: { number: string; contactEmail: string | null },
  staff: boolean,
): Partial<Record<OfferStatus, string>> {
  const to = offer.contactEmail ? ` to ${offer.contactEmail}` : '';
  return {
    sent: `Send offer ${offer.number}${to}? The customer gets it as a PDF by mail and sees it in their portal. A sent offer can no longer be edited.`,
    accepted: staff
      ? `Accept offer ${offer.number} for the customer? A dossier is booked at once with its route, cargo and every line as revenue. This cannot be undone.`
      : `Accept offer ${offer.number}? We book a dossier for you at once with this route, cargo and these prices. This cannot be undone.`,
    rejected: `Reject offer ${offer.number}? It can no longer be accepted afterwards.`,
    cancelled: staff
      ? `Cancel offer ${offer.number}? The customer can no longer accept it, and it cannot be reopened.`
      : `Cancel offer ${offer.number}? It cannot be reopened.`,
  };
}

/** Field labels: the form, its errors, the history tab. */
export const OFFER_FIELD_LABELS: Record<string, string> = {
  number: 'Number',
  status: 'Status',
  customerId: 'Customer',
  contactName: 'Contact name',
  contactEmail: 'Contact email',
  validUntil: 'Valid until',
  originLocode: 'Origin',
  destinationLocode: 'Destination',
  mode: 'Mode',
  incoterm: 'Incoterm',
  incotermPlace: 'Incoterm place',
  dossierType: 'Dossier type',
  cargoDescription: 'Cargo description',
  packages: 'Packages',
  packageType: 'Package type',
  grossWeightKg: 'Gross weight (kg)',
  volumeM3: 'Volume (m³)',
  notes: 'Internal notes',
  lines: 'Lines',
  dossierId: 'Dossier',
  sentAt: 'Sent',
  decidedAt: 'Decided',
  decidedBy: 'Decided by',
  'lines.chargeCode': 'Charge',
  'lines.description': 'Description',
  'lines.quantity': 'Quantity',
  'lines.unit': 'Unit',
  'lines.unitPrice': 'Unit price',
  'lines.currency': 'Currency',
  'lines.exchangeRate': 'Exchange rate',
  'lines.vatCode': 'VAT code',
  'lines.vatRate': 'VAT rate',
};
