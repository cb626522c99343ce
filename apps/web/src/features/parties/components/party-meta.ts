import { COUNTRY_CODES, PARTY_KINDS } from '@fvg/contracts';

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

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return undefined;
  }
})();

/** 'NL' → 'Netherlands'; codes Intl does not know (XI) stay as they are. */
export function countryName(code: string): string {
  if (code === 'XI') return 'Northern Ireland';
  try {
    return regionNames?.of(code) ?? code;
  } catch {
    return code;
  }
}

export const COUNTRY_OPTIONS = [...COUNTRY_CODES]
  .sort()
  .map((code) => ({ value: code, label: `${code} — ${countryName(code)}` }));

/** Labels of the party fields, for the history tab. */
export const PARTY_FIELD_LABELS: Record<string, string> = {
  code: 'Code',
  name: 'Name',
  kinds: 'Roles',
  countryCode: 'Country',
  vatNumber: 'VAT number',
  eori: 'EORI',
  street: 'Street',
  postalCode: 'Postal code',
  city: 'City',
  email: 'Email',
  phone: 'Phone',
  contacts: 'Contacts',
};
