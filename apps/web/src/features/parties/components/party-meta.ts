import { EAS_SCHEMES, PARTY_KINDS, PEPPOL_SCHEME_LABELS, VAT_ENDPOINT_SCHEMES } from '@fvg/contracts';
import { countryName } from '../../../lib/countries.ts';

export type PartyKind = (typeof PARTY_KINDS)[number];

export const PARTY_KIND_LABELS: Record<PartyKind, string> = {
  customer: 'Customer',
  consignor: 'Consignor',
  consignee: 'Consignee',
  carrier: 'Carrier',
  agent: 'Agent',
  notify: 'Notify party',
};

export const PARTY_KIND_OPTIONS = PARTY_KINDS.map((kind) => ({
  value: kind,
  label: PARTY_KIND_LABELS[kind],
}));

/**
 * The Peppol schemes (EAS codes) a party's endpoint can use: the registers the company settings name,
 * each country's VAT scheme by its country, the other codes by number.
 */
export const EAS_SCHEME_OPTIONS = EAS_SCHEMES.map((code) => {
  const known = (PEPPOL_SCHEME_LABELS as Record<string, string>)[code];
  const vatOf = Object.entries(VAT_ENDPOINT_SCHEMES).find(([c, s]) => s === code && c !== 'EL')?.[0];
  const label = known ?? (vatOf ? `${code} · ${countryName(vatOf)} VAT number` : code);
  return { value: code, label };
});

/** Labels of the party fields, for the history tab. */
export const PARTY_FIELD_LABELS: Record<string, string> = {
  code: 'Code',
  name: 'Name',
  kinds: 'Roles',
  countryCode: 'Country',
  vatNumber: 'VAT number',
  eori: 'EORI',
  peppolScheme: 'Peppol scheme',
  peppolId: 'Peppol endpoint id',
  street: 'Street',
  postalCode: 'Postal code',
  city: 'City',
  email: 'Email',
  phone: 'Phone',
  contacts: 'Contacts',
};
