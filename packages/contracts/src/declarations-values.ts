/**
 * The values of customs declarations that screens, the router and the sandbox authority read without
 * the schemas (no zod here: importing a value must not pull in the area's schemas; ADR 0023). Codes
 * follow the EU Union Customs Code data requirements where a code list exists (procedure codes,
 * representative status, transport modes, guarantee types, document types); see domain-standards.md.
 */

/** The three kinds of declaration the product lodges; `type` in every URL and record. */
export const DECLARATION_TYPES = ['import', 'export', 'transit'] as const;
export type DeclarationType = (typeof DECLARATION_TYPES)[number];

export const DECLARATION_TYPE_LABELS: Readonly<Record<DeclarationType, string>> = {
  import: 'Import',
  export: 'Export',
  transit: 'Transit',
};

/**
 * The data-requirement category of each declaration: H1 release for free circulation, H2 customs
 * warehousing (the entry of non-Union goods into the warehouse, procedure 71), B1 export, T1 external /
 * T2 internal Union transit. An import is H1 unless it enters the customs warehouse; transit chooses.
 */
export const DECLARATION_CATEGORIES = ['H1', 'H2', 'B1', 'T1', 'T2'] as const;
export type DeclarationCategory = (typeof DECLARATION_CATEGORIES)[number];

export const CATEGORIES_OF_TYPE: Readonly<Record<DeclarationType, readonly DeclarationCategory[]>> = {
  import: ['H1', 'H2'],
  export: ['B1'],
  transit: ['T1', 'T2'],
};

export const DECLARATION_CATEGORY_LABELS: Readonly<Record<DeclarationCategory, string>> = {
  H1: 'H1 — release for free circulation',
  H2: 'H2 — customs warehousing',
  B1: 'B1 — export',
  T1: 'T1 — external Union transit',
  T2: 'T2 — internal Union transit',
};

/** SAD box 1: the declaration's first subdivision (IM import, EX export) or the transit type. */
export const SAD_BOX1: Readonly<Record<DeclarationCategory, string>> = {
  H1: 'IM',
  H2: 'IM',
  B1: 'EX',
  T1: 'T1',
  T2: 'T2',
};

/**
 * The lifecycle (product.md "Customs declarations"): `draft → lodged → accepted → under_control →
 * released`, or `rejected`, `not_released`, `cancelled`; export adds `exited`, transit `arrived →
 * discharged`.
 */
export const DECLARATION_STATUSES = [
  'draft',
  'lodged',
  'accepted',
  'under_control',
  'released',
  'not_released',
  'rejected',
  'cancelled',
  'exited',
  'arrived',
  'discharged',
] as const;
export type DeclarationStatus = (typeof DECLARATION_STATUSES)[number];

export const DECLARATION_STATUS_LABELS: Readonly<Record<DeclarationStatus, string>> = {
  draft: 'Draft',
  lodged: 'Lodged',
  accepted: 'Accepted',
  under_control: 'Under control',
  released: 'Released',
  not_released: 'Not released',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  exited: 'Exited',
  arrived: 'Arrived',
  discharged: 'Discharged',
};

/** The path every declaration may take to release, and the ends every type shares. */
const TO_RELEASE: readonly DeclarationStatus[] = ['draft', 'lodged', 'accepted', 'under_control', 'released'];
const STOPPED: readonly DeclarationStatus[] = ['not_released', 'rejected', 'cancelled'];

/** The statuses a declaration of each type can reach; filters and the status badge legend read it. */
export const STATUSES_OF_TYPE: Readonly<Record<DeclarationType, readonly DeclarationStatus[]>> = {
  import: [...TO_RELEASE, ...STOPPED],
  export: [...TO_RELEASE, 'exited', ...STOPPED],
  transit: [...TO_RELEASE, 'arrived', 'discharged', ...STOPPED],
};

/** Where the authority (not the user) moves a declaration; the sandbox applies these and nothing else. */
export const AUTHORITY_TRANSITIONS: Readonly<Record<DeclarationStatus, readonly DeclarationStatus[]>> = {
  draft: [],
  lodged: ['accepted', 'rejected', 'cancelled'],
  accepted: ['under_control', 'released', 'cancelled'],
  under_control: ['released', 'not_released', 'cancelled'],
  released: ['exited', 'arrived', 'cancelled'],
  arrived: ['discharged'],
  not_released: [],
  rejected: [],
  cancelled: [],
  exited: [],
  discharged: [],
};

/**
 * Why an amendment cannot be requested in this status, as a sentence a clerk reads; undefined when it
 * can: once customs have accepted the declaration (it has its MRN) and until they decide on release.
 * Not while customs examine the goods (UCC art. 173(1): no amendment once customs have announced a
 * control), as invalidation waits for the control too (`cancellationProblem`). The API's 409 and the
 * web's disabled action say this same sentence; the sandbox answers a request that met a control with
 * SBX-R401.
 */
export function amendmentProblem(status: DeclarationStatus): string | undefined {
  switch (status) {
    case 'accepted':
      return undefined;
    case 'draft':
      return 'Nothing was lodged to amend: edit the draft instead';
    case 'lodged':
      return 'Customs have not accepted the declaration yet: an amendment can be requested once it has its MRN';
    case 'under_control':
      return 'Customs have announced a control of the goods: a declaration cannot be amended while they are examined (UCC art. 173(1)); ask again once the control is over';
    case 'released':
    case 'exited':
    case 'arrived':
    case 'discharged':
      return 'The goods have been released: the declaration can no longer be amended';
    case 'not_released':
      return 'The goods were refused release: the declaration can no longer be amended';
    default:
      return 'The declaration is closed: there is nothing to amend';
  }
}

/** Statuses in which an amendment may be requested: those `amendmentProblem` lets through. */
export const AMENDABLE_STATUSES: readonly DeclarationStatus[] = DECLARATION_STATUSES.filter(
  (s) => amendmentProblem(s) === undefined,
);

/**
 * Why a cancellation (invalidation) cannot be requested in this status, as a sentence a clerk reads;
 * undefined when it can: once lodged and before release, and for export and transit also after release
 * while the goods have not yet left or arrived. Not while customs examine the goods (UCC art. 174(1):
 * no invalidation once customs have announced a control), as an amendment waits for the control too.
 * The API's 409 and the web's disabled action say this same sentence.
 */
export function cancellationProblem(type: DeclarationType, status: DeclarationStatus): string | undefined {
  switch (status) {
    case 'lodged':
    case 'accepted':
      return undefined;
    case 'released':
      return type === 'import'
        ? 'The goods have been released for free circulation: an import declaration can no longer be cancelled'
        : undefined;
    case 'draft':
      return 'Nothing was lodged to cancel: delete the draft instead';
    case 'under_control':
      return 'Customs have announced a control of the goods: a declaration cannot be cancelled while they are examined (UCC art. 174(1)); ask again once the control is over';
    case 'exited':
      return 'The goods have left the Union: the export declaration can no longer be cancelled';
    case 'arrived':
    case 'discharged':
      return 'The goods have arrived at destination: the transit declaration can no longer be cancelled';
    default:
      return 'The declaration is closed: there is nothing to cancel';
  }
}

export function isCancellable(type: DeclarationType, status: DeclarationStatus): boolean {
  return cancellationProblem(type, status) === undefined;
}

/** What the user may do with a declaration now (the API answers the caller's subset as `allowedActions`). */
export const DECLARATION_ACTIONS = ['edit', 'delete', 'lodge', 'amend', 'cancel', 'copy'] as const;
export type DeclarationAction = (typeof DECLARATION_ACTIONS)[number];

/** A request waiting for the authority's answer; one at a time. */
export const DECLARATION_REQUESTS = ['amendment', 'cancellation'] as const;
export type DeclarationRequest = (typeof DECLARATION_REQUESTS)[number];

/** The message log: what we sent and what the authority answered (NCTS/AES message meanings). */
export const DECLARATION_MESSAGE_KINDS = [
  // sent
  'lodge',
  'amendment_request',
  'cancellation_request',
  // received
  'accepted',
  'rejected',
  'under_control',
  'released',
  'not_released',
  'exit_confirmed',
  'arrived',
  'discharged',
  'amendment_accepted',
  'amendment_rejected',
  'cancellation_accepted',
  'cancellation_rejected',
] as const;
export type DeclarationMessageKind = (typeof DECLARATION_MESSAGE_KINDS)[number];

export const DECLARATION_MESSAGE_KIND_LABELS: Readonly<Record<DeclarationMessageKind, string>> = {
  lodge: 'Declaration lodged',
  amendment_request: 'Amendment requested',
  cancellation_request: 'Cancellation requested',
  accepted: 'Accepted, MRN allocated',
  rejected: 'Rejected',
  under_control: 'Selected for control',
  released: 'Goods released',
  not_released: 'Goods not released',
  exit_confirmed: 'Exit confirmed',
  arrived: 'Arrived at destination',
  discharged: 'Procedure discharged',
  amendment_accepted: 'Amendment accepted',
  amendment_rejected: 'Amendment rejected',
  cancellation_accepted: 'Declaration invalidated',
  cancellation_rejected: 'Cancellation refused',
};

export const DECLARATION_MESSAGE_DIRECTIONS = ['sent', 'received'] as const;
export type DeclarationMessageDirection = (typeof DECLARATION_MESSAGE_DIRECTIONS)[number];

/** Status of the representation (UCC art. 18): who the declarant is to the goods' owner. */
export const REPRESENTATIVE_STATUSES = ['1', '2', '3'] as const;
export type RepresentativeStatus = (typeof REPRESENTATIVE_STATUSES)[number];

export const REPRESENTATIVE_STATUS_LABELS: Readonly<Record<RepresentativeStatus, string>> = {
  '1': 'Declarant (no representative)',
  '2': 'Direct representation',
  '3': 'Indirect representation',
};

/** Modes of transport (SAD boxes 25 and 26; Union code list). */
export const CUSTOMS_TRANSPORT_MODES = ['1', '2', '3', '4', '5', '7', '8', '9'] as const;
export type CustomsTransportMode = (typeof CUSTOMS_TRANSPORT_MODES)[number];

export const CUSTOMS_TRANSPORT_MODE_LABELS: Readonly<Record<CustomsTransportMode, string>> = {
  '1': 'Sea',
  '2': 'Rail',
  '3': 'Road',
  '4': 'Air',
  '5': 'Postal consignment',
  '7': 'Fixed transport installation',
  '8': 'Inland waterway',
  '9': 'Own propulsion',
};

/** Transit guarantee types (domain-standards.md); those marked need a guarantee reference number (GRN). */
export const GUARANTEE_TYPES = ['0', '1', '2', '3', '4', '5', '8', '9', 'A', 'R'] as const;
export type GuaranteeType = (typeof GUARANTEE_TYPES)[number];

export const GUARANTEE_TYPE_LABELS: Readonly<Record<GuaranteeType, string>> = {
  '0': 'Guarantee waiver',
  '1': 'Comprehensive guarantee',
  '2': 'Individual guarantee by guarantor',
  '3': 'Individual guarantee in cash',
  '4': 'Individual guarantee in vouchers',
  '5': 'Waiver, amount up to EUR 500',
  '8': 'Exempt public body',
  '9': 'Individual guarantee, multiple use',
  A: 'Waiver by agreement',
  R: 'Rhine or Danube waterways',
};

/**
 * How the duties and taxes are paid: DE 4/8 "calculation of taxes, method of payment" (UCC Delegated
 * and Implementing Regulation, Annex B, title II), the code each tax line carries.
 */
export const METHODS_OF_PAYMENT = [
  'A',
  'B',
  'C',
  'D',
  'E',
  'G',
  'H',
  'J',
  'K',
  'M',
  'O',
  'P',
  'R',
  'S',
  'T',
  'U',
  'V',
] as const;
export type MethodOfPayment = (typeof METHODS_OF_PAYMENT)[number];

export const METHOD_OF_PAYMENT_LABELS: Readonly<Record<MethodOfPayment, string>> = {
  A: 'Payment in cash',
  B: 'Payment by credit card',
  C: 'Payment by cheque',
  D: 'Other, e.g. direct debit',
  E: 'Deferred payment (duty account)',
  G: 'Postponed payment of VAT',
  H: 'Electronic credit transfer',
  J: 'Through the postal administration',
  K: 'Excise credit or rebate',
  M: 'Security, including a cash deposit',
  O: 'Guarantee with the intervention agency',
  P: "From the agent's cash account",
  R: 'Guarantee of the amount payable',
  S: 'Individual guarantee account',
  T: "From the agent's guarantee account",
  U: "Agent's guarantee, standing authority",
  V: "Agent's guarantee, individual authority",
};

/** The tax type of each calculated line (DE 4/3): the duty and the import VAT the estimate computes. */
export const TAX_TYPES = ['A00', 'B00'] as const;
export type TaxType = (typeof TAX_TYPES)[number];
export const TAX_TYPE_LABELS: Readonly<Record<TaxType, string>> = {
  A00: 'Customs duty',
  B00: 'Import VAT',
};

/** The guarantee types lodged with a guarantee reference number. */
export const GUARANTEE_TYPES_WITH_GRN: readonly GuaranteeType[] = ['0', '1', '2', '4', '9'];

/** Documents an item cites (SAD box 44; Union codes, a small working subset). */
export const SUPPORTING_DOCUMENT_TYPES = [
  'N380',
  'N325',
  'N271',
  'N705',
  'N740',
  'N730',
  'N954',
  'N861',
  'Y128',
  'Y137',
  'Y237',
  'Y134',
] as const;
export type SupportingDocumentType = (typeof SUPPORTING_DOCUMENT_TYPES)[number];

export const SUPPORTING_DOCUMENT_TYPE_LABELS: Readonly<Record<SupportingDocumentType, string>> = {
  N380: 'Commercial invoice',
  N325: 'Proforma invoice',
  N271: 'Packing list',
  N705: 'Bill of lading',
  N740: 'Air waybill',
  N730: 'Road consignment note (CMR)',
  N954: 'Movement certificate EUR.1',
  N861: 'Certificate of origin',
  Y128: 'CBAM account number (authorised CBAM declarant)',
  Y137: 'CBAM de minimis: under 50 tonnes a year',
  Y237: 'CBAM: goods of Union origin',
  Y134: 'CBAM: goods from Büsingen, Heligoland or Livigno',
};

/**
 * Previous documents (SAD box 40). N830 is an export declaration: cited by a transit of exported goods,
 * its reference must be an export MRN (A, B or E in position 17).
 */
export const PREVIOUS_DOCUMENT_TYPES = ['N337', 'N355', 'N830', 'N821', 'N822', 'MRN'] as const;
export type PreviousDocumentType = (typeof PREVIOUS_DOCUMENT_TYPES)[number];

export const PREVIOUS_DOCUMENT_TYPE_LABELS: Readonly<Record<PreviousDocumentType, string>> = {
  N337: 'Temporary storage declaration',
  N355: 'Entry summary declaration',
  N830: 'Export declaration',
  N821: 'External transit declaration (T1)',
  N822: 'Internal transit declaration (T2)',
  MRN: 'Other declaration (MRN)',
};

/** Package kinds (UN/ECE Recommendation 21), a working subset. */
export const PACKAGE_KINDS = [
  'PK',
  'CT',
  'PX',
  'BG',
  'BX',
  'CS',
  'DR',
  'CR',
  'RO',
  'NE',
  'VR',
  'VQ',
] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

export const PACKAGE_KIND_LABELS: Readonly<Record<PackageKind, string>> = {
  PK: 'Package',
  CT: 'Carton',
  PX: 'Pallet',
  BG: 'Bag',
  BX: 'Box',
  CS: 'Case',
  DR: 'Drum',
  CR: 'Crate',
  RO: 'Roll',
  NE: 'Unpacked',
  VR: 'Bulk, solid granular',
  VQ: 'Bulk, liquefied gas',
};

/** The sort fields of the declaration list (keyset-paged like every list; ADR 0007). */
export const DECLARATION_SORT_FIELDS = [
  'updatedAt',
  'createdAt',
  'lrn',
  'mrn',
  'status',
  'customsValue',
] as const;
export type DeclarationSortField = (typeof DECLARATION_SORT_FIELDS)[number];

/** Every screen, SAD page and message of the shipped gateway carries this label (issue 12). */
export const SANDBOX_LABEL = 'Sandbox authority — not a real customs lodgement';

/** An LRN is the declarant's own reference: customs takes up to 22 characters (domain-standards.md). */
export const MAX_LRN_LENGTH = 22;

/**
 * Valuation method, DE 4/16 (UCC art. 70–74): 1 the transaction value, 2–6 the fallbacks in their
 * legal order (identical goods, similar goods, deductive, computed, fall-back).
 */
export const VALUATION_METHODS = ['1', '2', '3', '4', '5', '6'] as const;
export type ValuationMethod = (typeof VALUATION_METHODS)[number];
export const VALUATION_METHOD_LABELS: Readonly<Record<ValuationMethod, string>> = {
  '1': 'Transaction value of the goods imported',
  '2': 'Transaction value of identical goods',
  '3': 'Transaction value of similar goods',
  '4': 'Deductive value',
  '5': 'Computed value',
  '6': 'Fall-back method',
};

/**
 * Authorisations a declaration names, DE 2/3 (Annex B, title II, the C5xx codes): the ones a
 * forwarder's declarations cite. A transit names only those of NCTS code list CL235.
 */
export const AUTHORISATION_TYPES = [
  'C505',
  'C506',
  'C512',
  'C513',
  'C514',
  'C516',
  'C517',
  'C518',
  'C519',
  'C520',
  'C521',
  'C522',
  'C523',
  'C524',
] as const;
export type AuthorisationType = (typeof AUTHORISATION_TYPES)[number];
export const AUTHORISATION_TYPE_LABELS: Readonly<Record<AuthorisationType, string>> = {
  C505: 'Comprehensive guarantee',
  C506: 'Deferred payment',
  C512: 'Simplified declaration',
  C513: 'Centralised clearance',
  C514: "Entry in the declarant's records",
  C516: 'Temporary admission',
  C517: 'Private customs warehouse',
  C518: 'Public customs warehouse type I',
  C519: 'Public customs warehouse type II',
  C520: 'Temporary storage facility',
  C521: 'Authorised consignor (transit)',
  C522: 'Authorised consignee (transit)',
  C523: 'Seals of a special type',
  C524: 'Transit declaration with a reduced data set',
};
/** NCTS code list CL235: the authorisations an IE015 may carry. */
export const TRANSIT_AUTHORISATION_TYPES: readonly AuthorisationType[] = ['C521', 'C523', 'C524'];
/** The warehouse authorisations entry into customs warehousing (procedure 71) cites (UCC art. 211, 240). */
export const WAREHOUSE_AUTHORISATION_TYPES: readonly AuthorisationType[] = ['C517', 'C518', 'C519'];

/** Location of goods, DE 5/23: the type of location. */
export const LOCATION_TYPES = ['A', 'B', 'C', 'D'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];
export const LOCATION_TYPE_LABELS: Readonly<Record<LocationType, string>> = {
  A: 'Designated location',
  B: 'Authorised place',
  C: 'Approved place',
  D: 'Other',
};

/** Location of goods, DE 5/23: how the identification that follows is to be read. */
export const LOCATION_QUALIFIERS = ['T', 'U', 'V', 'W', 'X', 'Y', 'Z'] as const;
export type LocationQualifier = (typeof LOCATION_QUALIFIERS)[number];
export const LOCATION_QUALIFIER_LABELS: Readonly<Record<LocationQualifier, string>> = {
  T: 'Postcode and house number',
  U: 'UN/LOCODE',
  V: 'Customs office',
  W: 'GNSS coordinates',
  X: 'EORI number',
  Y: 'Authorisation number',
  Z: 'Free-text address',
};

/**
 * Additional information codes, DE 2/2 (Annex B, title II): the ones the product's users cite most; any
 * 5-character code of the Union or national list is accepted.
 */
export const ADDITIONAL_INFORMATION_LABELS: Readonly<Record<string, string>> = {
  '00100': 'Simplified authorisation',
  '00200': 'Several occurrences of documents and parties',
  '00300': 'Forwarder',
  '00500': 'Identity of declarant and importer',
  '00700': 'Goods delivered to a free zone',
  '30300': 'Export: goods under a prior export declaration',
  '30400': 'Export: the RET-EXP procedure',
  '30500': 'Export: the exporter acts for another',
  '30600': 'Export: goods leave by fixed transport installation',
};

/**
 * The Annex B data element of each field (UCC Delegated and Implementing Regulation, Annex B, title II),
 * keyed like the form's names; an item's by its field. The form shows it beside the label, and a
 * completeness problem of the lodging rules names it as its source.
 */
export const DATA_ELEMENTS: Readonly<Record<string, string>> = {
  representativeStatus: '3/21',
  countryOfDispatch: '5/14',
  countryOfDestination: '5/8',
  transportModeBorder: '7/4',
  transportModeInland: '7/5',
  meansAtDeparture: '7/7',
  meansAtDepartureCountry: '7/8',
  meansAtBorder: '7/14',
  meansAtBorderCountry: '7/15',
  containerIndicator: '7/2',
  incoterm: '4/1',
  incotermPlace: '4/1',
  natureOfTransaction: '8/5',
  currency: '4/10',
  invoiceTotal: '4/11',
  exchangeRate: '4/15',
  methodOfPayment: '4/8',
  additionTransportInsurance: '4/9',
  additionCommissions: '4/9',
  additionPacking: '4/9',
  deductionTransportAfterEntry: '4/9',
  deductionDuties: '4/9',
  locationOfGoods: '5/23',
  locationOfGoodsType: '5/23',
  locationOfGoodsQualifier: '5/23',
  warehouseReference: '2/7',
  authorisations: '2/3',
  additionalInformation: '2/2',
  seals: '7/18',
  guaranteeType: '8/2',
  guaranteeReference: '8/3',
  // Items
  commodityCode: '6/14',
  description: '6/8',
  countryOfOrigin: '5/15',
  preference: '4/17',
  procedureCode: '1/10',
  additionalProcedureCodes: '1/11',
  valuationMethod: '4/16',
  supplementaryUnits: '6/2',
  packages: '6/10',
  packageKind: '6/9',
  marks: '6/11',
  grossMassKg: '6/5',
  netMassKg: '6/1',
  invoiceValue: '4/14',
  statisticalValue: '8/6',
  containers: '7/10',
  supportingDocuments: '2/3',
  previousDocuments: '2/1',
};
