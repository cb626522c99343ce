import { z } from 'zod';
import { partyRefSchema } from './parties.ts';
import { calendarDate, optionalDateTime, optionalText, queryInt, text, versionSchema } from './primitives.ts';
import { issueParams } from './problem.ts';
import { type FieldVisibility, listQueryBaseSchema, timeZoneSchema, uuidSchema } from './records.ts';
import { TRANSPORT_MODES, TRANSPORT_STATUSES } from './transports-values.ts';
import { normalizeContainerNumber } from './validators/iso6346.ts';
import { isImoNumber, isUnLocode } from './validators/places.ts';

export * from './transports-values.ts';

export type TransportStatus = (typeof TRANSPORT_STATUSES)[number];

export const TRANSPORT_TRANSITIONS: Record<TransportStatus, readonly TransportStatus[]> = {
  planned: ['dispatched', 'cancelled'],
  dispatched: ['picked_up', 'planned', 'cancelled'],
  picked_up: ['in_transit', 'delivered', 'cancelled'],
  in_transit: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
};

const locode = z
  .string()
  .trim()
  .toUpperCase()
  .transform((s) => (s === '' ? null : s))
  .nullish()
  .refine((v) => !v || isUnLocode(v), {
    message: 'Enter a UN/LOCODE: country + 3 characters, e.g. NLRTM',
    params: issueParams('unlocode'),
  });

const instant = optionalDateTime();

const transportFieldsObject = z.strictObject({
  mode: z.enum(TRANSPORT_MODES),
  carrierId: uuidSchema.nullish(),
  truckPlate: optionalText(20),
  trailerPlate: optionalText(20),
  vesselName: optionalText(100),
  vesselImo: z
    .string()
    .trim()
    .transform((s) => (s === '' ? null : s))
    .nullish()
    .refine((v) => !v || isImoNumber(v), {
      message: 'An IMO number has 7 digits, the last a check digit (e.g. 9321483)',
      params: issueParams('imo_number'),
    }),
  flightNumber: z
    .string()
    .trim()
    .toUpperCase()
    .transform((s) => (s === '' ? null : s))
    .nullish()
    .refine(
      (v) => !v || /^[A-Z0-9]{2}\d{1,4}[A-Z]?$/.test(v),
      'A flight number is an airline code and 1 to 4 digits, e.g. KL1234',
    ),
  pickupLocode: locode,
  pickupAddress: optionalText(300),
  pickupFrom: instant,
  pickupTo: instant,
  deliveryLocode: locode,
  deliveryAddress: optionalText(300),
  deliveryFrom: instant,
  deliveryTo: instant,
  actualPickupAt: instant,
  actualDeliveryAt: instant,
  driverName: optionalText(100),
  driverPhone: optionalText(40),
  containers: z.array(text(30).transform(normalizeContainerNumber)).max(100).optional(),
  /** Internal: customers never see them (transportFieldVisibility). */
  notes: optionalText(2000),
  /** The remark the dossier's customer sees on this leg ("Remark for the customer"). */
  customerRemark: optionalText(2000),
});

type TransportRuleInput = Partial<
  Record<
    'pickupFrom' | 'pickupTo' | 'deliveryFrom' | 'deliveryTo' | 'actualPickupAt' | 'actualDeliveryAt',
    string | null | undefined
  >
> & {
  mode?: string | undefined;
  truckPlate?: string | null | undefined;
  vesselName?: string | null | undefined;
  flightNumber?: string | null | undefined;
};

/** Rules across fields; the server applies them to the record as it will be after an edit. */
export function checkTransportRules(t: TransportRuleInput, ctx: z.RefinementCtx) {
  const before = (a: string | null | undefined, b: string | null | undefined) =>
    !!a && !!b && Date.parse(b) < Date.parse(a);
  if (before(t.pickupFrom, t.pickupTo))
    ctx.addIssue({ code: 'custom', path: ['pickupTo'], message: 'The pickup window ends before it starts' });
  if (before(t.deliveryFrom, t.deliveryTo)) {
    ctx.addIssue({
      code: 'custom',
      path: ['deliveryTo'],
      message: 'The delivery window ends before it starts',
    });
  }
  if (before(t.pickupFrom, t.deliveryFrom)) {
    ctx.addIssue({
      code: 'custom',
      path: ['deliveryFrom'],
      message: 'Delivery cannot start before pickup starts',
    });
  }
  if (before(t.actualPickupAt, t.actualDeliveryAt)) {
    ctx.addIssue({
      code: 'custom',
      path: ['actualDeliveryAt'],
      message: 'Actual delivery cannot be before actual pickup',
    });
  }
  if (t.mode === 'air' && t.vesselName)
    ctx.addIssue({
      code: 'custom',
      path: ['vesselName'],
      message: 'An air transport has a flight, not a vessel',
    });
  if ((t.mode === 'sea' || t.mode === 'barge') && t.flightNumber) {
    ctx.addIssue({
      code: 'custom',
      path: ['flightNumber'],
      message: 'A sea transport has a vessel, not a flight',
    });
  }
}

export const transportCreateSchema = transportFieldsObject
  .extend({ dossierId: z.string().min(1, 'Choose a dossier').max(64) })
  .superRefine(checkTransportRules);
export type TransportCreate = z.input<typeof transportCreateSchema>;
export const transportUpdateSchema = transportFieldsObject.partial().extend({ version: versionSchema });
export type TransportUpdate = z.input<typeof transportUpdateSchema>;
export const transportTransitionSchema = z.strictObject({
  to: z.enum(TRANSPORT_STATUSES),
  version: versionSchema,
});

export const transportSchema = z.object({
  id: z.string(),
  dossier: z.object({ id: z.string(), number: z.string(), customer: partyRefSchema }),
  sequence: z.number().int(),
  status: z.enum(TRANSPORT_STATUSES),
  mode: z.enum(TRANSPORT_MODES),
  carrier: partyRefSchema.nullable(),
  truckPlate: z.string().nullable(),
  trailerPlate: z.string().nullable(),
  vesselName: z.string().nullable(),
  vesselImo: z.string().nullable(),
  flightNumber: z.string().nullable(),
  pickupLocode: z.string().nullable(),
  pickupAddress: z.string().nullable(),
  pickupFrom: z.string().nullable(),
  pickupTo: z.string().nullable(),
  deliveryLocode: z.string().nullable(),
  deliveryAddress: z.string().nullable(),
  deliveryFrom: z.string().nullable(),
  deliveryTo: z.string().nullable(),
  actualPickupAt: z.string().nullable(),
  actualDeliveryAt: z.string().nullable(),
  driverName: z.string().nullable(),
  driverPhone: z.string().nullable(),
  containers: z.array(z.string()),
  /** Internal notes: null for customers. */
  notes: z.string().nullable(),
  /** The remark for the customer, shown to them. */
  customerRemark: z.string().nullable(),
  version: z.number().int(),
  updatedAt: z.string(),
  allowedTransitions: z.array(z.enum(TRANSPORT_STATUSES)),
});
export type Transport = z.infer<typeof transportSchema>;

/**
 * A leg's notes are the forwarder's own (driver instructions, rates agreed by phone): customers never
 * see them, as in every other area. What the customer should read goes in `customerRemark` (ADR 0045).
 * The driver's name and phone are the carrier's staff's personal data, which product.md does not give
 * to customers: internal too (the customer deals with the forwarder, not the driver).
 */
export const transportFieldVisibility = {
  internal: ['notes', 'driverName', 'driverPhone'],
} as const satisfies FieldVisibility;

export const transportListQuerySchema = listQueryBaseSchema.extend({
  status: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(TRANSPORT_STATUSES)).max(10))
    .optional(),
  mode: z.enum(TRANSPORT_MODES).optional(),
  carrierId: uuidSchema.optional(),
  dossierId: z.string().max(64).optional(),
  pickupFrom: calendarDate.optional(),
  pickupTo: calendarDate.optional(),
  /** The zone whose days `pickupFrom`/`pickupTo` are (the dashboard's "today"); the database's (UTC) when absent. */
  tz: timeZoneSchema.optional(),
});
export type TransportListQuery = z.infer<typeof transportListQuerySchema>;

/** Legs per planning page by default, and at most. */
export const PLANNING_PAGE_SIZE = 500;
export const PLANNING_MAX_PAGE_SIZE = 1000;

/**
 * `GET /api/planning?from=&to=[&cursor=&limit=]`: the legs touching the days [from, to] in time order
 * (start of the leg, then id), a page at a time; `cursor` is the previous page's `nextCursor`.
 */
export const planningQuerySchema = z
  .object({
    from: calendarDate,
    to: calendarDate,
    cursor: z.string().max(200).optional(),
    /** The zone of the days `from` and `to` (the browser's); UTC by default. */
    tz: timeZoneSchema.default('UTC'),
    limit: queryInt({ min: 1, max: PLANNING_MAX_PAGE_SIZE }).default(PLANNING_PAGE_SIZE),
  })
  .refine((q) => q.to >= q.from, { path: ['to'], message: 'The range ends before it starts' })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 <= 62, {
    path: ['to'],
    message: 'Plan at most 62 days at once',
  });
export type PlanningQuery = z.input<typeof planningQuerySchema>;

export const PLANNING_FLAGS = ['missing_carrier', 'pickup_passed', 'vehicle_overlap'] as const;
export type PlanningFlag = (typeof PLANNING_FLAGS)[number];
export const planningItemSchema = transportSchema.extend({ flags: z.array(z.enum(PLANNING_FLAGS)) });
export type PlanningItem = z.infer<typeof planningItemSchema>;
export const planningSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Legs in the whole range (every page). */
  total: z.number().int(),
  items: z.array(planningItemSchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type Planning = z.infer<typeof planningSchema>;
