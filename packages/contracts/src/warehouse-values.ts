/**
 * The values of the customs warehouse (stock, handling units, movements, shipments) that screens, the
 * router, the seed and the API read without the schemas (no zod here; ADR 0023). product.md
 * "Customs warehouse", domain-standards.md "GS1 SSCC" and "Customs warehousing".
 */
import {
  DECLARATION_STATUS_LABELS,
  type DeclarationCategory,
  type DeclarationStatus,
  type DeclarationType,
} from './declarations-values.ts';
import { mrnProblem } from './validators/mrn.ts';

/** A stock record's customs status: Union goods, or non-Union goods under customs warehousing or in temporary storage. */
export const CUSTOMS_STATUSES = ['union', 'non_union_customs_warehousing', 'temporary_storage'] as const;
export type CustomsStatus = (typeof CUSTOMS_STATUSES)[number];

export const CUSTOMS_STATUS_LABELS: Readonly<Record<CustomsStatus, string>> = {
  union: 'Union goods',
  non_union_customs_warehousing: 'Non-Union · customs warehousing',
  temporary_storage: 'Non-Union · temporary storage',
};

/** Goods that may leave only under an outbound declaration (release for free circulation or re-export). */
export const NON_UNION_STATUSES: readonly CustomsStatus[] = [
  'non_union_customs_warehousing',
  'temporary_storage',
];

export function isNonUnion(status: CustomsStatus): boolean {
  return NON_UNION_STATUSES.includes(status);
}

/** What a receipt says of the entry its goods came in under. */
export interface ReceiptEntryInput {
  ownerId: string;
  customsStatus: CustomsStatus;
  inboundMrn?: string | null;
  /** The MRN is another declarant's, lodged outside this system. */
  inboundMrnExternal?: boolean | null;
  entryDeclarationId?: string | null;
}

/** The declaration of ours a receipt names, by its id or by its MRN. */
export interface EntryDeclarationFacts {
  id: string;
  lrn: string;
  mrn: string | null;
  customerId: string;
  type: DeclarationType;
  category: DeclarationCategory;
  status: DeclarationStatus;
}

/**
 * Why a receipt's entry is not a real one (issue 23 item 10, ADR 0046): non-Union goods under customs
 * warehousing come in under an H2 declaration (procedure 71) of their owner in this system that customs
 * have released, or under an MRN marked as external (another declarant's), whose check character is
 * verified. An MRN of one of our own declarations is judged as that declaration, external mark or not.
 * `entry` is our declaration the receipt names (by id, else by its MRN), null when none has it. Every
 * receipt path (the API's create, the demo seed) calls this one function; a trigger of migration 0032
 * repeats it in the database.
 */
export function receiptEntryProblems(
  r: ReceiptEntryInput,
  entry: EntryDeclarationFacts | null,
): { field: 'inboundMrn' | 'inboundMrnExternal' | 'entryDeclarationId'; message: string }[] {
  if (r.customsStatus !== 'non_union_customs_warehousing')
    return r.entryDeclarationId
      ? [
          {
            field: 'entryDeclarationId',
            message:
              'Only non-Union goods under customs warehousing enter under an H2 declaration: leave it out, or change the customs status',
          },
        ]
      : [];
  const mrn = r.inboundMrn?.trim() || null;
  const byId = !!r.entryDeclarationId;
  const field = byId ? 'entryDeclarationId' : 'inboundMrn';
  if (!mrn && !byId)
    return [
      {
        field: 'inboundMrn',
        message:
          'Non-Union goods under customs warehousing need their entry: the H2 declaration, or its MRN marked as external',
      },
    ];
  if (byId && r.inboundMrnExternal)
    return [
      {
        field: 'inboundMrnExternal',
        message:
          'An external MRN is no declaration of this system: leave out the entry declaration or the mark',
      },
    ];
  if (entry) {
    if (entry.customerId !== r.ownerId)
      return [
        {
          field,
          message: `${entry.lrn} is another customer's declaration: goods enter under their owner's own`,
        },
      ];
    if (entry.type !== 'import' || entry.category !== 'H2')
      return [
        {
          field,
          message: `${entry.lrn} is ${entry.category === 'H1' ? 'a release for free circulation (H1)' : `a ${entry.category} declaration`}, not an entry into customs warehousing: goods come in under an H2 declaration (procedure 71)`,
        },
      ];
    if (entry.status !== 'released')
      return [
        {
          field,
          message: `${entry.lrn} is ${DECLARATION_STATUS_LABELS[entry.status].toLowerCase()}: goods enter customs warehousing once customs have released their H2 declaration`,
        },
      ];
    if (mrn && entry.mrn !== mrn)
      return [
        {
          field: 'inboundMrn',
          message: `The entry declaration's MRN is ${entry.mrn ?? 'not allocated yet'}`,
        },
      ];
    return [];
  }
  if (byId) return [{ field: 'entryDeclarationId', message: 'No such declaration of this owner' }];
  if (!r.inboundMrnExternal)
    return [
      {
        field: 'inboundMrn',
        message: `No declaration in the system has MRN ${mrn}: link the entry declaration, or mark the MRN as external (lodged by another declarant)`,
      },
    ];
  const problem = mrnProblem(mrn as string, 'import');
  return problem ? [{ field: 'inboundMrn', message: problem }] : [];
}

/** Units stock is counted in (UN/ECE Recommendation 20 codes); quantities are whole numbers of the unit. */
export const STOCK_UNITS = ['H87', 'CT', 'BX', 'BG', 'DR', 'RO', 'SET', 'PR'] as const;
export type StockUnit = (typeof STOCK_UNITS)[number];

export const STOCK_UNIT_LABELS: Readonly<Record<StockUnit, { one: string; many: string }>> = {
  H87: { one: 'piece', many: 'pieces' },
  CT: { one: 'carton', many: 'cartons' },
  BX: { one: 'box', many: 'boxes' },
  BG: { one: 'bag', many: 'bags' },
  DR: { one: 'drum', many: 'drums' },
  RO: { one: 'roll', many: 'rolls' },
  SET: { one: 'set', many: 'sets' },
  PR: { one: 'pair', many: 'pairs' },
};

/** "1 piece", "40 pieces" (the number as given; screens pass it formatted). */
export function quantityWithUnit(quantity: number | string, unit: StockUnit): string {
  const labels = STOCK_UNIT_LABELS[unit];
  return `${quantity} ${Number(quantity) === 1 ? labels.one : labels.many}`;
}

/** Handling units: pallets (by SSCC) hold cartons, cartons hold items; a pallet may also hold items directly. */
export const HANDLING_UNIT_KINDS = ['pallet', 'carton', 'item'] as const;
export type HandlingUnitKind = (typeof HANDLING_UNIT_KINDS)[number];

export const HANDLING_UNIT_KIND_LABELS: Readonly<Record<HandlingUnitKind, string>> = {
  pallet: 'Pallet',
  carton: 'Carton',
  item: 'Item',
};

/** The kinds a unit may sit in (none: it is a root unit of the stock record). */
export const HANDLING_UNIT_PARENTS: Readonly<Record<HandlingUnitKind, readonly HandlingUnitKind[]>> = {
  pallet: [],
  carton: ['pallet'],
  item: ['pallet', 'carton'],
};

/** Movements are append-only; on hand is always their sum. */
export const MOVEMENT_KINDS = ['receipt', 'transfer', 'pick', 'adjustment'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const MOVEMENT_KIND_LABELS: Readonly<Record<MovementKind, string>> = {
  receipt: 'Receipt',
  transfer: 'Transfer',
  pick: 'Pick',
  adjustment: 'Adjustment',
};

/** What a user may post to a stock record's movements (receipts and picks come from receipts and shipments). */
export const MANUAL_MOVEMENT_KINDS = ['transfer', 'adjustment'] as const;
export type ManualMovementKind = (typeof MANUAL_MOVEMENT_KINDS)[number];

/** A shipment's lifecycle: `draft → released → picking → packed → shipped`, or `cancelled`. */
export const SHIPMENT_STATUSES = ['draft', 'released', 'picking', 'packed', 'shipped', 'cancelled'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const SHIPMENT_STATUS_LABELS: Readonly<Record<ShipmentStatus, string>> = {
  draft: 'Draft',
  released: 'Released',
  picking: 'Picking',
  packed: 'Packed',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
};

/** The statuses a transition may reach (a draft is written, not reached). */
export const SHIPMENT_TRANSITION_TARGETS = ['released', 'picking', 'packed', 'shipped', 'cancelled'] as const;
export type ShipmentTransitionTarget = (typeof SHIPMENT_TRANSITION_TARGETS)[number];

export const SHIPMENT_TRANSITIONS: Readonly<Record<ShipmentStatus, readonly ShipmentTransitionTarget[]>> = {
  draft: ['released', 'cancelled'],
  released: ['picking', 'cancelled'],
  picking: ['packed', 'cancelled'],
  packed: ['shipped', 'cancelled'],
  shipped: [],
  cancelled: [],
};

/** The button of each transition, as the detail screen shows it. */
export const SHIPMENT_TRANSITION_LABELS: Readonly<Record<ShipmentTransitionTarget, string>> = {
  released: 'Release',
  picking: 'Start picking',
  packed: 'Mark packed',
  shipped: 'Ship',
  cancelled: 'Cancel shipment',
};

/** Statuses holding reservations (allocations not yet picked or freed). */
export const RESERVING_STATUSES: readonly ShipmentStatus[] = ['released', 'picking', 'packed'];

/**
 * How non-Union goods leave the warehouse by a shipment (domain-standards.md), by their customs status:
 * from customs warehousing by release for free circulation (4071, an import declaration) or re-export
 * (3171, an export declaration); from temporary storage, which is no procedure, by release for free
 * circulation (4000) or re-export (3100), citing the temporary storage declaration (issue 23 item 11,
 * ADR 0046). `outboundProcedureProblem` decides which fits which goods.
 */
export const OUTBOUND_PROCEDURES = ['4071', '3171', '4000', '3100'] as const;
export type OutboundProcedure = (typeof OUTBOUND_PROCEDURES)[number];

export const OUTBOUND_PROCEDURE_LABELS: Readonly<Record<OutboundProcedure, string>> = {
  '4071': '4071 · release for free circulation',
  '3171': '3171 · re-export',
  '4000': '4000 · release for free circulation from temporary storage',
  '3100': '3100 · re-export from temporary storage',
};

/** The declaration each outbound procedure is: its type, category, and the status that lets the goods go. */
export const OUTBOUND_DECLARATION: Readonly<
  Record<
    OutboundProcedure,
    { type: 'import' | 'export'; category: 'H1' | 'B1'; releasedBy: 'released' | 'exited' }
  >
> = {
  '4071': { type: 'import', category: 'H1', releasedBy: 'released' },
  '3171': { type: 'export', category: 'B1', releasedBy: 'exited' },
  '4000': { type: 'import', category: 'H1', releasedBy: 'released' },
  '3100': { type: 'export', category: 'B1', releasedBy: 'exited' },
};

/**
 * The requested procedures (first two digits of a procedure code) by which non-Union goods leave
 * temporary storage or customs warehousing (UCC art. 149 and 215): release for free circulation (40, 42,
 * 44), end use (61 is an import procedure too), inward processing (51), temporary admission (53),
 * customs warehousing (71) and re-export (31).
 */
const NON_UNION_EXITS = ['40', '42', '44', '61', '51', '53', '71', '31'];

/**
 * Why goods of customs status `status` may not leave under procedure `code` (requested + previous
 * procedure, e.g. 4071), as a sentence a clerk reads; undefined when they may, or when the code is not
 * 4 digits (its format is procedureCodeProblem's). Pure: the shipments' outbound procedure, the
 * declaration made from a shipment and the pre-lodging check of any declaration citing the stock's
 * entry call this one function (issue 23 item 11, ADR 0046).
 * - Temporary storage is no customs procedure (UCC art. 144–149): its goods are placed under a
 *   procedure with no previous procedure (…00), citing the temporary storage reference as previous
 *   document, or re-exported (3100). 4071 and 3171 presume customs warehousing and are refused.
 * - Customs warehousing (71) is discharged by a procedure whose previous procedure is 71 (4071, 3171, …).
 * - Union goods were never under customs warehousing: no procedure discharges 71 for them.
 */
export function outboundProcedureProblem(status: CustomsStatus, code: string): string | undefined {
  if (!/^\d{4}$/.test(code)) return undefined;
  const requested = code.slice(0, 2);
  const previous = code.slice(2);
  if (status === 'temporary_storage') {
    if (previous === '71')
      return `Goods in temporary storage are not under customs warehousing, which ${code} presumes: place them under a procedure with previous procedure 00 (e.g. 4000 release for free circulation, 7100 customs warehousing) citing their temporary storage declaration, or re-export them (3100)`;
    if (previous !== '00')
      return `Goods in temporary storage are under no procedure yet: the previous procedure of ${code} is 00, e.g. ${requested}00`;
    if (!NON_UNION_EXITS.includes(requested))
      return `Goods in temporary storage are placed under a customs procedure (e.g. 4000, 7100) or re-exported (3100), not ${code}`;
    return undefined;
  }
  if (status === 'non_union_customs_warehousing') {
    if (previous !== '71')
      return `Goods under customs warehousing leave by a procedure that discharges it (previous procedure 71), e.g. 4071 release for free circulation or 3171 re-export, not ${code}`;
    if (!NON_UNION_EXITS.includes(requested))
      return `Goods under customs warehousing leave by release for free circulation (4071), another special procedure (5171, 5371, 7171) or re-export (3171), not ${code}`;
    return undefined;
  }
  if (previous === '71')
    return `Union goods were never under customs warehousing: ${code} discharges a procedure they are not in`;
  return undefined;
}

/**
 * The previous document (box 40) under which an outbound declaration cites the inbound MRN of stock of
 * this customs status: the temporary storage declaration (N337), else the entry declaration's MRN.
 */
export function previousDocumentTypeOf(status: CustomsStatus): 'N337' | 'MRN' {
  return status === 'temporary_storage' ? 'N337' : 'MRN';
}

/**
 * The shipments' outbound procedures that fit goods of all these customs statuses (Union goods fit
 * any): what the shipment editor offers. Empty when no one declaration can take them all (goods in
 * temporary storage with goods under customs warehousing).
 */
export function outboundProceduresFor(statuses: readonly CustomsStatus[]): OutboundProcedure[] {
  return OUTBOUND_PROCEDURES.filter((p) =>
    statuses.every((s) => !isNonUnion(s) || outboundProcedureProblem(s, p) === undefined),
  );
}

/** "4071 release for free circulation or 3171 re-export": the procedures as a sentence reads them. */
export function outboundProceduresText(list: readonly OutboundProcedure[]): string {
  const words = list.map((p) => OUTBOUND_PROCEDURE_LABELS[p].replace(' · ', ' ').replace(/ from .*$/, ''));
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? '');
}

export const SHIPMENT_ACTIONS = [
  'edit',
  'delete',
  'release',
  'pick',
  'pack',
  'ship',
  'cancel',
  'declare',
  /** Staff: set or change the outbound procedure of a released shipment (issue 23 item 12). */
  'procedure',
  /** Staff, while picking: confirm allocations picked or put back (issue 27 item 6). */
  'confirmPicks',
] as const;
export type ShipmentAction = (typeof SHIPMENT_ACTIONS)[number];

export const STOCK_ACTIONS = ['transfer', 'adjust'] as const;
export type StockAction = (typeof STOCK_ACTIONS)[number];

export const STOCK_SORT_FIELDS = [
  'receivedOn',
  'sku',
  'location',
  'available',
  'onHand',
  'updatedAt',
] as const;
export const STOCK_RECEIPT_SORT_FIELDS = ['receivedOn', 'number', 'createdAt'] as const;
export const SHIPMENT_SORT_FIELDS = ['number', 'plannedDate', 'status', 'createdAt', 'updatedAt'] as const;

/** Most lines a receipt or a shipment takes, and most handling units a receipt line takes. */
export const MAX_RECEIPT_LINES = 200;
export const MAX_SHIPMENT_LINES = 200;
export const MAX_UNITS_PER_LINE = 500;

/**
 * A location code: warehouse, zone, then aisle/bin segments, upper-case letters and digits joined by
 * '-', e.g. `RTM1-A-03-02`. Walking order is the code's order, segment by segment, numbers by value.
 */
export function locationProblem(value: string): string | undefined {
  if (value === '') return 'Enter the location';
  if (value.length > 40) return 'A location has at most 40 characters';
  if (!/^[A-Z0-9]{1,10}(-[A-Z0-9]{1,10}){0,4}$/.test(value))
    return 'A location is warehouse-zone-aisle-bin in capitals and digits, e.g. RTM1-A-03-02';
  return undefined;
}

export function normalizeLocation(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/\s*[-/ ]\s*/g, '-');
}

/** The warehouse (first segment) and zone (second) of a location code. */
export function locationParts(code: string): { warehouse: string; zone: string | null; bin: string | null } {
  const [warehouse = '', zone, ...rest] = code.split('-');
  return { warehouse, zone: zone ?? null, bin: rest.length ? rest.join('-') : null };
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Walking order: by warehouse, zone, aisle and bin, numbers by value (A-2 before A-10). */
export function compareLocations(a: string, b: string): number {
  const as = a.split('-');
  const bs = b.split('-');
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = as[i];
    const y = bs[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const c = collator.compare(x, y);
    if (c !== 0) return c;
  }
  return 0;
}

/** An article number (SKU): 1–40 of letters, digits, '-', '.', '/', '_'; kept as typed, compared case-insensitively. */
export function skuProblem(value: string): string | undefined {
  if (value === '') return 'Enter the article number (SKU)';
  if (value.length > 40) return 'An article number has at most 40 characters';
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(value))
    return 'An article number has letters, digits, and . _ / - only';
  return undefined;
}

/** The label that names the warehouse in the product: the area is "Warehouse". */
export const NO_CW_ACCESS_MESSAGE =
  'You have no access to the customs warehouse. Ask an administrator for warehouse access.';
