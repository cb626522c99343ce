import {
  type Declaration,
  type DeclarationChanges,
  type DeclarationParty,
  declarationChangesSchema,
} from '@fvg/contracts';
import type { FieldValues } from 'react-hook-form';
import { contractResolver } from '../../../components/records/record-form.tsx';
import { type ItemFormValue, itemFromContract, itemToInput } from './declaration-items.tsx';
import { DECLARATION_FIELD_LABELS } from './declaration-meta.ts';

/*
 * The declaration's header and items as the detail's form holds them: text throughout ('' for empty),
 * parties as their six fields plus the party record they were taken from. `contentInputOf` turns them
 * into what the API takes (the update's content, an amendment's changes): empties → null, a party
 * with nothing typed → null.
 */

export interface PartyValue {
  partyId: string;
  name: string;
  street: string;
  postalCode: string;
  city: string;
  countryCode: string;
  eori: string;
}

export const PARTY_KEYS = ['declarant', 'representative', 'consignor', 'consignee', 'holder'] as const;
export type PartyKey = (typeof PARTY_KEYS)[number];

/** The plain text fields of the header (everything but parties, lists, the flag and the items). */
export const TEXT_FIELDS = [
  'representativeStatus',
  'officeOfLodgement',
  'officeOfExitEntry',
  'officeOfDestination',
  'countryOfDispatch',
  'countryOfDestination',
  'transportModeBorder',
  'transportModeInland',
  'meansAtDeparture',
  'meansAtDepartureCountry',
  'meansAtBorder',
  'meansAtBorderCountry',
  'incoterm',
  'incotermPlace',
  'natureOfTransaction',
  'currency',
  'invoiceTotal',
  'exchangeRate',
  'methodOfPayment',
  'additionTransportInsurance',
  'additionCommissions',
  'additionPacking',
  'deductionTransportAfterEntry',
  'deductionDuties',
  'apportionment',
  'locationOfGoods',
  'locationOfGoodsType',
  'locationOfGoodsQualifier',
  'warehouseReference',
  'limitDate',
  'guaranteeType',
  'guaranteeReference',
  'guaranteeAmount',
  'notes',
] as const;
export type TextFieldKey = (typeof TEXT_FIELDS)[number];

export type DeclarationFormValues = FieldValues &
  Record<PartyKey, PartyValue> &
  Record<TextFieldKey, string> & {
    lrn: string;
    category: string;
    officesOfTransit: string[];
    containerIndicator: boolean;
    /** DE 2/3, DE 2/2, DE 7/18: short lists of small records, text throughout ('' for none). */
    authorisations: { type: string; reference: string }[];
    additionalInformation: { code: string; text: string }[];
    seals: { identifier: string; container: string }[];
    items: ItemFormValue[];
  };

export const emptyParty = (): PartyValue => ({
  partyId: '',
  name: '',
  street: '',
  postalCode: '',
  city: '',
  countryCode: '',
  eori: '',
});

export function partyValueOf(party: DeclarationParty | null): PartyValue {
  if (!party) return emptyParty();
  return {
    partyId: party.partyId ?? '',
    name: party.name,
    street: party.street ?? '',
    postalCode: party.postalCode ?? '',
    city: party.city ?? '',
    countryCode: party.countryCode ?? '',
    eori: party.eori ?? '',
  };
}

const nullIfEmpty = (s: string) => (s.trim() === '' ? null : s.trim());

export function partyInputOf(value: PartyValue) {
  const typed = [value.name, value.street, value.postalCode, value.city, value.countryCode, value.eori];
  if (!value.partyId && typed.every((s) => s.trim() === '')) return null;
  return {
    partyId: value.partyId || null,
    name: value.name.trim(),
    street: nullIfEmpty(value.street),
    postalCode: nullIfEmpty(value.postalCode),
    city: nullIfEmpty(value.city),
    countryCode: nullIfEmpty(value.countryCode),
    eori: nullIfEmpty(value.eori),
  };
}

/** The form's values of a declaration as stored (or, for an amendment, as it stands now). */
export function formValuesOf(d: Declaration): DeclarationFormValues {
  const text = Object.fromEntries(TEXT_FIELDS.map((k) => [k, (d[k] as string | null) ?? ''])) as Record<
    TextFieldKey,
    string
  >;
  const parties = Object.fromEntries(PARTY_KEYS.map((k) => [k, partyValueOf(d[k])])) as Record<
    PartyKey,
    PartyValue
  >;
  return {
    ...text,
    ...parties,
    lrn: d.lrn,
    category: d.category,
    officesOfTransit: [...d.officesOfTransit],
    containerIndicator: d.containerIndicator,
    authorisations: d.authorisations.map((a) => ({ ...a })),
    additionalInformation: d.additionalInformation.map((a) => ({ code: a.code, text: a.text ?? '' })),
    seals: d.seals.map((s) => ({ identifier: s.identifier, container: s.container ?? '' })),
    items: d.items.map(itemFromContract),
  };
}

/** What the API takes as the declaration's content: the update's body (without version) or an amendment. */
export function contentInputOf(values: DeclarationFormValues): DeclarationChanges {
  const text = Object.fromEntries(TEXT_FIELDS.map((k) => [k, nullIfEmpty(values[k] ?? '')]));
  const parties = Object.fromEntries(PARTY_KEYS.map((k) => [k, partyInputOf(values[k])]));
  return {
    ...text,
    ...parties,
    officesOfTransit: values.officesOfTransit.map((o) => o.trim()).filter(Boolean),
    containerIndicator: values.containerIndicator,
    // A line with nothing typed (an authorisation's type alone is the default) is dropped; one half
    // filled goes as typed, for the rules to name what it lacks.
    authorisations: (values.authorisations ?? [])
      .filter((a) => a.reference.trim() !== '')
      .map((a) => ({ type: a.type, reference: a.reference.trim() })),
    additionalInformation: (values.additionalInformation ?? [])
      .filter((a) => a.code.trim() !== '' || a.text.trim() !== '')
      .map((a) => ({ code: a.code.trim(), text: nullIfEmpty(a.text) })),
    seals: (values.seals ?? [])
      .filter((s) => s.identifier.trim() !== '' || s.container !== '')
      .map((s) => ({ identifier: s.identifier.trim(), container: s.container || null })),
    items: values.items.map(itemToInput),
  } as DeclarationChanges;
}

/** Checks the content with the contract's own rules (formats, EORI, offices, items) while typing. */
export const declarationResolver = contractResolver<DeclarationFormValues>(
  declarationChangesSchema,
  contentInputOf,
  DECLARATION_FIELD_LABELS,
);

/** Errors of the items, flat by path ('items.0.netMassKg'), for the items component's cells. */
export function itemErrorsOf(errors: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    const message = (node as { message?: unknown }).message;
    if (typeof message === 'string' && path) out[path] = message;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'message' || key === 'type' || key === 'ref' || key === 'types') continue;
      walk(child, `${path}.${key}`);
    }
  };
  walk(errors, 'items');
  return out;
}
