import {
  DOSSIER_MODE_LABELS,
  DOSSIER_MODES,
  DOSSIER_STATUS_LABELS,
  DOSSIER_STATUSES,
  DOSSIER_TRANSITION_LABELS,
  DOSSIER_TYPE_LABELS,
  DOSSIER_TYPES,
  type DossierStatus,
  INCOTERMS_2020,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';

export type DossierType = (typeof DOSSIER_TYPES)[number];
export type DossierMode = (typeof DOSSIER_MODES)[number];

export const STATUS_LABELS: Readonly<Record<DossierStatus, string>> = DOSSIER_STATUS_LABELS;

export const STATUS_COLORS: Record<DossierStatus, MantineColor> = {
  requested: 'yellow',
  booked: 'blue',
  in_transit: 'indigo',
  arrived: 'cyan',
  cleared: 'teal',
  delivered: 'green',
  closed: 'gray',
  cancelled: 'red',
};

export const TYPE_LABELS: Readonly<Record<DossierType, string>> = DOSSIER_TYPE_LABELS;
export const MODE_LABELS: Readonly<Record<DossierMode, string>> = DOSSIER_MODE_LABELS;

export const STATUS_OPTIONS = DOSSIER_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));
export const TYPE_OPTIONS = DOSSIER_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }));
export const MODE_OPTIONS = DOSSIER_MODES.map((m) => ({ value: m, label: MODE_LABELS[m] }));
export const INCOTERM_OPTIONS = INCOTERMS_2020.map((t) => ({ value: t, label: t }));

export { DOSSIER_TRANSITION_LABELS };

/** Status actions that ask first, with the question. */
export const TRANSITION_CONFIRM: Partial<Record<DossierStatus, string>> = {
  cancelled: 'Cancel this dossier? A cancelled dossier cannot be reopened or edited.',
  closed: 'Close this dossier? A closed dossier can no longer be edited.',
  cleared: 'Mark this dossier as cleared by customs? This status change cannot be undone.',
  delivered: 'Mark this dossier as delivered? This status change cannot be undone.',
};

/** Field labels, for the form, the read view and the history tab. */
export const DOSSIER_FIELD_LABELS: Record<string, string> = {
  status: 'Status',
  type: 'Type',
  mode: 'Mode',
  customerId: 'Customer',
  consignorId: 'Consignor',
  consigneeId: 'Consignee',
  notifyPartyId: 'Notify party',
  incoterm: 'Incoterm',
  incotermPlace: 'Incoterm place',
  originLocode: 'Origin',
  destinationLocode: 'Destination',
  etd: 'ETD',
  eta: 'ETA',
  atd: 'Departed (ATD)',
  ata: 'Arrived (ATA)',
  customerReference: 'Customer reference',
  bookingNumber: 'Booking number',
  masterBl: 'Master BL / AWB',
  houseBl: 'House BL',
  cmrNumber: 'CMR number',
  cargoDescription: 'Cargo description',
  packages: 'Packages',
  packageType: 'Package type',
  grossWeightKg: 'Gross weight (kg)',
  volumeM3: 'Volume (m³)',
  chargeableWeightKg: 'Chargeable weight (kg)',
  handlerId: 'Handler',
  containers: 'Containers',
  charges: 'Charges',
  costTotal: 'Cost total (EUR)',
  revenueTotal: 'Revenue total (EUR)',
  number: 'Number',
};
