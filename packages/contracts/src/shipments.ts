import { z } from 'zod';
import {
  DECLARATION_STATUSES,
  DECLARATION_TYPES,
  type DeclarationStatus,
  type DeclarationType,
} from './declarations-values.ts';
import { partyRefSchema } from './parties.ts';
import { calendarDate, int, optionalText, versionSchema } from './primitives.ts';
import { csvOf, type FieldVisibility, listQueryBaseSchema, uuidSchema } from './records.ts';
import { customsStatusSchema, handlingUnitKindSchema, skuSchema, stockUnitSchema } from './stock.ts';
import {
  type CustomsStatus,
  isNonUnion,
  MAX_SHIPMENT_LINES,
  OUTBOUND_DECLARATION,
  OUTBOUND_PROCEDURES,
  type OutboundProcedure,
  outboundProcedureProblem,
  outboundProceduresFor,
  outboundProceduresText,
  SHIPMENT_ACTIONS,
  SHIPMENT_STATUSES,
  SHIPMENT_TRANSITION_TARGETS,
  type ShipmentStatus,
} from './warehouse-values.ts';

/**
 * Shipments out of the customs warehouse (issue 13, ADR 0035): a line names an article (SKU) or a given
 * stock record and a quantity; releasing reserves stock first-in first-out (warehouse-fifo.ts) and
 * each line shows what it took. Shapes only; the lifecycle is warehouse-values.ts'.
 */

export const shipmentStatusSchema = z.enum(SHIPMENT_STATUSES, { message: 'Choose a status from the list' });
export const shipmentTransitionTargetSchema = z.enum(SHIPMENT_TRANSITION_TARGETS, {
  message: 'Choose released, picking, packed, shipped or cancelled',
});
export const outboundProcedureSchema = z.enum(OUTBOUND_PROCEDURES, {
  message:
    'Choose 4071 or 3171 (goods under customs warehousing), or 4000 or 3100 (goods in temporary storage)',
});

const MAX_QUANTITY = 1_000_000_000;

/** Exactly one of `sku` / `stockRecordId` (a 400 on `lines.i.sku` otherwise). */
export const shipmentLineInputSchema = z
  .strictObject({
    sku: skuSchema.optional(),
    stockRecordId: uuidSchema.optional(),
    quantity: int({ min: 1, max: MAX_QUANTITY }),
  })
  .superRefine((l, ctx) => {
    const { sku, stockRecordId } = l as { sku?: unknown; stockRecordId?: unknown };
    if ((sku === undefined) === (stockRecordId === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['sku'],
        message:
          sku === undefined
            ? 'Enter the article number (SKU), or choose a stock record'
            : 'Give the article number or the stock record, not both',
      });
  });
export type ShipmentLineInput = z.input<typeof shipmentLineInputSchema>;

const shipmentFields = {
  /** Staff: required; a customer: their own party (may be left out). */
  ownerId: uuidSchema.optional(),
  consigneeId: uuidSchema.nullish(),
  consigneeName: optionalText(200),
  deliveryAddress: optionalText(500),
  plannedDate: calendarDate.nullish(),
  outboundProcedure: outboundProcedureSchema.nullish(),
  customerReference: optionalText(50),
  /** Internal: staff only (a customer sending it gets a 400 on `notes`). */
  notes: optionalText(2000),
  lines: z
    .array(shipmentLineInputSchema)
    .min(1, 'Add at least one line')
    .max(MAX_SHIPMENT_LINES, `At most ${MAX_SHIPMENT_LINES} lines`),
};

export const shipmentCreateSchema = z.strictObject(shipmentFields);
export type ShipmentCreate = z.input<typeof shipmentCreateSchema>;
export type ShipmentCreateParsed = z.output<typeof shipmentCreateSchema>;

/** Drafts only; `lines` replaces the whole array. */
export const shipmentUpdateSchema = z.strictObject({
  ...shipmentFields,
  lines: shipmentFields.lines.optional(),
  version: versionSchema,
});
export type ShipmentUpdate = z.input<typeof shipmentUpdateSchema>;
export type ShipmentUpdateParsed = z.output<typeof shipmentUpdateSchema>;

export const shipmentTransitionSchema = z.strictObject({
  to: shipmentTransitionTargetSchema,
  version: versionSchema,
  /** Kept for `cancelled`. */
  reason: optionalText(500),
});
export type ShipmentTransition = z.input<typeof shipmentTransitionSchema>;

/**
 * Picks confirmed while a shipment is being picked (issue 27 item 6): the allocations named become
 * `picked` (taken to the packing area), or `reserved` again with `picked: false` (put back).
 */
export const shipmentPicksSchema = z.strictObject({
  allocationIds: z
    .array(uuidSchema)
    .min(1, 'Choose at least one allocation')
    .max(500, 'At most 500 allocations at once'),
  picked: z.boolean({ message: 'Say whether the goods were picked (true) or put back (false)' }),
  version: versionSchema,
});
export type ShipmentPicks = z.input<typeof shipmentPicksSchema>;

export const shipmentDeclarationSchema = z.strictObject({ version: versionSchema });
export type ShipmentDeclarationRequest = z.input<typeof shipmentDeclarationSchema>;

export const shipmentListQuerySchema = listQueryBaseSchema.extend({
  status: csvOf(shipmentStatusSchema).optional(),
  ownerId: uuidSchema.optional(),
  /** Shipments with a line of this article (prefix, any case). */
  sku: z.string().trim().max(40).optional(),
  /** The start of the shipment number or the customer's reference, any case. */
  reference: z.string().trim().max(50).optional(),
  /** Planned on or after / on or before this day. */
  from: calendarDate.optional(),
  to: calendarDate.optional(),
});
export type ShipmentListQuery = z.infer<typeof shipmentListQuerySchema>;

// ---- what the API answers ------------------------------------------------------------------------

const userRefSchema = z.object({ id: z.string(), name: z.string() });

/**
 * Where an allocation's goods are (issue 27 item 6): `reserved` at their location, `picked` taken to the
 * packing area (still on hand, still reserved), `shipped` gone with the shipment's pick movements,
 * `freed` given back by a cancellation.
 */
export const ALLOCATION_STATES = ['reserved', 'picked', 'shipped', 'freed'] as const;
export type AllocationState = (typeof ALLOCATION_STATES)[number];

export const ALLOCATION_STATE_LABELS: Readonly<Record<AllocationState, string>> = {
  reserved: 'Reserved',
  picked: 'Picked',
  shipped: 'Shipped',
  freed: 'Freed',
};

/** The states that hold a reservation on the stock: the goods are still on hand. */
export const HOLDING_ALLOCATION_STATES: readonly AllocationState[] = ['reserved', 'picked'];

/** The states an allocation may be in while its shipment has a status (a draft has no allocations). */
export const ALLOCATION_STATES_BY_STATUS: Readonly<Record<ShipmentStatus, readonly AllocationState[]>> = {
  draft: [],
  released: ['reserved'],
  picking: ['reserved', 'picked'],
  packed: ['picked'],
  shipped: ['shipped'],
  cancelled: ['freed'],
};

export const shipmentAllocationSchema = z.object({
  id: z.string(),
  stockRecordId: z.string(),
  receiptNumber: z.string(),
  receivedOn: z.string(),
  customsStatus: customsStatusSchema,
  inboundMrn: z.string().nullable(),
  handlingUnit: z
    .object({
      id: z.string(),
      kind: handlingUnitKindSchema,
      sscc: z.string().nullable(),
      reference: z.string().nullable(),
    })
    .nullable(),
  /** The unit's (or the record's) current location. */
  location: z.string(),
  quantity: z.number().int(),
  state: z.enum(ALLOCATION_STATES),
});
export type ShipmentAllocation = z.infer<typeof shipmentAllocationSchema>;

export const shipmentLineSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  sku: z.string(),
  description: z.string().nullable(),
  unit: stockUnitSchema.nullable(),
  stockRecordId: z.string().nullable(),
  quantity: z.number().int(),
  allocations: z.array(shipmentAllocationSchema),
});
export type ShipmentLine = z.infer<typeof shipmentLineSchema>;

export const shipmentDeclarationRefSchema = z.object({
  id: z.string(),
  lrn: z.string(),
  mrn: z.string().nullable(),
  type: z.enum(DECLARATION_TYPES),
  status: z.enum(DECLARATION_STATUSES),
  createdAt: z.string(),
});
export type ShipmentDeclarationRef = z.infer<typeof shipmentDeclarationRefSchema>;

export const shipmentSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: shipmentStatusSchema,
  owner: partyRefSchema,
  consignee: partyRefSchema.nullable(),
  consigneeName: z.string().nullable(),
  deliveryAddress: z.string().nullable(),
  plannedDate: z.string().nullable(),
  outboundProcedure: outboundProcedureSchema.nullable(),
  customerReference: z.string().nullable(),
  /** Internal: null for customers. */
  notes: z.string().nullable(),
  /** The current outbound declaration: the latest one not cancelled (ADR 0048). */
  declaration: shipmentDeclarationRefSchema.nullable(),
  /** Every outbound declaration of the shipment, oldest first (customers: the lodged ones). */
  declarations: z.array(shipmentDeclarationRefSchema),
  lines: z.array(shipmentLineSchema),
  quantity: z.number().int(),
  /** Some allocation is of non-Union goods: it leaves only under its outbound declaration. */
  nonUnion: z.boolean(),
  /** Why `shipped` would be refused now (the same rule as the transition), or null. */
  shipBlocker: z.string().nullable(),
  releasedAt: z.string().nullable(),
  pickingAt: z.string().nullable(),
  packedAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
  updatedAt: z.string(),
  allowedActions: z.array(z.enum(SHIPMENT_ACTIONS)),
});
export type Shipment = z.infer<typeof shipmentSchema>;

export const shipmentListItemSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: shipmentStatusSchema,
  owner: partyRefSchema,
  /** The consignee's name as written, or the consignee party's. */
  consigneeName: z.string().nullable(),
  plannedDate: z.string().nullable(),
  lines: z.number().int(),
  quantity: z.number().int(),
  declaration: z.object({ id: z.string(), lrn: z.string(), status: z.enum(DECLARATION_STATUSES) }).nullable(),
  customerReference: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ShipmentListItem = z.infer<typeof shipmentListItemSchema>;

// ---- a shipment's outbound declarations (issue 23 item 12, ADR 0048) -----------------------------

/** Where an outbound declaration ended without letting the goods go: another one may replace it. */
export const ENDED_DECLARATION_STATUSES: readonly DeclarationStatus[] = [
  'rejected',
  'not_released',
  'cancelled',
];

/** A declaration still in play (a draft, with customs, or through): a new one would compete with it. */
export const isLiveDeclaration = (status: DeclarationStatus) => !ENDED_DECLARATION_STATUSES.includes(status);

/** The shipment's current outbound declaration: the latest one not cancelled (`list` oldest first). */
export function currentOutboundDeclaration<T extends { status: DeclarationStatus }>(
  list: readonly T[],
): T | null {
  for (let i = list.length - 1; i >= 0; i--) {
    const d = list[i] as T;
    if (d.status !== 'cancelled') return d;
  }
  return null;
}

/** The declaration of the shipment's procedure that lets its goods leave (released 4071, exited 3171), or null. */
export function releasingDeclaration<T extends { type: DeclarationType; status: DeclarationStatus }>(
  procedure: OutboundProcedure | null,
  list: readonly T[],
): T | null {
  if (!procedure) return null;
  const { type, releasedBy } = OUTBOUND_DECLARATION[procedure];
  return list.find((d) => d.type === type && d.status === releasedBy) ?? null;
}

/**
 * Why a shipment (`subject`: its number, or "This shipment") cannot be released yet: it holds non-Union
 * goods (`statuses`: the customs statuses it holds or may take) and has no outbound procedure. The
 * release refuses it (422 on `outboundProcedure`); the editor says the same as soon as such a line is
 * added. The procedures it names are those that fit the goods (`outboundProceduresFor`).
 */
export function shipmentProcedureMissing(
  subject: string,
  procedure: OutboundProcedure | null | undefined,
  statuses: readonly CustomsStatus[],
): string | null {
  if (procedure || !statuses.some(isNonUnion)) return null;
  const fitting = outboundProceduresFor(statuses);
  const which = fitting.length ? ` (${outboundProceduresText(fitting)})` : '';
  return `${subject} holds non-Union goods: choose its outbound procedure${which} before it is released, so that it can be declared.`;
}

/** How a line names its goods in a sentence: "ABC-1", or "the stock record of ABC-1". */
export interface ShipmentLineStatuses {
  /** e.g. "line 2 (ABC-1)". */
  label: string;
  /** The customs statuses the line holds (a given stock record) or may take (an article's stock on hand). */
  statuses: readonly CustomsStatus[];
}

const STATUS_PHRASE: Readonly<Record<'non_union_customs_warehousing' | 'temporary_storage', string>> = {
  non_union_customs_warehousing: 'under customs warehousing (it leaves under 4071 or 3171)',
  temporary_storage: 'in temporary storage (it leaves under 4000 or 3100)',
};

/**
 * The first line whose goods cannot leave under one declaration with the goods of the lines before it
 * (or whose own stock is both in temporary storage and under customs warehousing), with the reason, or
 * null. A shipment leaves under one outbound procedure, and no procedure discharges customs warehousing
 * and temporary storage at once (`outboundProceduresFor`). The draft's create and edit (422 on the
 * line), the release (on what it takes) and the editor (as soon as such a line is added) call this one
 * function; a trigger on the allocations is the last line (migration 0035).
 */
export function shipmentLinesMixProblem(
  lines: readonly ShipmentLineStatuses[],
): { index: number; message: string } | null {
  const seen = new Map<CustomsStatus, string>();
  for (const [index, line] of lines.entries()) {
    const own = [...new Set(line.statuses.filter(isNonUnion))] as (
      | 'non_union_customs_warehousing'
      | 'temporary_storage'
    )[];
    if (own.length > 1)
      return {
        index,
        message: `${line.label} is held both ${STATUS_PHRASE.temporary_storage} and ${STATUS_PHRASE.non_union_customs_warehousing}: one shipment leaves under one declaration, so choose the stock record of one of them for this line`,
      };
    const status = own[0];
    if (status) {
      const other = [...seen.entries()].find(([s]) => s !== status);
      if (other)
        return {
          index,
          message: `${line.label} is ${STATUS_PHRASE[status]}, but ${other[1]} is ${STATUS_PHRASE[other[0] as keyof typeof STATUS_PHRASE]}: they cannot leave under one declaration, so ship them in separate shipments`,
        };
      if (!seen.has(status)) seen.set(status, line.label);
    }
  }
  return null;
}

/**
 * Why the shipment's outbound procedure does not fit the customs status of the non-Union goods it
 * holds (`statuses`: of the stock it took), or null: the customs-status rule `outboundProcedureProblem`
 * (issue 23 item 11, ADR 0046) applied to each of them. 4071 and 3171 presume customs warehousing, so
 * goods in temporary storage are refused. Union goods need no outbound declaration and are not judged
 * (shipmentProcedureMissing is the "no procedure yet" rule). The release, a change of the procedure of a
 * released shipment and its "Create outbound declaration" call this one function.
 */
export function shipmentProcedureProblem(
  procedure: OutboundProcedure | null | undefined,
  statuses: readonly CustomsStatus[],
): string | null {
  if (!procedure) return null;
  for (const status of new Set(statuses)) {
    if (!isNonUnion(status)) continue;
    const problem = outboundProcedureProblem(status, procedure);
    if (problem) return problem;
  }
  return null;
}

/** Customers see their own party's shipments, never the internal notes. */
export const shipmentFieldVisibility = {
  internal: ['notes'],
  partyField: 'ownerId',
} as const satisfies FieldVisibility;
