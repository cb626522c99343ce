import { z } from 'zod';
import { currencyCodeSchema, latestTodayOnEarth, MONEY_COLUMN } from './dossiers.ts';
import { currencyDecimalsProblem } from './money.ts';
import { partyRefSchema } from './parties.ts';
import { calendarDate, decimal, int, optionalText, text, versionSchema } from './primitives.ts';
import { csvOf, type FieldVisibility, listQueryBaseSchema, uuidSchema } from './records.ts';
import { normalizeSscc, ssccProblem } from './validators/gs1.ts';
import {
  commodityCodeProblem,
  isCountryCode,
  mrnProblem,
  normalizeCommodityCode,
  normalizeMrn,
} from './validators/index.ts';
import {
  CUSTOMS_STATUSES,
  HANDLING_UNIT_KINDS,
  HANDLING_UNIT_PARENTS,
  type HandlingUnitKind,
  locationProblem,
  MAX_RECEIPT_LINES,
  MAX_UNITS_PER_LINE,
  MOVEMENT_KINDS,
  normalizeLocation,
  STOCK_ACTIONS,
  STOCK_UNITS,
  skuProblem,
} from './warehouse-values.ts';

/**
 * The stock side of the customs warehouse (issue 13): receipts make stock records, a record holds its
 * handling units as a tree (pallets by SSCC, cartons, items; a parent's quantity is the sum of its
 * children's) and its movements (append-only; on hand is their sum). Shapes only: the values and
 * walking order are warehouse-values.ts', the SSCC rules validators/gs1.ts'. ADR 0034.
 */

export const customsStatusSchema = z.enum(CUSTOMS_STATUSES, {
  message: 'Choose a customs status from the list',
});
export const stockUnitSchema = z.enum(STOCK_UNITS, { message: 'Choose a unit from the list' });
export const handlingUnitKindSchema = z.enum(HANDLING_UNIT_KINDS, {
  message: 'Choose pallet, carton or item',
});
export const movementKindSchema = z.enum(MOVEMENT_KINDS);

/** Column sizes (migration 0023). */
const MASS_COLUMN = { precision: 14, scale: 3 } as const;
const MAX_QUANTITY = 1_000_000_000;

/** A location code as typed ("rtm1 a 03 02") made canonical (`RTM1-A-03-02`), then checked. */
export const locationSchema = z
  .string({ error: 'Enter the location' })
  .max(60, 'A location has at most 40 characters')
  .transform(normalizeLocation)
  .superRefine((v, ctx) => {
    const p = locationProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: p });
  });

const optionalLocation = z
  .string({ error: 'Enter the location' })
  .max(60, 'A location has at most 40 characters')
  .transform(normalizeLocation)
  .transform((s) => (s === '' ? null : s))
  .superRefine((v, ctx) => {
    const p = v === null ? undefined : locationProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: p });
  })
  .nullish();

/** An article number: trimmed, checked, stored upper-case (compared case-insensitively). */
export const skuSchema = z
  .string({ error: 'Enter the article number (SKU)' })
  .trim()
  .max(60, 'An article number has at most 40 characters')
  .superRefine((v, ctx) => {
    const p = skuProblem(v);
    if (p) ctx.addIssue({ code: 'custom', message: p });
  })
  .transform((s) => s.toUpperCase());

/**
 * An identifier as typed: normalized, empty read as none, then judged by its validator (whose sentence
 * is the message). `max` bounds the raw text before normalizing.
 */
function normalizedCode(
  required: string,
  max: { length: number; message: string },
  normalize: (value: string) => string,
  problem: (value: string) => string | undefined,
) {
  return z
    .string({ error: required })
    .max(max.length, max.message)
    .transform(normalize)
    .transform((s) => (s === '' ? null : s))
    .superRefine((v, ctx) => {
      const p = v === null ? undefined : problem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    })
    .nullish();
}

/** An SSCC as typed or scanned (spaces, "(00)", a 20-digit scan): normalized, then its check digit checked. */
const ssccInput = normalizedCode(
  'Enter the SSCC',
  { length: 40, message: 'An SSCC has 18 digits' },
  normalizeSscc,
  ssccProblem,
);

const mrnInput = normalizedCode(
  'Enter the MRN',
  { length: 40, message: 'An MRN has 18 characters' },
  normalizeMrn,
  (v) => mrnProblem(v),
);

const commodityCode = normalizedCode(
  'Enter the commodity code',
  { length: 20, message: 'A commodity code has 8 or 10 digits' },
  normalizeCommodityCode,
  commodityCodeProblem,
);

const countryOfOrigin = z
  .string({ error: 'Enter a country code' })
  .trim()
  .toUpperCase()
  .transform((s) => (s === '' ? null : s))
  .refine((v) => v === null || isCountryCode(v), 'Enter an ISO 3166 country code of 2 letters, e.g. CN')
  .nullish();

const mass = decimal({ ...MASS_COLUMN, positive: true }).nullish();

/** One handling unit of a receipt line, with the units it holds. */
export interface HandlingUnitInput {
  kind: HandlingUnitKind;
  sscc?: string | null;
  reference?: string | null;
  quantity: number;
  location?: string | null;
  children?: HandlingUnitInput[];
}

/**
 * How deep units nest: pallet > carton > item (HANDLING_UNIT_PARENTS) makes no valid tree deeper. The
 * schema is built to that depth instead of recursing lazily: a recursive schema followed a body
 * thousands of levels deep until the stack ran out (a 500).
 */
export const MAX_UNIT_DEPTH = 3;

function unitLevel(depth: number): z.ZodType<HandlingUnitParsed, HandlingUnitInput> {
  return z.strictObject({
    kind: handlingUnitKindSchema,
    /** Pallets and cartons only; a pallet without one gets one from the company's GS1 prefix. */
    sscc: ssccInput,
    reference: optionalText(40),
    quantity: int({ min: 1, max: MAX_QUANTITY }),
    /** The line's location when left out. */
    location: optionalLocation,
    children:
      depth < MAX_UNIT_DEPTH
        ? z
            .array(unitLevel(depth + 1))
            .max(MAX_UNITS_PER_LINE)
            .optional()
        : // Not looked into: whatever is here is one level too many.
          z
            .array(z.unknown())
            .max(0, `Handling units nest at most ${MAX_UNIT_DEPTH} deep: pallet, carton, item`)
            .optional(),
  }) as unknown as z.ZodType<HandlingUnitParsed, HandlingUnitInput>;
}

export const handlingUnitInputSchema: z.ZodType<HandlingUnitParsed, HandlingUnitInput> = unitLevel(1);
export interface HandlingUnitParsed {
  kind: HandlingUnitKind;
  sscc?: string | null | undefined;
  reference?: string | null | undefined;
  quantity: number;
  location?: string | null | undefined;
  children?: HandlingUnitParsed[] | undefined;
}

type Path = (string | number)[];

/**
 * The tree rules of one line's units, with the path of each problem: kinds per HANDLING_UNIT_PARENTS
 * (a pallet is only ever a root), SSCCs on pallets and cartons only, a parent's quantity equal to the
 * sum of its children's, the roots' sum equal to the line's quantity, at most MAX_UNITS_PER_LINE units.
 * Exported so the API's pure checks and the receipt form say the same.
 */
export function handlingUnitIssues(
  units: readonly HandlingUnitParsed[],
  lineQuantity: number,
): { path: Path; message: string }[] {
  const out: { path: Path; message: string }[] = [];
  let count = 0;
  const walk = (list: readonly HandlingUnitParsed[], parent: HandlingUnitParsed | null, path: Path) => {
    list.forEach((u, j) => {
      count++;
      const here = [...path, j];
      if (parent && !HANDLING_UNIT_PARENTS[u.kind].includes(parent.kind))
        out.push({
          path: [...here, 'kind'],
          message:
            u.kind === 'pallet'
              ? 'A pallet cannot sit inside another unit'
              : `A ${u.kind} cannot sit in a ${parent.kind}`,
        });
      if (u.kind === 'item' && u.sscc)
        out.push({ path: [...here, 'sscc'], message: 'Only pallets and cartons carry an SSCC' });
      const children = u.children ?? [];
      if (children.length) {
        const sum = children.reduce((s, c) => s + c.quantity, 0);
        if (sum !== u.quantity)
          out.push({
            path: [...here, 'quantity'],
            message: `The units inside hold ${sum}; this ${u.kind} says ${u.quantity}`,
          });
        walk(children, u, [...here, 'children']);
      }
    });
  };
  walk(units, null, []);
  if (count > MAX_UNITS_PER_LINE)
    out.push({ path: [], message: `A line takes at most ${MAX_UNITS_PER_LINE} handling units` });
  if (units.length) {
    const sum = units.reduce((s, u) => s + u.quantity, 0);
    if (sum !== lineQuantity)
      out.push({
        path: ['quantity'],
        message: `The handling units hold ${sum}; the line's quantity is ${lineQuantity}`,
      });
  }
  return out;
}

const isNumber = (s: unknown): s is string => typeof s === 'string' && /^\d+(\.\d+)?$/.test(s);

export const stockReceiptLineInputSchema = z
  .strictObject({
    sku: skuSchema,
    description: text(200, { min: 1 }),
    commodityCode,
    countryOfOrigin,
    unit: stockUnitSchema.default('H87'),
    quantity: int({ min: 1, max: MAX_QUANTITY }),
    location: locationSchema,
    packages: int({ min: 0, max: 99_999_999 }).nullish(),
    grossMassKg: mass,
    netMassKg: mass,
    value: decimal({ ...MONEY_COLUMN, min: 0 }).nullish(),
    /** Required with a value. */
    currency: currencyCodeSchema.or(z.literal('').transform(() => null)).nullish(),
    handlingUnits: z.array(handlingUnitInputSchema).max(MAX_UNITS_PER_LINE).optional(),
  })
  .superRefine((line, ctx) => {
    const { grossMassKg, netMassKg, value, currency, quantity, handlingUnits } = line as Record<
      string,
      unknown
    >;
    if (isNumber(grossMassKg) && isNumber(netMassKg) && Number(netMassKg) > Number(grossMassKg))
      ctx.addIssue({
        code: 'custom',
        path: ['netMassKg'],
        message: 'The net mass cannot be more than the gross mass',
      });
    if (typeof value === 'string' && !currency)
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'Enter the currency of the value' });
    if (typeof value === 'string' && typeof currency === 'string') {
      const p = currencyDecimalsProblem(value, currency);
      if (p) ctx.addIssue({ code: 'custom', path: ['value'], message: p });
    }
    if (Array.isArray(handlingUnits) && typeof quantity === 'number')
      for (const issue of handlingUnitIssues(handlingUnits as HandlingUnitParsed[], quantity))
        ctx.addIssue({
          code: 'custom',
          path: issue.path[0] === 'quantity' ? issue.path : ['handlingUnits', ...issue.path],
          message: issue.message,
        });
  });
export type StockReceiptLineInput = z.input<typeof stockReceiptLineInputSchema>;
export type StockReceiptLineParsed = z.output<typeof stockReceiptLineInputSchema>;

/** Every SSCC of a receipt's units with its path (`lines.0.handlingUnits.1.children.0.sscc`). */
export function ssccPaths(lines: readonly { handlingUnits?: readonly HandlingUnitParsed[] | undefined }[]) {
  const out: { path: Path; sscc: string }[] = [];
  const walk = (list: readonly HandlingUnitParsed[], path: Path) =>
    list.forEach((u, j) => {
      if (u.sscc) out.push({ path: [...path, j, 'sscc'], sscc: u.sscc });
      if (u.children) walk(u.children, [...path, j, 'children']);
    });
  for (const [i, l] of lines.entries()) walk(l.handlingUnits ?? [], ['lines', i, 'handlingUnits']);
  return out;
}

/**
 * `POST /api/stock-receipts`. Non-Union goods under customs warehousing arrive under a declaration:
 * the owner's released H2 declaration in this system (by id or MRN; the API copies its MRN), or an MRN
 * marked as external (receiptEntryProblems, ADR 0046). Pallets without an SSCC
 * get one from the company's GS1 prefix; a duplicate SSCC is a 409 on its path.
 */
export const stockReceiptCreateSchema = z
  .strictObject({
    ownerId: uuidSchema,
    receivedOn: calendarDate.refine(
      (d) => d <= latestTodayOnEarth(),
      'Goods cannot be received in the future',
    ),
    customsStatus: customsStatusSchema,
    inboundMrn: mrnInput,
    /** The MRN is another declarant's (lodged outside this system); else it must be one of ours. */
    inboundMrnExternal: z.boolean({ error: 'Send true or false' }).optional(),
    entryDeclarationId: uuidSchema.nullish(),
    notes: optionalText(2000),
    lines: z
      .array(stockReceiptLineInputSchema)
      .min(1, 'Add at least one line')
      .max(MAX_RECEIPT_LINES, `At most ${MAX_RECEIPT_LINES} lines`),
  })
  .superRefine((r, ctx) => {
    const { customsStatus, inboundMrn, entryDeclarationId, lines } = r as Record<string, unknown>;
    if (customsStatus === 'non_union_customs_warehousing' && !inboundMrn && !entryDeclarationId)
      ctx.addIssue({
        code: 'custom',
        path: ['inboundMrn'],
        message:
          'Non-Union goods under customs warehousing need their entry: the H2 declaration, or its MRN marked as external',
      });
    if (!Array.isArray(lines)) return;
    const seen = new Map<string, string>();
    for (const { path, sscc } of ssccPaths(lines as { handlingUnits?: HandlingUnitParsed[] }[])) {
      const first = seen.get(sscc);
      if (first) ctx.addIssue({ code: 'custom', path, message: `This SSCC is already given at ${first}` });
      else seen.set(sscc, path.join('.'));
    }
  });
export type StockReceiptCreate = z.input<typeof stockReceiptCreateSchema>;
export type StockReceiptCreateParsed = z.output<typeof stockReceiptCreateSchema>;

/**
 * `POST /api/stock/{id}/movements`: a transfer (of one unit and what it holds, or of the whole record)
 * or an adjustment with its reason. With units an adjustment names a leaf unit; nothing may fall
 * below what shipments have reserved.
 */
export const stockMovementCreateSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('transfer'),
      version: versionSchema,
      toLocation: locationSchema,
      handlingUnitId: uuidSchema.nullish(),
    }),
    z.strictObject({
      kind: z.literal('adjustment'),
      version: versionSchema,
      quantity: int({ min: -MAX_QUANTITY, max: MAX_QUANTITY }).refine(
        (q) => q !== 0,
        'An adjustment changes the quantity: enter more or less than 0',
      ),
      reason: text(500, { min: 3 }),
      handlingUnitId: uuidSchema.nullish(),
    }),
  ],
  { error: 'Choose transfer or adjustment' },
);
export type StockMovementCreate = z.input<typeof stockMovementCreateSchema>;
export type StockMovementCreateParsed = z.output<typeof stockMovementCreateSchema>;

export const stockListQuerySchema = listQueryBaseSchema.extend({
  ownerId: uuidSchema.optional(),
  /** The start of an article number, any case. */
  sku: z.string().trim().max(40).optional(),
  customsStatus: csvOf(customsStatusSchema).optional(),
  /** The start of a location code (`RTM1-A`), any case. */
  location: z.string().trim().max(40).optional(),
  /** Received on or after / on or before this day. */
  from: calendarDate.optional(),
  to: calendarDate.optional(),
  /** `true`: only records with something available (on hand − reserved > 0). */
  available: z.enum(['true', 'false'], { error: 'Send true or false' }).optional(),
  /** `true`: only records with goods still here (on hand > 0), as the dashboard counts stock. */
  onHand: z.enum(['true', 'false'], { error: 'Send true or false' }).optional(),
  receiptId: uuidSchema.optional(),
});
export type StockListQuery = z.infer<typeof stockListQuerySchema>;

export const stockReceiptListQuerySchema = listQueryBaseSchema.extend({
  ownerId: uuidSchema.optional(),
  /** The start of a receipt number or inbound MRN, any case. */
  reference: z.string().trim().max(40).optional(),
  from: calendarDate.optional(),
  to: calendarDate.optional(),
});
export type StockReceiptListQuery = z.infer<typeof stockReceiptListQuerySchema>;

/** `GET /api/stock/{id}/movements`: newest first, keyset-paged. */
export const stockMovementListQuerySchema = listQueryBaseSchema.pick({
  page: true,
  pageSize: true,
  cursor: true,
});
export type StockMovementListQuery = z.infer<typeof stockMovementListQuerySchema>;

/** `GET /api/stock/availability`: what a shipment line may take, as you type its SKU. */
export const stockAvailabilityQuerySchema = z.object({
  /** Staff: required; a customer: their own party (another is 404). */
  ownerId: uuidSchema.optional(),
  q: z.string().trim().max(40).default(''),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'Enter a whole number (digits only)')
    .transform(Number)
    .pipe(int({ min: 1, max: 50 }))
    .default(20),
});
export type StockAvailabilityQuery = z.infer<typeof stockAvailabilityQuerySchema>;

// ---- what the API answers ------------------------------------------------------------------------

const userRefSchema = z.object({ id: z.string(), name: z.string() });
const recordRefSchema = z.object({ id: z.string(), number: z.string() });

export const stockRecordListItemSchema = z.object({
  id: z.string(),
  receipt: recordRefSchema,
  owner: partyRefSchema,
  sku: z.string(),
  description: z.string(),
  commodityCode: z.string().nullable(),
  unit: stockUnitSchema,
  quantityReceived: z.number().int(),
  quantityOnHand: z.number().int(),
  quantityReserved: z.number().int(),
  quantityAvailable: z.number().int(),
  customsStatus: customsStatusSchema,
  inboundMrn: z.string().nullable(),
  receivedOn: z.string(),
  /** Where most of the quantity is (ties: walking order). */
  location: z.string(),
  /** Distinct locations of the root units (1 without units). */
  locationCount: z.number().int(),
  pallets: z.number().int(),
  value: z.string().nullable(),
  currency: z.string().nullable(),
  updatedAt: z.string(),
});
export type StockRecordListItem = z.infer<typeof stockRecordListItemSchema>;

export const handlingUnitSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  kind: handlingUnitKindSchema,
  sscc: z.string().nullable(),
  reference: z.string().nullable(),
  quantity: z.number().int(),
  /** Kept on root units (reservations take whole roots' quantities); 0 below them. */
  quantityReserved: z.number().int(),
  location: z.string(),
  position: z.number().int(),
});
export type HandlingUnit = z.infer<typeof handlingUnitSchema>;

const unitRefSchema = z.object({
  id: z.string(),
  kind: handlingUnitKindSchema,
  sscc: z.string().nullable(),
  reference: z.string().nullable(),
});

export const stockMovementSchema = z.object({
  id: z.string(),
  kind: movementKindSchema,
  /** Signed: receipt +, pick −, adjustment ±, transfer 0. */
  quantity: z.number().int(),
  handlingUnit: unitRefSchema.nullable(),
  fromLocation: z.string().nullable(),
  toLocation: z.string().nullable(),
  reason: z.string().nullable(),
  shipment: recordRefSchema.nullable(),
  at: z.string(),
  by: userRefSchema.nullable(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

export const stockRecordSchema = stockRecordListItemSchema.extend({
  countryOfOrigin: z.string().nullable(),
  packages: z.number().int().nullable(),
  grossMassKg: z.string().nullable(),
  netMassKg: z.string().nullable(),
  entryDeclaration: z.object({ id: z.string(), lrn: z.string(), mrn: z.string().nullable() }).nullable(),
  /** Internal: null for customers. */
  notes: z.string().nullable(),
  /** Flat, depth-first (each unit before what it holds, siblings by position). */
  handlingUnits: z.array(handlingUnitSchema),
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
  allowedActions: z.array(z.enum(STOCK_ACTIONS)),
});
export type StockRecord = z.infer<typeof stockRecordSchema>;

export type HandlingUnitNode = HandlingUnit & { children: HandlingUnitNode[]; movements: StockMovement[] };
export const handlingUnitNodeSchema: z.ZodType<HandlingUnitNode> = z.lazy(() =>
  handlingUnitSchema.extend({
    children: z.array(handlingUnitNodeSchema),
    movements: z.array(stockMovementSchema),
  }),
);

export const stockTreeSchema = z.object({
  stock: stockRecordListItemSchema,
  units: z.array(handlingUnitNodeSchema),
  /** Movements of the record as a whole (no unit named). */
  movements: z.array(stockMovementSchema),
});
export type StockTree = z.infer<typeof stockTreeSchema>;

export const stockReceiptSchema = z.object({
  id: z.string(),
  number: z.string(),
  owner: partyRefSchema,
  receivedOn: z.string(),
  customsStatus: customsStatusSchema,
  inboundMrn: z.string().nullable(),
  /** The inbound MRN is another declarant's, not a declaration of this system. */
  inboundMrnExternal: z.boolean(),
  entryDeclaration: z.object({ id: z.string(), lrn: z.string(), mrn: z.string().nullable() }).nullable(),
  /** Internal: null for customers. */
  notes: z.string().nullable(),
  lines: z.array(stockRecordListItemSchema),
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
});
export type StockReceipt = z.infer<typeof stockReceiptSchema>;

export const stockReceiptListItemSchema = z.object({
  id: z.string(),
  number: z.string(),
  owner: partyRefSchema,
  receivedOn: z.string(),
  customsStatus: customsStatusSchema,
  inboundMrn: z.string().nullable(),
  lines: z.number().int(),
  quantity: z.number().int(),
  createdAt: z.string(),
});
export type StockReceiptListItem = z.infer<typeof stockReceiptListItemSchema>;

export const stockAvailabilitySchema = z.object({
  sku: z.string(),
  description: z.string(),
  unit: stockUnitSchema,
  onHand: z.number().int(),
  available: z.number().int(),
  records: z.number().int(),
});
export type StockAvailability = z.infer<typeof stockAvailabilitySchema>;
/** `GET /api/stock/availability` answers `{ items }`, SKUs in order. */
export const stockAvailabilityResponseSchema = z.object({ items: z.array(stockAvailabilitySchema) });
export type StockAvailabilityResponse = z.infer<typeof stockAvailabilityResponseSchema>;

/** Customers see their own party's stock, never the internal notes. */
export const stockFieldVisibility = {
  internal: ['notes'],
  partyField: 'ownerId',
} as const satisfies FieldVisibility;
