import { z } from 'zod';
import { DOSSIER_MODES, DOSSIER_STATUSES, DOSSIER_TYPES } from './dossiers-values.ts';
import { currencyDecimalsProblem, multiplyDecimal, subtractDecimal, sumDecimal } from './money.ts';
import { partyRefSchema } from './parties.ts';
import {
  calendarDate,
  decimal,
  fitsNumeric,
  int,
  isCalendarDate,
  numericMax,
  optionalCalendarDate,
  optionalText,
  versionSchema,
} from './primitives.ts';
import { issueParams } from './problem.ts';
import { type FieldVisibility, listQueryBaseSchema, uuidSchema } from './records.ts';
import { SALES_CHARGE_CODES, SALES_UNITS, type SalesUnit } from './sales-values.ts';
import { INCOTERMS_2020, incotermProblem } from './validators/incoterms.ts';
import { containerNumberProblem, iso6346CheckDigit, normalizeContainerNumber } from './validators/iso6346.ts';
import { isUnLocode } from './validators/places.ts';

export * from './dossiers-values.ts';

export type DossierStatus = (typeof DOSSIER_STATUSES)[number];

/** The explicit status actions: from → allowed targets. `cancelled` is reachable from every open state. */
export const DOSSIER_TRANSITIONS: Record<DossierStatus, readonly DossierStatus[]> = {
  requested: ['booked', 'cancelled'],
  booked: ['in_transit', 'cancelled'],
  in_transit: ['arrived', 'cancelled'],
  arrived: ['cleared', 'delivered', 'cancelled'],
  cleared: ['delivered', 'cancelled'],
  delivered: ['closed', 'cancelled'],
  closed: [],
  cancelled: [],
};

/** Labels of the status actions, as buttons show them. */
export const DOSSIER_TRANSITION_LABELS: Record<DossierStatus, string> = {
  requested: 'Request',
  booked: 'Confirm booking',
  in_transit: 'Mark departed',
  arrived: 'Mark arrived',
  cleared: 'Mark cleared',
  delivered: 'Mark delivered',
  closed: 'Close dossier',
  cancelled: 'Cancel dossier',
};

export const dossierTypeSchema = z.enum(DOSSIER_TYPES);
export const dossierModeSchema = z.enum(DOSSIER_MODES);
export const dossierStatusSchema = z.enum(DOSSIER_STATUSES);

const upper = (max: number) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .max(max)
    .transform((s) => (s === '' ? null : s))
    .nullish();

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

const isoDate = optionalCalendarDate();

/** An optional UN/LOCODE form field (empty → null); offers reuse it for their route. */
export const optionalLocodeSchema = locode;
/** An optional Incoterms 2020 code (empty → null); the mode rule is `checkDossierRules`'s. */
export const optionalIncotermSchema = upper(3).refine(
  (v) => !v || v.length === 3,
  `Choose one of ${INCOTERMS_2020.join(', ')}`,
);

export const containerInputSchema = z.strictObject({
  number: z
    .string()
    .transform(normalizeContainerNumber)
    .superRefine((n, ctx) => {
      const problem = containerNumberProblem(n);
      if (problem === 'format') {
        ctx.addIssue({
          code: 'custom',
          message: 'A container number is 4 letters (the 4th U, J or Z) and 7 digits, e.g. MSKU6011672',
          params: issueParams('container_number'),
        });
      } else if (problem === 'check-digit') {
        ctx.addIssue({
          code: 'custom',
          message: `Check digit does not match: ${n.slice(0, 10)} needs ${iso6346CheckDigit(n.slice(0, 10))}`,
          params: issueParams('container_check_digit', { expected: iso6346CheckDigit(n.slice(0, 10)) }),
        });
      }
    }),
  sizeType: z
    .string()
    .trim()
    .toUpperCase()
    .transform((s) => (s === '' ? null : s))
    .nullish()
    .refine((v) => !v || /^[0-9A-Z]{4}$/.test(v), 'A size-type code has 4 characters, e.g. 22G1'),
  seals: z.array(z.string().trim().min(1).max(30)).max(10).default([]),
});
export type ContainerInput = z.input<typeof containerInputSchema>;

/** Weights and volumes: numeric(15, 3) columns. */
const quantity = decimal({ precision: 15, scale: 3, min: 0 }).nullish();

/** Fields a staff user edits; shared by create and edit (the edit adds `version`). */
const dossierFieldsObject = z.strictObject({
  type: dossierTypeSchema,
  mode: dossierModeSchema,
  customerId: uuidSchema,
  consignorId: uuidSchema.nullish(),
  consigneeId: uuidSchema.nullish(),
  notifyPartyId: uuidSchema.nullish(),
  incoterm: optionalIncotermSchema,
  incotermPlace: optionalText(100),
  originLocode: locode,
  destinationLocode: locode,
  etd: isoDate,
  eta: isoDate,
  atd: isoDate,
  ata: isoDate,
  customerReference: optionalText(60),
  bookingNumber: optionalText(60),
  masterBl: optionalText(60),
  houseBl: optionalText(60),
  cmrNumber: optionalText(60),
  cargoDescription: optionalText(2000),
  packages: int({ min: 0, max: 1_000_000 }).nullish(),
  packageType: optionalText(30),
  grossWeightKg: quantity,
  volumeM3: quantity,
  chargeableWeightKg: quantity,
  handlerId: uuidSchema.nullish(),
  // No default: the edit schema is this one made partial, and a default would wipe the containers.
  containers: z.array(containerInputSchema).max(500).optional(),
});

type DossierRuleInput = {
  mode?: string | undefined;
  incoterm?: string | null | undefined;
  etd?: string | null | undefined;
  eta?: string | null | undefined;
  atd?: string | null | undefined;
  ata?: string | null | undefined;
  containers?: { number: string }[] | undefined;
};

/** Rules across fields; applied on create, and on edit to the merged record by the server. */
export function checkDossierRules(d: DossierRuleInput, ctx: z.RefinementCtx) {
  if (d.incoterm) {
    const problem = incotermProblem(d.incoterm, d.mode);
    if (problem) ctx.addIssue({ code: 'custom', path: ['incoterm'], message: problem });
  }
  if (d.etd && d.eta && d.eta < d.etd)
    ctx.addIssue({ code: 'custom', path: ['eta'], message: 'ETA cannot be before ETD' });
  const latest = latestTodayOnEarth();
  if (d.atd && isCalendarDate(d.atd) && d.atd > latest)
    ctx.addIssue({ code: 'custom', path: ['atd'], message: 'The departure cannot be in the future' });
  if (d.ata && isCalendarDate(d.ata) && d.ata > latest)
    ctx.addIssue({ code: 'custom', path: ['ata'], message: 'The arrival cannot be in the future' });
  if (d.atd && d.ata && d.ata < d.atd) {
    ctx.addIssue({
      code: 'custom',
      path: ['ata'],
      message: 'Actual arrival cannot be before actual departure',
    });
  }
  const seen = new Map<string, number>();
  (d.containers ?? []).forEach((c, i) => {
    const first = seen.get(c.number);
    if (first !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['containers', i, 'number'],
        message: `Container ${c.number} is listed twice`,
      });
    } else seen.set(c.number, i);
  });
}

export const dossierCreateSchema = dossierFieldsObject.superRefine(checkDossierRules);
export type DossierCreate = z.input<typeof dossierCreateSchema>;

export const dossierUpdateSchema = dossierFieldsObject.partial().extend({ version: versionSchema });
export type DossierUpdate = z.input<typeof dossierUpdateSchema>;

/** What a customer may send: a booking request, created in status `requested` for their own party. */
export const bookingRequestSchema = dossierFieldsObject
  .pick({
    type: true,
    mode: true,
    incoterm: true,
    incotermPlace: true,
    originLocode: true,
    destinationLocode: true,
    etd: true,
    customerReference: true,
    packages: true,
    packageType: true,
    grossWeightKg: true,
    volumeM3: true,
    containers: true,
  })
  .extend({
    cargoDescription: z.string().trim().min(1, 'Describe the cargo').max(2000),
    originLocode: z.string().trim().toUpperCase().refine(isUnLocode, 'Enter a UN/LOCODE, e.g. NLRTM'),
    destinationLocode: z.string().trim().toUpperCase().refine(isUnLocode, 'Enter a UN/LOCODE, e.g. CNSHA'),
  })
  .superRefine(checkDossierRules);
export type BookingRequest = z.input<typeof bookingRequestSchema>;

/** Facts a status action states, asked with it (ADR 0022): who handles a confirmed booking, when it left or came. */
export const DOSSIER_TRANSITION_FACTS = {
  booked: ['handlerId'],
  in_transit: ['atd'],
  arrived: ['ata'],
} as const satisfies Partial<Record<DossierStatus, readonly ('atd' | 'ata' | 'handlerId')[]>>;
export type DossierTransitionFact = 'atd' | 'ata' | 'handlerId';

/** The facts a move to `to` asks for (none for most). */
export function transitionFactsOf(to: DossierStatus): readonly DossierTransitionFact[] {
  return (
    (DOSSIER_TRANSITION_FACTS as Partial<Record<DossierStatus, readonly DossierTransitionFact[]>>)[to] ?? []
  );
}

/**
 * ATD and ATA are calendar dates like ETD and ETA (ADR 0022). "Not in the future" is judged against
 * the latest date anywhere on Earth (UTC+14): the server cannot know the user's day, and a clock a few
 * minutes ahead must not refuse today.
 */
export function latestTodayOnEarth(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

/** Days from `a` to `b` (calendar dates). */
function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** A departure or arrival more than this many days before the plan is accepted with a warning. */
export const EARLY_FACT_WARNING_DAYS = 2;

export const transitionWarningSchema = z.object({ field: z.string(), message: z.string() });
export type TransitionWarning = z.infer<typeof transitionWarningSchema>;

type FactPlan = { etd: string | null; eta: string | null; atd: string | null };
type FactInput = { atd?: string | null | undefined; ata?: string | null | undefined };

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * Facts that contradict the plan but may well be true (a cargo rolled forward, an early berth): the
 * action goes through and the answer, like the dialog while the user types, says what looks odd.
 */
export function transitionFactWarnings(plan: FactPlan, facts: FactInput): TransitionWarning[] {
  const warnings: TransitionWarning[] = [];
  if (facts.atd && plan.etd) {
    const early = daysBetween(facts.atd, plan.etd);
    if (early > EARLY_FACT_WARNING_DAYS)
      warnings.push({
        field: 'atd',
        message: `This departure is ${plural(early, 'day')} before the planned departure (ETD). Check the date.`,
      });
  }
  if (facts.ata && plan.eta) {
    const early = daysBetween(facts.ata, plan.eta);
    if (early > EARLY_FACT_WARNING_DAYS)
      warnings.push({
        field: 'ata',
        message: `This arrival is ${plural(early, 'day')} before the planned arrival (ETA). Check the date.`,
      });
  }
  return warnings;
}

/** Facts that cannot be true: in the future, or an arrival before the recorded departure. */
export function transitionFactProblems(
  plan: FactPlan,
  facts: FactInput,
  now: Date = new Date(),
): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const latest = latestTodayOnEarth(now);
  if (facts.atd && facts.atd > latest)
    problems.push({ field: 'atd', message: 'The departure cannot be in the future' });
  if (facts.ata && facts.ata > latest)
    problems.push({ field: 'ata', message: 'The arrival cannot be in the future' });
  else if (facts.ata && plan.atd && facts.ata < plan.atd)
    problems.push({ field: 'ata', message: 'The arrival cannot be before the recorded departure' });
  return problems;
}

const FACT_REQUIRED: Record<DossierTransitionFact, string> = {
  atd: 'Enter the date it departed',
  ata: 'Enter the date it arrived',
  handlerId: 'Choose who handles this dossier',
};

export const dossierTransitionSchema = z
  .strictObject({
    to: dossierStatusSchema,
    version: versionSchema,
    /** Actual departure: required with `to: in_transit`. */
    atd: calendarDate.optional(),
    /** Actual arrival: required with `to: arrived`. */
    ata: calendarDate.optional(),
    /** The staff user who handles the confirmed booking: required with `to: booked`. */
    handlerId: uuidSchema.optional(),
  })
  .superRefine((input, ctx) => {
    const asked = transitionFactsOf(input.to);
    for (const fact of ['atd', 'ata', 'handlerId'] as const) {
      const given = input[fact] !== undefined;
      if (asked.includes(fact) && !given)
        ctx.addIssue({ code: 'custom', path: [fact], message: FACT_REQUIRED[fact] });
      else if (!asked.includes(fact) && given)
        ctx.addIssue({
          code: 'custom',
          path: [fact],
          message: `Not asked when moving to ${input.to}; edit the dossier instead`,
        });
    }
    const latest = latestTodayOnEarth();
    for (const fact of ['atd', 'ata'] as const) {
      const value = input[fact];
      if (value && isCalendarDate(value) && value > latest)
        ctx.addIssue({
          code: 'custom',
          path: [fact],
          message:
            fact === 'atd' ? 'The departure cannot be in the future' : 'The arrival cannot be in the future',
        });
    }
  });
export type DossierTransition = z.output<typeof dossierTransitionSchema>;
export type DossierTransitionBody = z.input<typeof dossierTransitionSchema>;

/** Job costing: cost and revenue lines, converted to the base currency (EUR) with the rate given. */
export const BASE_CURRENCY = 'EUR';
/** Amounts, base amounts, totals and profit are numeric(16, 2) columns; rates numeric(18, 6). */
export const MONEY_COLUMN = { precision: 16, scale: 2 } as const;
export const RATE_COLUMN = { precision: 18, scale: 6 } as const;
/** An ISO 4217 currency code as charges and lines take it (trimmed, upper-cased). */
export const currencyCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'Enter an ISO 4217 currency, e.g. EUR');
const numericMaxMoney = numericMax(MONEY_COLUMN.precision, MONEY_COLUMN.scale);

/**
 * Each line's base amount (amount × rate), the cost and revenue totals and the profit must fit their
 * columns: computed here exactly as the server stores them, so an overflow is a field error, not a 500.
 */
export function checkChargeTotals(
  charges: { kind: 'cost' | 'revenue'; amount: string; exchangeRate: string }[],
  ctx: z.RefinementCtx,
) {
  // Zod runs this check even when a line's own field failed (a failed regex does not abort): the
  // field's error says why, and arithmetic on a non-number would throw.
  const isDecimal = (s: unknown) => typeof s === 'string' && /^-?\d{1,40}(\.\d{1,20})?$/.test(s);
  if (!charges.every((c) => isDecimal(c.amount) && isDecimal(c.exchangeRate))) return;
  const fits = (d: string) => fitsNumeric(d, MONEY_COLUMN.precision, MONEY_COLUMN.scale);
  const bases = charges.map((c) => multiplyDecimal(c.amount, c.exchangeRate, MONEY_COLUMN.scale));
  let linesFit = true;
  bases.forEach((base, i) => {
    if (fits(base)) return;
    linesFit = false;
    ctx.addIssue({
      code: 'custom',
      path: ['charges', i, 'amount'],
      message: `Amount × exchange rate is ${base} ${BASE_CURRENCY}, more than the ${numericMaxMoney} a charge may be`,
    });
  });
  if (!linesFit) return;
  const total = (kind: 'cost' | 'revenue') => sumDecimal(bases.filter((_, i) => charges[i]?.kind === kind));
  const cost = total('cost');
  const revenue = total('revenue');
  for (const [label, value] of [
    ['cost total', cost],
    ['revenue total', revenue],
    ['profit', subtractDecimal(revenue, cost)],
  ] as const) {
    if (!fits(value))
      ctx.addIssue({
        code: 'custom',
        path: ['charges'],
        message: `The ${label} would be ${value} ${BASE_CURRENCY}, beyond ±${numericMaxMoney}`,
      });
  }
}
export const chargeInputSchema = z
  .strictObject({
    kind: z.enum(['cost', 'revenue']),
    chargeCode: z.enum(SALES_CHARGE_CODES, { message: 'Choose a charge from the list' }),
    /**
     * What the amount is made of, when it was priced per unit (a line of an accepted offer: 2 ×
     * container at 1 450.00): kept while quantity × unit price is still the amount, so the invoice
     * bills the same units; otherwise the charge is a lump sum (`chargeUnits`).
     */
    quantity: decimal({ precision: 14, scale: 3, positive: true }).nullish(),
    unit: z.enum(SALES_UNITS, { message: 'Choose a unit from the list' }).nullish(),
    unitPrice: decimal({ precision: 16, scale: 4, min: 0 }).nullish(),
    description: z.string().trim().min(1, 'Enter a description').max(200),
    partyId: uuidSchema.nullish(),
    amount: decimal(MONEY_COLUMN),
    currency: currencyCodeSchema,
    /** Units of base currency per unit of `currency`; 1 for EUR. */
    exchangeRate: decimal({ ...RATE_COLUMN, positive: true }).default('1'),
  })
  // A yen amount with cents is a typing slip, not a price: the currency's own decimals (ISO 4217).
  .superRefine((charge, ctx) => {
    // Runs even when a field failed: that field's own error says why, once.
    const { amount, currency } = charge as { amount: unknown; currency: unknown };
    if (typeof amount !== 'string' || typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return;
    if (!fitsNumeric(amount, MONEY_COLUMN.precision, MONEY_COLUMN.scale) || /\.\d{3}/.test(amount)) return;
    const problem = currencyDecimalsProblem(amount, currency);
    if (problem) ctx.addIssue({ code: 'custom', path: ['amount'], message: problem });
  });
export type ChargeInput = z.input<typeof chargeInputSchema>;
const chargeLines = z.array(chargeInputSchema).max(500);
/** The lines as the charges form edits them (the edit adds `version`). */
export const chargeLinesSchema = z
  .strictObject({ charges: chargeLines })
  .superRefine((input, ctx) => checkChargeTotals(input.charges, ctx));
export const chargesUpdateSchema = z
  .strictObject({ version: versionSchema, charges: chargeLines })
  .superRefine((input, ctx) => checkChargeTotals(input.charges, ctx));

/**
 * The units a charge keeps (issue 27 item 4): its quantity, unit and unit price when all three are given
 * and quantity × unit price (rounded to the cent, as an invoice line's net) is its amount; null when it
 * is a lump sum. The one rule: the API applies it on every write and the invoice takes its lines from it.
 */
export function chargeUnits(charge: {
  amount: string;
  quantity?: string | null | undefined;
  unit?: SalesUnit | null | undefined;
  unitPrice?: string | null | undefined;
}): { quantity: string; unit: SalesUnit; unitPrice: string } | null {
  const { quantity, unit, unitPrice, amount } = charge;
  if (!quantity || !unit || unitPrice === null || unitPrice === undefined) return null;
  if (multiplyDecimal(quantity, unitPrice, 2) !== multiplyDecimal(amount, '1', 2)) return null;
  return { quantity, unit, unitPrice };
}

export const chargeSchema = z.object({
  id: z.string(),
  kind: z.enum(['cost', 'revenue']),
  chargeCode: z.enum(SALES_CHARGE_CODES),
  quantity: z.string().nullable(),
  unit: z.enum(SALES_UNITS).nullable(),
  unitPrice: z.string().nullable(),
  description: z.string(),
  party: partyRefSchema.nullable(),
  amount: z.string(),
  currency: z.string(),
  exchangeRate: z.string(),
  baseAmount: z.string(),
});
export type Charge = z.infer<typeof chargeSchema>;

export const containerSchema = z.object({
  number: z.string(),
  sizeType: z.string().nullable(),
  seals: z.array(z.string()),
});

const userRefSchema = z.object({ id: z.string(), name: z.string() });

export const dossierListItemSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: dossierStatusSchema,
  type: dossierTypeSchema,
  mode: dossierModeSchema,
  customer: partyRefSchema,
  originLocode: z.string().nullable(),
  destinationLocode: z.string().nullable(),
  etd: z.string().nullable(),
  eta: z.string().nullable(),
  customerReference: z.string().nullable(),
  masterBl: z.string().nullable(),
  containerCount: z.number().int(),
  /** Job costing is internal: null for customers. */
  profit: z.string().nullable(),
  handler: userRefSchema.nullable(),
  updatedAt: z.string(),
});
export type DossierListItem = z.infer<typeof dossierListItemSchema>;

/** A row of the dossier list page: the item plus what is the caller's own (not in exports). */
export const dossierListRowSchema = dossierListItemSchema.extend({
  /** Chat messages of the dossier from others that the caller has not read. */
  unreadMessages: z.number().int(),
});
export type DossierListRow = z.infer<typeof dossierListRowSchema>;

export const dossierSchema = dossierListItemSchema.extend({
  consignor: partyRefSchema.nullable(),
  consignee: partyRefSchema.nullable(),
  notifyParty: partyRefSchema.nullable(),
  incoterm: z.string().nullable(),
  incotermPlace: z.string().nullable(),
  atd: z.string().nullable(),
  ata: z.string().nullable(),
  bookingNumber: z.string().nullable(),
  houseBl: z.string().nullable(),
  cmrNumber: z.string().nullable(),
  cargoDescription: z.string().nullable(),
  packages: z.number().int().nullable(),
  packageType: z.string().nullable(),
  grossWeightKg: z.string().nullable(),
  volumeM3: z.string().nullable(),
  chargeableWeightKg: z.string().nullable(),
  containers: z.array(containerSchema),
  /** Empty for customers, like the totals (null): job costing is internal. */
  charges: z.array(chargeSchema),
  costTotal: z.string().nullable(),
  revenueTotal: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
  /** The sales offer whose acceptance created this dossier. */
  offer: z.object({ id: z.string(), number: z.string() }).nullable(),
  /** The status actions this user may take now. */
  allowedTransitions: z.array(dossierStatusSchema),
});
export type Dossier = z.infer<typeof dossierSchema>;

/** A status action's answer: the dossier, and what in the facts given contradicts its plan. */
export const dossierTransitionResultSchema = dossierSchema.extend({
  warnings: z.array(transitionWarningSchema),
});
export type DossierTransitionResult = z.infer<typeof dossierTransitionResultSchema>;

/** A comma-separated list filter (`?status=a,b`), each value checked by `item`. */
export const csvListSchema = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(20));

/**
 * Job costing is the forwarder's margin: customers never see it, in any form. Staff can move a
 * dossier to another customer: its new customer's history starts there, without the former one's id.
 */
export const dossierFieldVisibility = {
  internal: ['profit', 'costTotal', 'revenueTotal', 'charges'],
  internalActions: ['charges changed'],
  partyField: 'customerId',
} as const satisfies FieldVisibility;

export const dossierListQuerySchema = listQueryBaseSchema.extend({
  status: csvListSchema(dossierStatusSchema).optional(),
  type: csvListSchema(dossierTypeSchema).optional(),
  mode: csvListSchema(dossierModeSchema).optional(),
  customerId: uuidSchema.optional(),
  handlerId: uuidSchema.optional(),
  originLocode: z.string().trim().toUpperCase().max(5).optional(),
  destinationLocode: z.string().trim().toUpperCase().max(5).optional(),
  etdFrom: calendarDate.optional(),
  etdTo: calendarDate.optional(),
  container: z.string().trim().toUpperCase().max(11).optional(),
  /** Profit (EUR) at least / at most this, e.g. `profitMax=0` for loss-making dossiers (staff only). */
  profitMin: decimal(MONEY_COLUMN).optional(),
  profitMax: decimal(MONEY_COLUMN).optional(),
});
export type DossierListQuery = z.infer<typeof dossierListQuerySchema>;
