import type { Party } from '@fvg/contracts';

/** The party form as inputs hold it: text ('' for empty), the roles, the contacts. */
export interface PartyFormValues {
  code: string;
  name: string;
  kinds: string[];
  countryCode: string;
  vatNumber: string;
  eori: string;
  peppolScheme: string;
  peppolId: string;
  street: string;
  postalCode: string;
  city: string;
  email: string;
  phone: string;
  contacts: { name: string; email: string; phone: string; role: string }[];
}

export const emptyContact = (): PartyFormValues['contacts'][number] => ({
  name: '',
  email: '',
  phone: '',
  role: '',
});

export function emptyPartyValues(): PartyFormValues {
  return {
    code: '',
    name: '',
    kinds: [],
    countryCode: '',
    vatNumber: '',
    eori: '',
    peppolScheme: '',
    peppolId: '',
    street: '',
    postalCode: '',
    city: '',
    email: '',
    phone: '',
    contacts: [],
  };
}

export function partyValues(party: Party): PartyFormValues {
  return {
    code: party.code,
    name: party.name,
    kinds: [...party.kinds],
    countryCode: party.countryCode,
    vatNumber: party.vatNumber ?? '',
    eori: party.eori ?? '',
    peppolScheme: party.peppolScheme ?? '',
    peppolId: party.peppolId ?? '',
    street: party.street ?? '',
    postalCode: party.postalCode ?? '',
    city: party.city ?? '',
    email: party.email ?? '',
    phone: party.phone ?? '',
    contacts: party.contacts.map((c) => ({
      name: c.name,
      email: c.email ?? '',
      phone: c.phone ?? '',
      role: c.role ?? '',
    })),
  };
}

/** What partyCreateSchema takes: empty optional texts become null where the schema wants it, no country is missing. */
export function partyInput(values: PartyFormValues) {
  return {
    ...values,
    countryCode: values.countryCode === '' ? undefined : values.countryCode,
    contacts: values.contacts.map((c) => ({ ...c, email: c.email.trim() === '' ? null : c.email })),
  };
}
