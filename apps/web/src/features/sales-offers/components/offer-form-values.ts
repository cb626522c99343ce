import { minorUnitsOf, type SalesOffer } from '@fvg/contracts';
import {
  emptyTexts,
  orNull,
  orUndefined,
  text,
  textsOf,
  wholeNumber,
} from '../../../components/records/form-values.ts';
import { todayIso } from '../../../lib/format-date.ts';
import { type OfferLineFormValue, offerLineValues, vatRateOf } from './offer-lines.tsx';

/** The offer form as its inputs hold it: text throughout ('' for empty), the lines as rows. */
export interface OfferFormValues {
  customerId: string;
  contactName: string;
  contactEmail: string;
  validUntil: string;
  originLocode: string;
  destinationLocode: string;
  mode: string;
  incoterm: string;
  incotermPlace: string;
  dossierType: string;
  cargoDescription: string;
  packages: string;
  packageType: string;
  grossWeightKg: string;
  volumeM3: string;
  notes: string;
  lines: OfferLineFormValue[];
}

/** A day `days` after `day` ('2026-11-24' + 30 → '2026-12-24'), on the calendar (no zone). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** How long a new offer is valid by default. */
export const DEFAULT_VALIDITY_DAYS = 30;

export function emptyOfferValues(today: string = todayIso()): OfferFormValues {
  return {
    ...emptyTexts([
      'customerId',
      'contactName',
      'contactEmail',
      'originLocode',
      'destinationLocode',
      'incoterm',
      'incotermPlace',
      'cargoDescription',
      'packages',
      'packageType',
      'grossWeightKg',
      'volumeM3',
      'notes',
    ]),
    validUntil: addDays(today, DEFAULT_VALIDITY_DAYS),
    mode: 'sea',
    dossierType: 'export',
    lines: [],
  };
}

export function offerValues(o: SalesOffer): OfferFormValues {
  return {
    customerId: o.customer.id,
    ...textsOf(o, ['contactName', 'contactEmail']),
    validUntil: o.validUntil,
    ...textsOf(o, ['originLocode', 'destinationLocode']),
    mode: o.mode,
    ...textsOf(o, ['incoterm', 'incotermPlace']),
    dossierType: o.dossierType,
    ...textsOf(o, ['cargoDescription', 'packages', 'packageType']),
    grossWeightKg: trimZeros(text(o.grossWeightKg), 0),
    volumeM3: trimZeros(text(o.volumeM3), 0),
    notes: text(o.notes),
    // The editor computes each net as the lines change: the saved one would not follow.
    lines: offerLineValues(o).map(({ lineNet: _, ...line }) => ({
      ...line,
      quantity: trimZeros(line.quantity, 0),
      unitPrice: trimZeros(line.unitPrice, minorUnitsOf(line.currency)),
      exchangeRate: trimZeros(line.exchangeRate, 0),
      vatRate: trimZeros(line.vatRate, 0),
    })),
  };
}

/**
 * A stored decimal as people type it: the column's trailing zeros dropped, down to `keep` decimals
 * ('2450.0000' → '2450.00' for EUR, '1.000' → '1', '12.3450' → '12.345').
 */
export function trimZeros(value: string, keep: number): string {
  const match = /^(-?\d+)(?:\.(\d*))?$/.exec(value);
  if (!match) return value;
  let decimals = match[2] ?? '';
  while (decimals.length > keep && decimals.endsWith('0')) decimals = decimals.slice(0, -1);
  return decimals ? `${match[1]}.${decimals}` : (match[1] as string);
}

/**
 * The form values as salesOfferCreateSchema takes them: empty texts and numbers become null, an empty
 * customer, mode or date stays missing ("… is required"); a line's empty rate is left out (the schema
 * asks for one in another currency), its VAT rate follows its code (vatRateOf).
 */
export function offerInput(values: OfferFormValues) {
  return {
    ...values,
    customerId: orUndefined(values.customerId),
    validUntil: orUndefined(values.validUntil),
    mode: orUndefined(values.mode),
    dossierType: orUndefined(values.dossierType),
    contactName: orNull(values.contactName),
    contactEmail: orNull(values.contactEmail),
    originLocode: orNull(values.originLocode),
    destinationLocode: orNull(values.destinationLocode),
    incoterm: orNull(values.incoterm),
    incotermPlace: orNull(values.incotermPlace),
    cargoDescription: orNull(values.cargoDescription),
    packages: wholeNumber(values.packages),
    packageType: orNull(values.packageType),
    grossWeightKg: orNull(values.grossWeightKg),
    volumeM3: orNull(values.volumeM3),
    notes: orNull(values.notes),
    lines: values.lines.map(({ lineNet: _, ...line }) => ({
      ...line,
      chargeCode: orUndefined(line.chargeCode),
      unit: orUndefined(line.unit),
      vatCode: orUndefined(line.vatCode),
      exchangeRate: orUndefined(line.exchangeRate),
      vatRate: vatRateOf(line),
    })),
  };
}
