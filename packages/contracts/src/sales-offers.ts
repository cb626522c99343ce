import { z } from 'zod';
import {
  BASE_CURRENCY,
  checkDossierRules,
  csvListSchema,
  currencyCodeSchema,
  dossierModeSchema,
  dossierTypeSchema,
  optionalIncotermSchema,
  optionalLocodeSchema,
  RATE_COLUMN,
} from './dossiers.ts';
import { lineNet, totalsPerCurrency } from './invoice-math.ts';
import { currencyDecimalsProblem } from './money.ts';
import { partyRefSchema } from './parties.ts';
import {
  calendarDate,
  decimal,
  fitsNumeric,
  int,
  isCalendarDate,
  optionalText,
  text,
  versionSchema,
} from './primitives.ts';
import { type FieldVisibility, listQueryBaseSchema, uuidSchema } from './records.ts';
import {
  OFFER_STATUSES,
  OFFER_TRANSITION_TARGETS,
  type OfferStatus,
  SALES_CHARGE_CODES,
  SALES_UNITS,
  VAT_CODES,
} from './sales-values.ts';

export const offerStatusSchema = z.enum(OFFER_STATUSES);
export const offerTransitionTargetSchema = z.enum(OFFER_TRANSITION_TARGETS);

/** The status actions: from → allowed targets (`expired` is set by the scheduled job and on a late accept). */
export const OFFER_TRANSITIONS: Readonly<Record<OfferStatus, readonly OfferStatus[]>> = {
  draft: ['sent', 'cancelled'],
  sent: ['accepted', 'rejected', 'cancelled'],
  accepted: [],
  rejected: [],
  expired: [],
  cancelled: [],
};

/** Labels of the status actions, as buttons show them. */
export const OFFER_TRANSITION_LABELS: Readonly<Record<(typeof OFFER_TRANSITION_TARGETS)[number], string>> = {
  sent: 'Send to customer',
  accepted: 'Accept offer',
  rejected: 'Reject offer',
  cancelled: 'Cancel offer',
};

/**
 * "Today" for an offer's valid-until: the earliest date anywhere on Earth (UTC−12). An offer valid
 * until a day can be accepted while that day lasts for anyone, and a date typed as "today" is never
 * refused because the server's clock is already past midnight somewhere else.
 */
export function offerToday(now: Date = new Date()): string {
  return new Date(now.getTime() - 12 * 3_600_000).toISOString().slice(0, 10);
}

/** Line columns: quantity numeric(14,3), unit price numeric(16,4), VAT rate numeric(5,2), line net numeric(16,2). */
const QUANTITY_COLUMN = { precision: 14, scale: 3 } as const;
const UNIT_PRICE_COLUMN = { precision: 16, scale: 4 } as const;
const LINE_NET_COLUMN = { precision: 16, scale: 2 } as const;
export const MAX_OFFER_LINES = 200;

const isDecimal = (s: unknown): s is string => typeof s === 'string' && /^-?\d{1,40}(\.\d{1,20})?$/.test(s);

export const offerLineInputSchema = z
  .strictObject({
    chargeCode: z.enum(SALES_CHARGE_CODES, { message: `Choose one of ${SALES_CHARGE_CODES.join(', ')}` }),
    description: text(200, { min: 1 }),
    quantity: decimal({ ...QUANTITY_COLUMN, positive: true }),
    unit: z.enum(SALES_UNITS, { message: `Choose one of ${SALES_UNITS.join(', ')}` }),
    unitPrice: decimal({ ...UNIT_PRICE_COLUMN, min: 0 }),
    currency: currencyCodeSchema,
    /** Units of base currency per unit of `currency`: '1' for EUR; required for another currency. */
    exchangeRate: decimal({ ...RATE_COLUMN, positive: true }).optional(),
    vatCode: z.enum(VAT_CODES, { message: `Choose one of ${VAT_CODES.join(', ')}` }),
    /** Percent ('21', '9', '0'); null for O (outside the scope of VAT). */
    vatRate: decimal({ precision: 5, scale: 2, min: 0 }).nullish(),
  })
  .superRefine((line, ctx) => {
    // Runs even when a field failed (zod does not abort on a refinement): that field's error says why, once.
    const { quantity, unitPrice, currency, exchangeRate, vatCode, vatRate } = line as Record<string, unknown>;
    const currencyOk = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency);
    if (currencyOk && currency === BASE_CURRENCY) {
      if (isDecimal(exchangeRate) && Number(exchangeRate) !== 1)
        ctx.addIssue({
          code: 'custom',
          path: ['exchangeRate'],
          message: `A ${BASE_CURRENCY} line has exchange rate 1`,
        });
    } else if (currencyOk && exchangeRate === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['exchangeRate'],
        message: `Enter the exchange rate: ${BASE_CURRENCY} per 1 ${currency}`,
      });
    }
    if (vatCode === 'O') {
      if (vatRate !== null && vatRate !== undefined)
        ctx.addIssue({ code: 'custom', path: ['vatRate'], message: 'Outside the scope of VAT has no rate' });
    } else if (typeof vatCode === 'string' && (VAT_CODES as readonly string[]).includes(vatCode)) {
      if (vatRate === null || vatRate === undefined)
        ctx.addIssue({ code: 'custom', path: ['vatRate'], message: 'Enter the VAT rate' });
      else if (isDecimal(vatRate)) {
        if (vatCode === 'S' && Number(vatRate) <= 0)
          ctx.addIssue({ code: 'custom', path: ['vatRate'], message: 'The standard rate is more than 0 %' });
        if (vatCode !== 'S' && Number(vatRate) !== 0)
          ctx.addIssue({ code: 'custom', path: ['vatRate'], message: `VAT code ${vatCode} has rate 0 %` });
        if (Number(vatRate) > 100)
          ctx.addIssue({ code: 'custom', path: ['vatRate'], message: 'A VAT rate is at most 100 %' });
      }
    }
    if (!isDecimal(quantity) || !isDecimal(unitPrice)) return;
    if (!/^\d{1,11}(\.\d{1,3})?$/.test(quantity) || !/^\d{1,12}(\.\d{1,4})?$/.test(unitPrice)) return;
    const net = lineNet(quantity, unitPrice);
    if (!fitsNumeric(net, LINE_NET_COLUMN.precision, LINE_NET_COLUMN.scale)) {
      ctx.addIssue({
        code: 'custom',
        path: ['unitPrice'],
        message: `Quantity × unit price is ${net}, more than a line may be`,
      });
      return;
    }
    // The line becomes a dossier charge on acceptance: its net must be an amount the currency has.
    if (currencyOk) {
      const problem = currencyDecimalsProblem(net, currency);
      if (problem)
        ctx.addIssue({
          code: 'custom',
          path: ['unitPrice'],
          message: `${problem}: quantity × unit price is ${net}`,
        });
    }
  })
  .transform((line) => ({
    ...line,
    exchangeRate: line.exchangeRate ?? '1',
    vatRate: line.vatCode === 'O' ? null : (line.vatRate ?? null),
  }));
export type OfferLineInput = z.input<typeof offerLineInputSchema>;
export type OfferLineValues = z.output<typeof offerLineInputSchema>;

const offerLines = z.array(offerLineInputSchema).max(MAX_OFFER_LINES, `At most ${MAX_OFFER_LINES} lines`);

/** Weights and volumes: numeric(15, 3) columns, as on dossiers. */
const measure = decimal({ precision: 15, scale: 3, min: 0 }).nullish();

const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .transform((s) => (s === '' ? null : s))
  .pipe(z.email('Enter a valid email address').max(254).nullable())
  .nullish();

/** Header fields a staff user edits; shared by create and edit (the edit adds `version`). */
const offerFieldsObject = z.strictObject({
  customerId: uuidSchema,
  contactName: optionalText(100),
  contactEmail: optionalEmail,
  validUntil: calendarDate,
  originLocode: optionalLocodeSchema,
  destinationLocode: optionalLocodeSchema,
  mode: dossierModeSchema,
  incoterm: optionalIncotermSchema,
  incotermPlace: optionalText(100),
  /** The type of the dossier that acceptance creates. */
  dossierType: dossierTypeSchema,
  cargoDescription: optionalText(2000),
  packages: int({ min: 0, max: 1_000_000 }).nullish(),
  packageType: optionalText(30),
  grossWeightKg: measure,
  volumeM3: measure,
  /** Internal: never shown to the customer. */
  notes: optionalText(4000),
  lines: offerLines,
});

type OfferRuleInput = {
  mode?: string | undefined;
  incoterm?: string | null | undefined;
  validUntil?: string | undefined;
};

/** Rules across fields; on create, and by the server on the merged record of an edit. */
export function checkOfferRules(o: OfferRuleInput, ctx: z.RefinementCtx, now: Date = new Date()) {
  checkDossierRules({ mode: o.mode, incoterm: o.incoterm }, ctx);
  if (o.validUntil && isCalendarDate(o.validUntil) && o.validUntil < offerToday(now))
    ctx.addIssue({ code: 'custom', path: ['validUntil'], message: 'Valid until cannot be in the past' });
}

export const salesOfferCreateSchema = offerFieldsObject
  .extend({ dossierType: dossierTypeSchema.default('export'), lines: offerLines.default([]) })
  .superRefine((o, ctx) => checkOfferRules(o, ctx));
export type SalesOfferCreate = z.input<typeof salesOfferCreateSchema>;

/** Partial edit of a draft; `lines`, when given, replaces every line. */
export const salesOfferUpdateSchema = offerFieldsObject
  .partial()
  .extend({ version: versionSchema })
  .superRefine((o, ctx) => {
    // Only what is sent is checked here; the server re-checks the merged offer's cross-field rules.
    if (o.validUntil !== undefined) checkOfferRules({ validUntil: o.validUntil }, ctx);
  });
export type SalesOfferUpdate = z.input<typeof salesOfferUpdateSchema>;

export const salesOfferTransitionSchema = z.strictObject({
  to: offerTransitionTargetSchema,
  version: versionSchema,
});
export type SalesOfferTransition = z.input<typeof salesOfferTransitionSchema>;

/** What sending needs besides the draft itself, checked by the server with these field paths. */
export function offerSendProblems(
  offer: { lines: readonly unknown[]; contactEmail: string | null; validUntil: string },
  now: Date = new Date(),
): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (offer.lines.length === 0)
    problems.push({ field: 'lines', message: 'Add at least one line before sending' });
  if (!offer.contactEmail)
    problems.push({ field: 'contactEmail', message: 'Enter the contact email the offer is sent to' });
  if (offer.validUntil < offerToday(now))
    problems.push({ field: 'validUntil', message: 'Valid until is in the past: extend it before sending' });
  return problems;
}

// ---- what the API answers ------------------------------------------------------------------------

export const offerLineSchema = z.object({
  id: z.string(),
  chargeCode: z.enum(SALES_CHARGE_CODES),
  description: z.string(),
  quantity: z.string(),
  unit: z.enum(SALES_UNITS),
  unitPrice: z.string(),
  currency: z.string(),
  exchangeRate: z.string(),
  vatCode: z.enum(VAT_CODES),
  vatRate: z.string().nullable(),
  lineNet: z.string(),
});
export type OfferLine = z.infer<typeof offerLineSchema>;

export const offerTotalSchema = z.object({
  currency: z.string(),
  net: z.string(),
  vat: z.string(),
  gross: z.string(),
});
export type OfferTotal = z.infer<typeof offerTotalSchema>;

const userRefSchema = z.object({ id: z.string(), name: z.string() });
const dossierRefSchema = z.object({ id: z.string(), number: z.string() });

export const salesOfferListItemSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: offerStatusSchema,
  customer: partyRefSchema,
  contactName: z.string().nullable(),
  validUntil: z.string(),
  originLocode: z.string().nullable(),
  destinationLocode: z.string().nullable(),
  mode: dossierModeSchema,
  totals: z.array(offerTotalSchema),
  dossier: dossierRefSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SalesOfferListItem = z.infer<typeof salesOfferListItemSchema>;

export const salesOfferSchema = salesOfferListItemSchema.extend({
  contactEmail: z.string().nullable(),
  incoterm: z.string().nullable(),
  incotermPlace: z.string().nullable(),
  dossierType: dossierTypeSchema,
  cargoDescription: z.string().nullable(),
  packages: z.number().int().nullable(),
  packageType: z.string().nullable(),
  grossWeightKg: z.string().nullable(),
  volumeM3: z.string().nullable(),
  /** Internal: null for customers. */
  notes: z.string().nullable(),
  lines: z.array(offerLineSchema),
  sentAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  version: z.number().int(),
  createdBy: userRefSchema.nullable(),
  /** The status actions this user may take now. */
  allowedTransitions: z.array(offerStatusSchema),
});
export type SalesOffer = z.infer<typeof salesOfferSchema>;

/**
 * Offers have one internal field: the staff's notes. A draft may be moved to another customer before
 * it is sent: the customer's history never shows that field (its values name other parties).
 */
export const salesOfferFieldVisibility = {
  internal: ['notes'],
  partyField: 'customerId',
} as const satisfies FieldVisibility;

export const salesOfferListQuerySchema = listQueryBaseSchema.extend({
  status: csvListSchema(offerStatusSchema).optional(),
  mode: csvListSchema(dossierModeSchema).optional(),
  customerId: uuidSchema.optional(),
  dossierId: uuidSchema.optional(),
  /** Valid until on or after / on or before these dates. */
  validFrom: calendarDate.optional(),
  validTo: calendarDate.optional(),
});
export type SalesOfferListQuery = z.infer<typeof salesOfferListQuerySchema>;

// ---- totals ----------------------------------------------------------------------------------------

/**
 * An offer's totals per currency and a line's net: invoice-math's arithmetic (ADR 0029), under the
 * names the offer screens use, so the server, the live totals and the PDF show the same cents.
 */
export const offerTotals = totalsPerCurrency;
export const offerLineNet = lineNet;
