import {
  type Company,
  PEPPOL_SCHEME_LABELS,
  PEPPOL_SCHEMES,
  SERIES_KIND_LABELS,
  type SeriesKind,
} from '@fvg/contracts';
import { textsOf } from '../../../components/records/form-values.ts';

/** The company form as inputs hold it: text ('' for empty), numbers as typed. */
export interface CompanyFormValues {
  legalName: string;
  street: string;
  postalCode: string;
  city: string;
  countryCode: string;
  vatNumber: string;
  eori: string;
  registrationNumber: string;
  iban: string;
  bic: string;
  email: string;
  peppolScheme: string;
  peppolId: string;
  baseCurrency: string;
  paymentTermsDays: string;
  invoiceFooter: string;
  gs1CompanyPrefix: string;
  ssccExtensionDigit: string;
  /** 'YYYY-MM-DD' or '' (no period closed). */
  booksClosedUpTo: string;
  series: {
    kind: SeriesKind;
    prefix: string;
    year: number;
    nextNumber: string;
    lastIssued: number;
    /** Why the next number changes: asked only when it does. */
    reason: string;
  }[];
}

export function companyValues(c: Company): CompanyFormValues {
  return {
    legalName: c.legalName,
    ...textsOf(c, ['street', 'postalCode', 'city']),
    countryCode: c.countryCode,
    ...textsOf(c, [
      'vatNumber',
      'eori',
      'registrationNumber',
      'iban',
      'bic',
      'email',
      'peppolScheme',
      'peppolId',
    ]),
    baseCurrency: c.baseCurrency,
    ...textsOf(c, [
      'paymentTermsDays',
      'invoiceFooter',
      'gs1CompanyPrefix',
      'ssccExtensionDigit',
      'booksClosedUpTo',
    ]),
    series: c.series.map((s) => ({ ...s, nextNumber: String(s.nextNumber), reason: '' })),
  };
}

/** A whole number as typed, or the text itself so the contract names what is wrong with it. */
const whole = (value: string): number | string | undefined => {
  const t = value.trim();
  if (t === '') return undefined;
  return /^\d+$/.test(t) ? Number(t) : t;
};

/** What companyFormSchema (and PUT /api/company) takes. */
export function companyInput(values: CompanyFormValues) {
  return {
    ...values,
    paymentTermsDays: whole(values.paymentTermsDays),
    ssccExtensionDigit: whole(values.ssccExtensionDigit),
    series: values.series.map((s) => ({
      kind: s.kind,
      prefix: s.prefix,
      year: s.year,
      nextNumber: whole(s.nextNumber),
      ...(s.reason.trim() ? { reason: s.reason } : {}),
    })),
  };
}

export const COMPANY_FIELD_LABELS: Readonly<Record<string, string>> = {
  legalName: 'Legal name',
  street: 'Street',
  postalCode: 'Postal code',
  city: 'City',
  countryCode: 'Country',
  vatNumber: 'VAT number',
  eori: 'EORI number',
  registrationNumber: 'Registration number',
  iban: 'IBAN',
  bic: 'BIC',
  email: 'Email',
  peppolScheme: 'Peppol scheme',
  peppolId: 'Peppol endpoint id',
  baseCurrency: 'Base currency',
  paymentTermsDays: 'Payment terms (days)',
  invoiceFooter: 'Invoice footer',
  gs1CompanyPrefix: 'GS1 company prefix',
  ssccExtensionDigit: 'SSCC extension digit',
  booksClosedUpTo: 'Books closed up to',
  'series.prefix': 'Prefix',
  'series.reason': 'Reason for the new number',
  'series.nextNumber': 'Next number',
  'series.kind': 'Series',
};

/** History field names beyond the form's own: `series.invoice.prefix`, `series.invoice.2026.nextNumber`. */
export function companyHistoryLabels(series: readonly { kind: SeriesKind; year: number }[]) {
  const labels: Record<string, string> = { ...COMPANY_FIELD_LABELS };
  for (const s of series) {
    const name = SERIES_KIND_LABELS[s.kind];
    labels[`series.${s.kind}.prefix`] = `${name}: prefix`;
    labels[`series.${s.kind}.${s.year}.nextNumber`] = `${name}: next number ${s.year}`;
    labels[`series.${s.kind}.${s.year}.reason`] = `${name}: why the number changed`;
  }
  return labels;
}

export const PEPPOL_SCHEME_OPTIONS = PEPPOL_SCHEMES.map((value) => ({
  value,
  label: PEPPOL_SCHEME_LABELS[value],
}));
