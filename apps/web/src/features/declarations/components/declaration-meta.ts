import {
  AUTHORISATION_TYPE_LABELS,
  AUTHORISATION_TYPES,
  CUSTOMS_TRANSPORT_MODE_LABELS,
  CUSTOMS_TRANSPORT_MODES,
  DATA_ELEMENTS,
  DECLARATION_CATEGORY_LABELS,
  DECLARATION_MESSAGE_KIND_LABELS,
  DECLARATION_STATUS_LABELS,
  DECLARATION_STATUSES,
  DECLARATION_TYPE_LABELS,
  DECLARATION_TYPES,
  type DeclarationCategory,
  type DeclarationMessageKind,
  type DeclarationStatus,
  type DeclarationType,
  GUARANTEE_TYPE_LABELS,
  GUARANTEE_TYPES,
  LOCATION_QUALIFIER_LABELS,
  LOCATION_QUALIFIERS,
  LOCATION_TYPE_LABELS,
  LOCATION_TYPES,
  METHOD_OF_PAYMENT_LABELS,
  METHODS_OF_PAYMENT,
  PACKAGE_KIND_LABELS,
  PACKAGE_KINDS,
  PREVIOUS_DOCUMENT_TYPE_LABELS,
  PREVIOUS_DOCUMENT_TYPES,
  REPRESENTATIVE_STATUS_LABELS,
  REPRESENTATIVE_STATUSES,
  SANDBOX_LABEL,
  STATUSES_OF_TYPE,
  SUPPORTING_DOCUMENT_TYPE_LABELS,
  SUPPORTING_DOCUMENT_TYPES,
  TRANSIT_AUTHORISATION_TYPES,
  VALUATION_METHOD_LABELS,
  VALUATION_METHODS,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';

export {
  DATA_ELEMENTS,
  DECLARATION_CATEGORY_LABELS,
  DECLARATION_MESSAGE_KIND_LABELS,
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  SANDBOX_LABEL,
};

/** Grey while ours, blue while the authority has it, green once the goods may go, red when refused. */
export const DECLARATION_STATUS_COLORS: Record<DeclarationStatus, MantineColor> = {
  draft: 'gray',
  lodged: 'blue',
  accepted: 'cyan',
  under_control: 'orange',
  released: 'green',
  not_released: 'red',
  rejected: 'red',
  cancelled: 'dark',
  exited: 'teal',
  arrived: 'indigo',
  discharged: 'teal',
};

export const DECLARATION_TYPE_COLORS: Record<DeclarationType, MantineColor> = {
  import: 'blue',
  export: 'grape',
  transit: 'orange',
};

/** Sent messages in the timeline read as ours, received ones as the authority's; rejections in red. */
export function messageKindColor(kind: DeclarationMessageKind): MantineColor {
  switch (kind) {
    case 'lodge':
    case 'amendment_request':
    case 'cancellation_request':
      return 'gray';
    case 'rejected':
    case 'not_released':
    case 'amendment_rejected':
    case 'cancellation_rejected':
      return 'red';
    case 'under_control':
      return 'orange';
    case 'cancellation_accepted':
      return 'dark';
    default:
      return 'green';
  }
}

/** "Import · H1 — release for free circulation". */
export const typeCategoryLabel = (type: DeclarationType, category: DeclarationCategory) =>
  `${DECLARATION_TYPE_LABELS[type]} · ${DECLARATION_CATEGORY_LABELS[category]}`;

/** "New import declaration": the buttons and dialog titles. */
export const NEW_DECLARATION_LABELS: Record<DeclarationType, string> = {
  import: 'New import declaration',
  export: 'New export declaration',
  transit: 'New transit declaration',
};

const options = <T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>) =>
  values.map((value) => ({ value, label: labels[value] }));
/** "3 · Road": the code is what customs forms and brokers quote, the label what it means. */
const codedOptions = <T extends string>(values: readonly T[], labels: Readonly<Record<T, string>>) =>
  values.map((value) => ({ value, label: `${value} · ${labels[value]}` }));

export const TYPE_OPTIONS = options(DECLARATION_TYPES, DECLARATION_TYPE_LABELS);
export const STATUS_OPTIONS = options(DECLARATION_STATUSES, DECLARATION_STATUS_LABELS);
/** The statuses a list filtered to one type can show (the filter offers only those). */
export const statusOptionsOf = (type: DeclarationType | undefined) =>
  type ? options(STATUSES_OF_TYPE[type], DECLARATION_STATUS_LABELS) : STATUS_OPTIONS;
export const categoryOptionsOf = (categories: readonly DeclarationCategory[]) =>
  options(categories, DECLARATION_CATEGORY_LABELS);
export const REPRESENTATIVE_STATUS_OPTIONS = codedOptions(
  REPRESENTATIVE_STATUSES,
  REPRESENTATIVE_STATUS_LABELS,
);
export const TRANSPORT_MODE_OPTIONS = codedOptions(CUSTOMS_TRANSPORT_MODES, CUSTOMS_TRANSPORT_MODE_LABELS);
export const GUARANTEE_TYPE_OPTIONS = codedOptions(GUARANTEE_TYPES, GUARANTEE_TYPE_LABELS);
export const METHOD_OF_PAYMENT_OPTIONS = codedOptions(METHODS_OF_PAYMENT, METHOD_OF_PAYMENT_LABELS);
export const PACKAGE_KIND_OPTIONS = codedOptions(PACKAGE_KINDS, PACKAGE_KIND_LABELS);
export const SUPPORTING_DOCUMENT_OPTIONS = codedOptions(
  SUPPORTING_DOCUMENT_TYPES,
  SUPPORTING_DOCUMENT_TYPE_LABELS,
);
export const PREVIOUS_DOCUMENT_OPTIONS = codedOptions(PREVIOUS_DOCUMENT_TYPES, PREVIOUS_DOCUMENT_TYPE_LABELS);
export const VALUATION_METHOD_OPTIONS = codedOptions(VALUATION_METHODS, VALUATION_METHOD_LABELS);
export const LOCATION_TYPE_OPTIONS = codedOptions(LOCATION_TYPES, LOCATION_TYPE_LABELS);
export const LOCATION_QUALIFIER_OPTIONS = codedOptions(LOCATION_QUALIFIERS, LOCATION_QUALIFIER_LABELS);
/** A transit names only the authorisations of NCTS list CL235; imports and exports any. */
export const authorisationOptionsOf = (type: DeclarationType) =>
  codedOptions(
    type === 'transit' ? TRANSIT_AUTHORISATION_TYPES : AUTHORISATION_TYPES,
    AUTHORISATION_TYPE_LABELS,
  );

export const transportModeLabel = (mode: string | null) =>
  mode && mode in CUSTOMS_TRANSPORT_MODE_LABELS
    ? CUSTOMS_TRANSPORT_MODE_LABELS[mode as keyof typeof CUSTOMS_TRANSPORT_MODE_LABELS]
    : mode;

/** The labels of the declaration's fields as the form and the server's problems name them. */
export const DECLARATION_FIELD_LABELS: Record<string, string> = {
  type: 'Type',
  category: 'Category',
  lrn: 'LRN',
  mrn: 'MRN',
  customerId: 'Customer',
  dossierId: 'Dossier',
  declarant: 'Declarant',
  representative: 'Representative',
  representativeStatus: 'Representation',
  consignor: 'Consignor (exporter)',
  consignee: 'Consignee (importer)',
  holder: 'Holder of the transit procedure',
  name: 'Name',
  street: 'Street',
  postalCode: 'Postal code',
  city: 'City',
  countryCode: 'Country',
  eori: 'EORI',
  officeOfLodgement: 'Office of lodgement',
  officeOfExitEntry: 'Office of exit / entry',
  officeOfDestination: 'Office of destination',
  officesOfTransit: 'Offices of transit',
  countryOfDispatch: 'Country of dispatch',
  countryOfDestination: 'Country of destination',
  transportModeBorder: 'Mode of transport at the border',
  transportModeInland: 'Inland mode of transport',
  meansAtDeparture: 'Means of transport at departure',
  meansAtDepartureCountry: 'Nationality at departure',
  meansAtBorder: 'Means of transport crossing the border',
  meansAtBorderCountry: 'Nationality crossing the border',
  containerIndicator: 'Containerised',
  incoterm: 'Incoterm',
  incotermPlace: 'Incoterm place',
  natureOfTransaction: 'Nature of transaction',
  currency: 'Invoice currency',
  invoiceTotal: 'Invoice total',
  exchangeRate: 'Exchange rate',
  methodOfPayment: 'Method of payment',
  additionTransportInsurance: 'Transport and insurance to the EU border',
  additionCommissions: 'Commissions',
  additionPacking: 'Packing',
  deductionTransportAfterEntry: 'Transport after entry',
  deductionDuties: 'Import duties in the price',
  apportionment: 'Apportioned by',
  locationOfGoods: 'Location of goods',
  locationOfGoodsType: 'Type of location',
  locationOfGoodsQualifier: 'Identified by',
  warehouseReference: 'Warehouse',
  authorisations: 'Authorisations',
  additionalInformation: 'Additional information',
  seals: 'Seals',
  limitDate: 'Limit date',
  additionalProcedureCodes: 'Additional procedure',
  valuationMethod: 'Valuation method',
  supplementaryUnits: 'Supplementary units',
  guaranteeType: 'Guarantee type',
  guaranteeReference: 'Guarantee reference (GRN)',
  guaranteeAmount: 'Guarantee amount',
  notes: 'Internal notes',
  items: 'Items',
  reason: 'Reason',
  version: 'Version',
};

/** The party roles of the header, in SAD order, with the types that carry each. */
export const PARTY_ROLES = [
  { key: 'consignor', types: ['export', 'transit', 'import'] },
  { key: 'consignee', types: ['import', 'export', 'transit'] },
  { key: 'declarant', types: ['import', 'export', 'transit'] },
  { key: 'representative', types: ['import', 'export', 'transit'] },
  { key: 'holder', types: ['transit'] },
] as const satisfies readonly { key: string; types: readonly DeclarationType[] }[];
export type PartyRole = (typeof PARTY_ROLES)[number]['key'];
