import type { Party } from '@fvg/contracts';
import { emptyTexts, textsOf } from '../../../components/records/form-values.ts';

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

export const emptyContact = (): PartyFormValues['contacts'][number] =>
  emptyTexts(['name', 'email', 'phone', 'role']);

/** The party's optional texts, as they are named on the record and in the form. */
const TEXT_FIELDS = [
  'vatNumber',
  'eori',
  'peppolScheme',
  'peppolId',
  'street',
  'postalCode',
  'city',
  'email',
  'phone',
] as const;

export function emptyPartyValues(): PartyFormValues {
  return { code: '', name: '', kinds: [], countryCode: '', ...emptyTexts(TEXT_FIELDS), contacts: [] };
}

export function partyValues(party: Party): PartyFormValues {
  return {
    code: party.code,
    name: party.name,
    kinds: [...party.kinds],
    countryCode: party.countryCode,
    ...textsOf(party, TEXT_FIELDS),
    contacts: party.contacts.map((c) => ({ name: c.name, ...textsOf(c, ['email', 'phone', 'role']) })),
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
