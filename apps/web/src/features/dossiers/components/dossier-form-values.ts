import type { Dossier } from '@fvg/contracts';
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

export function emptyDossierValues(): DossierFormValues {
  return {
    type: '',
    mode: '',
    customerId: '',
    consignorId: '',
    consigneeId: '',
    notifyPartyId: '',
    incoterm: '',
    incotermPlace: '',
    originLocode: '',
    destinationLocode: '',
    etd: '',
    eta: '',
    atd: '',
    ata: '',
    customerReference: '',
    bookingNumber: '',
    masterBl: '',
    houseBl: '',
    cmrNumber: '',
    cargoDescription: '',
    packages: '',
    packageType: '',
    grossWeightKg: '',
    volumeM3: '',
    chargeableWeightKg: '',
    handlerId: '',
    containers: [],
  };
}

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

export function dossierValues(d: Dossier): DossierFormValues {
  return {
    type: d.type,
    mode: d.mode,
    customerId: d.customer.id,
    consignorId: text(d.consignor?.id),
    consigneeId: text(d.consignee?.id),
    notifyPartyId: text(d.notifyParty?.id),
    incoterm: text(d.incoterm),
    incotermPlace: text(d.incotermPlace),
    originLocode: text(d.originLocode),
    destinationLocode: text(d.destinationLocode),
    etd: text(d.etd),
    eta: text(d.eta),
    atd: text(d.atd),
    ata: text(d.ata),
    customerReference: text(d.customerReference),
    bookingNumber: text(d.bookingNumber),
    masterBl: text(d.masterBl),
    houseBl: text(d.houseBl),
    cmrNumber: text(d.cmrNumber),
    cargoDescription: text(d.cargoDescription),
    packages: text(d.packages),
    packageType: text(d.packageType),
    grossWeightKg: text(d.grossWeightKg),
    volumeM3: text(d.volumeM3),
    chargeableWeightKg: text(d.chargeableWeightKg),
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

const orNull = (s: string) => (s.trim() === '' ? null : s);
const orUndefined = (s: string) => (s.trim() === '' ? undefined : s);
/** The API takes whole numbers as JSON numbers: digits become one, anything else stays for the schema to refuse. */
const wholeNumber = (s: string) =>
  s.trim() === '' ? null : /^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : s;

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
