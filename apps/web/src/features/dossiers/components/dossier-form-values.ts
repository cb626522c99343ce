import type { Dossier } from '@fvg/contracts';
import {
  emptyTexts,
  orNull,
  orUndefined,
  text,
  textsOf,
  wholeNumber,
} from '../../../components/records/form-values.ts';
import type { LookupOption } from '../../../components/records/record-select.tsx';

export interface ContainerFormValue {
  number: string;
  sizeType: string;
  seals: string[];
}

/** The dossier form as its inputs hold it: text throughout ('' for empty), the containers as rows. */
export interface DossierFormValues {
  type: string;
  mode: string;
  customerId: string;
  consignorId: string;
  consigneeId: string;
  notifyPartyId: string;
  incoterm: string;
  incotermPlace: string;
  originLocode: string;
  destinationLocode: string;
  etd: string;
  eta: string;
  atd: string;
  ata: string;
  customerReference: string;
  bookingNumber: string;
  masterBl: string;
  houseBl: string;
  cmrNumber: string;
  cargoDescription: string;
  packages: string;
  packageType: string;
  grossWeightKg: string;
  volumeM3: string;
  chargeableWeightKg: string;
  handlerId: string;
  containers: ContainerFormValue[];
}

export const emptyContainer = (): ContainerFormValue => ({ number: '', sizeType: '', seals: [] });

/** The dossier's own texts and numbers, as they are named on the record and in the form. */
const TEXT_FIELDS = [
  'incoterm',
  'incotermPlace',
  'originLocode',
  'destinationLocode',
  'etd',
  'eta',
  'atd',
  'ata',
  'customerReference',
  'bookingNumber',
  'masterBl',
  'houseBl',
  'cmrNumber',
  'cargoDescription',
  'packages',
  'packageType',
  'grossWeightKg',
  'volumeM3',
  'chargeableWeightKg',
] as const;

export function emptyDossierValues(): DossierFormValues {
  return {
    ...emptyTexts(['type', 'mode', 'customerId', 'consignorId', 'consigneeId', 'notifyPartyId']),
    ...emptyTexts(TEXT_FIELDS),
    handlerId: '',
    containers: [],
  };
}

export function dossierValues(d: Dossier): DossierFormValues {
  return {
    type: d.type,
    mode: d.mode,
    customerId: d.customer.id,
    consignorId: text(d.consignor?.id),
    consigneeId: text(d.consignee?.id),
    notifyPartyId: text(d.notifyParty?.id),
    ...textsOf(d, TEXT_FIELDS),
    handlerId: text(d.handler?.id),
    containers: d.containers.map((c) => ({
      number: c.number,
      sizeType: text(c.sizeType),
      seals: [...c.seals],
    })),
  };
}

/** The labels of the parties and handler a dossier already names, so pickers need not look them up. */
export function knownOptionsOf(
  d: Dossier | undefined,
): Partial<Record<keyof DossierFormValues, LookupOption>> {
  if (!d) return {};
  const party = (p: { id: string; code: string; name: string } | null) =>
    p ? { value: p.id, label: `${p.name} (${p.code})` } : undefined;
  const entries: [keyof DossierFormValues, LookupOption | undefined][] = [
    ['customerId', party(d.customer)],
    ['consignorId', party(d.consignor)],
    ['consigneeId', party(d.consignee)],
    ['notifyPartyId', party(d.notifyParty)],
    ['handlerId', d.handler ? { value: d.handler.id, label: d.handler.name } : undefined],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}

/**
 * The form values as dossierCreateSchema takes them: empty ids and numbers become null (the schema
 * turns empty texts into null itself), packages a JSON number, an empty type, mode or customer stays
 * missing ("Required").
 */
export function dossierInput(values: DossierFormValues) {
  return {
    ...values,
    type: orUndefined(values.type),
    mode: orUndefined(values.mode),
    customerId: orUndefined(values.customerId),
    consignorId: orNull(values.consignorId),
    consigneeId: orNull(values.consigneeId),
    notifyPartyId: orNull(values.notifyPartyId),
    handlerId: orNull(values.handlerId),
    packages: wholeNumber(values.packages),
    grossWeightKg: orNull(values.grossWeightKg),
    volumeM3: orNull(values.volumeM3),
    chargeableWeightKg: orNull(values.chargeableWeightKg),
  };
}

/** The fields a customer's booking request has (bookingRequestSchema). */
export const BOOKING_FIELDS = [
  'type',
  'mode',
  'incoterm',
  'incotermPlace',
  'originLocode',
  'destinationLocode',
  'etd',
  'customerReference',
  'cargoDescription',
  'packages',
  'packageType',
  'grossWeightKg',
  'volumeM3',
  'containers',
] as const satisfies readonly (keyof DossierFormValues)[];

export function bookingInput(values: DossierFormValues) {
  const all = dossierInput(values) as Record<string, unknown>;
  return Object.fromEntries(BOOKING_FIELDS.map((key) => [key, all[key]]));
}
