import { z } from 'zod';
import type { DeclarationTotals, ItemEstimate } from './customs-math.ts';
import { APPORTIONMENTS } from './customs-value.ts';
import {
  AUTHORISATION_TYPES,
  CATEGORIES_OF_TYPE,
  CUSTOMS_TRANSPORT_MODES,
  DECLARATION_ACTIONS,
  DECLARATION_CATEGORIES,
  DECLARATION_MESSAGE_DIRECTIONS,
  DECLARATION_MESSAGE_KINDS,
  DECLARATION_REQUESTS,
  DECLARATION_STATUSES,
  DECLARATION_TYPES,
  type DeclarationCategory,
  type DeclarationType,
  GUARANTEE_TYPES,
  LOCATION_QUALIFIERS,
  LOCATION_TYPES,
  METHODS_OF_PAYMENT,
  PACKAGE_KINDS,
  PREVIOUS_DOCUMENT_TYPES,
  REPRESENTATIVE_STATUSES,
  SUPPORTING_DOCUMENT_TYPES,
  VALUATION_METHODS,
} from './declarations-values.ts';
import { MONEY_COLUMN, optionalIncotermSchema, RATE_COLUMN } from './dossiers.ts';
import { currencyDecimalsProblem } from './money.ts';
import { partyRefSchema } from './parties.ts';
import {
  calendarDate,
  decimal,
  int,
  optionalCalendarDate,
  optionalText,
  queryBoolean,
  text,
  versionSchema,
} from './primitives.ts';
import { csvOf, type FieldVisibility, listQueryBaseSchema, uuidSchema } from './records.ts';
import {
  commodityCodeProblem,
  containerNumberProblem,
  customsOfficeProblem,
  eoriProblem,
  grnProblem,
  isCountryCode,
  isCurrencyCode,
  lrnProblem,
  mrnProblem,
  normalizeContainerNumber,
  normalizeMrn,
  preferenceProblem,
  procedureCodeProblem,
} from './validators/index.ts';

export * from './declarations-values.ts';

/**
 * Customs declarations (issue 12): import (H1), export (B1) and transit (T1/T2), from a draft through
 * a customs gateway (the sandbox authority) to release. Items travel inside the declaration and a
 * PATCH replaces the whole array under the declaration's version (ADR 0032). The format rules are the
 * validators' (validators/mrn.ts, validators/customs.ts), the arithmetic customs-math.ts', what a
 * declaration needs before lodging declaration-rules.ts': this file is only the shapes.
 */

export const declarationTypeSchema = z.enum(DECLARATION_TYPES, {
  message: 'Choose import, export or transit',
});
export const declarationCategorySchema = z.enum(DECLARATION_CATEGORIES, {
  message: 'Choose a category from the list',
});
export const declarationStatusSchema = z.enum(DECLARATION_STATUSES);
export const declarationRequestSchema = z.enum(DECLARATION_REQUESTS);
export const declarationMessageKindSchema = z.enum(DECLARATION_MESSAGE_KINDS);
export const representativeStatusSchema = z.enum(REPRESENTATIVE_STATUSES, {
  message: 'Choose 1 (declarant), 2 (direct) or 3 (indirect representation)',
});
export const customsTransportModeSchema = z.enum(CUSTOMS_TRANSPORT_MODES, {
  message: 'Choose a mode of transport from the list',
});
export const methodOfPaymentSchema = z.enum(METHODS_OF_PAYMENT, {
  message: 'Choose a method of payment from the list',
});
export const guaranteeTypeSchema = z.enum(GUARANTEE_TYPES, {
  message: 'Choose a guarantee type from the list',
});
export const packageKindSchema = z.enum(PACKAGE_KINDS, { message: 'Choose a kind of package from the list' });
export const valuationMethodSchema = z.enum(VALUATION_METHODS, {
  message: 'Choose a valuation method from 1 to 6',
});
export const authorisationTypeSchema = z.enum(AUTHORISATION_TYPES, {
  message: 'Choose an authorisation type from the list',
});
export const locationTypeSchema = z.enum(LOCATION_TYPES, {
  message: 'Choose a type of location from the list',
});
export const locationQualifierSchema = z.enum(LOCATION_QUALIFIERS, {
  message: 'Choose how the location is identified, from the list',
});

/** Column sizes (migration 0020). */
const MASS_COLUMN = { precision: 14, scale: 3 } as const;
const DUTY_RATE_COLUMN = { precision: 7, scale: 3 } as const;
const VAT_RATE_COLUMN = { precision: 5, scale: 2 } as const;
/** SAD box 5: at most 999 items in one declaration. */
export const MAX_DECLARATION_ITEMS = 999;

/**
 * An optional code field: trimmed, upper-cased, inner spaces dropped when `squash`, empty → null,
 * then checked by one of the validators' `…Problem` functions (its sentence is the error).
 */
function code(problem: (v: string) => string | undefined, opts: { squash?: boolean; max?: number } = {}) {
  return codeValue(problem, opts).nullish();
}

function codeValue(
  problem: (v: string) => string | undefined,
  opts: { squash?: boolean; max?: number } = {},
) {
  const max = opts.max ?? 40;
  return z
    .string({ error: 'Enter text' })
    .max(200, `At most ${max} characters`)
    .transform((s) => {
      const t = s.trim().toUpperCase();
      return opts.squash ? t.replace(/[\s.]+/g, '') : t;
    })
    .transform((s) => (s === '' ? null : s))
    .superRefine((v, ctx) => {
      if (v === null) return;
      const p = v.length > max ? `At most ${max} characters` : problem(v);
      if (p) ctx.addIssue({ code: 'custom', message: sentence(p) });
    });
}

/** The validators answer "an EORI is …"; a form shows "An EORI is …". */
function sentence(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const countryProblem = (v: string) =>
  isCountryCode(v) ? undefined : 'Enter an ISO 3166 country code of 2 letters, e.g. NL';
const country = code(countryProblem, { max: 2 });
const office = code(customsOfficeProblem, { squash: true, max: 8 });
const eori = code(eoriProblem, { squash: true, max: 17 });
const currency = code((v) => (isCurrencyCode(v) ? undefined : 'Enter an ISO 4217 currency, e.g. EUR'), {
  max: 3,
});
const natureOfTransaction = code(
  (v) => (/^[1-9]\d?$/.test(v) ? undefined : 'The nature of transaction is 1 or 2 digits, e.g. 11'),
  { max: 2 },
);

/** A party as the declaration names it (SAD boxes 2, 8, 14, 50): a copy, kept even when the party changes. */
export const declarationPartyInputSchema = z.strictObject({
  /** The party record it was taken from, when there is one. */
  partyId: uuidSchema.nullish(),
  name: text(200, { min: 1 }),
  street: optionalText(200),
  postalCode: optionalText(20),
  city: optionalText(100),
  countryCode: country,
  eori,
});
export type DeclarationPartyInput = z.input<typeof declarationPartyInputSchema>;

const supportingDocumentSchema = z.strictObject({
  type: z.enum(SUPPORTING_DOCUMENT_TYPES, { message: 'Choose a document type from the list' }),
  reference: text(70, { min: 1 }),
});

/** Box 40: an N830 (export declaration) or MRN reference is an MRN, of an export for N830. */
const previousDocumentSchema = z
  .strictObject({
    type: z.enum(PREVIOUS_DOCUMENT_TYPES, { message: 'Choose a document type from the list' }),
    reference: text(70, { min: 1 }),
  })
  .transform((d) =>
    d.type === 'N830' || d.type === 'MRN' ? { ...d, reference: normalizeMrn(d.reference) } : d,
  )
  .superRefine((d, ctx) => {
    if (d.type !== 'N830' && d.type !== 'MRN') return;
    const p = mrnProblem(d.reference, d.type === 'N830' ? 'export' : undefined);
    if (p) ctx.addIssue({ code: 'custom', path: ['reference'], message: sentence(p) });
  });

const containerNumber = z
  .string({ error: 'Enter a container number' })
  .max(20, 'At most 11 characters')
  .transform(normalizeContainerNumber)
  .superRefine((n, ctx) => {
    const p = containerNumberProblem(n);
    if (p === 'format')
      ctx.addIssue({
        code: 'custom',
        message: 'A container number is 4 letters (the 4th U, J or Z) and 7 digits, e.g. MSKU6011672',
      });
    else if (p === 'check-digit')
      ctx.addIssue({ code: 'custom', message: 'The check digit of this container number does not match' });
  });

const mass = decimal({ ...MASS_COLUMN, positive: true }).nullish();
const amount = decimal({ ...MONEY_COLUMN, min: 0 }).nullish();

const isNumber = (s: unknown): s is string => typeof s === 'string' && /^\d+(\.\d+)?$/.test(s);

/** One goods item (SAD boxes 31–47); estimates are the API's (customs-math), never sent. */
export const declarationItemInputSchema = z
  .strictObject({
    /**
     * Combined Nomenclature (8 digits) or TARIC (10), or on a transit the HS subheading (6): the type is
     * the header's, so the 6-digit form is refused for imports and exports by the lodging rules
     * (declaration-rules.ts); spaces and dots are dropped.
     */
    commodityCode: code((v) => commodityCodeProblem(v, { subheading: true }), { squash: true, max: 10 }),
    description: optionalText(512),
    countryOfOrigin: country,
    /** Box 36: 3 digits, e.g. 100 (no preference). */
    preference: code(preferenceProblem, { max: 3 }),
    /** Box 37: requested + previous procedure, e.g. 4000; checked against the category (see below). */
    procedureCode: code((v) => (/^\d{4}$/.test(v) ? undefined : 'A procedure code has 4 digits, e.g. 4000'), {
      max: 4,
    }).meta({ description: 'DE 1/10 procedure (SAD box 37, first part): requested and previous, e.g. 4000' }),
    additionalProcedureCodes: z
      .array(
        codeValue(additionalProcedureProblem, { squash: true, max: 3 }).pipe(
          z.string({ error: 'Enter the code, e.g. 000' }),
        ),
      )
      .max(99, 'At most 99 additional procedure codes')
      .optional()
      .meta({
        description:
          'DE 1/11 additional procedure (SAD box 37, second part): 3 characters each, 000 when there is none, e.g. F45',
      }),
    valuationMethod: valuationMethodSchema
      .nullish()
      .meta({ description: 'DE 4/16 valuation method (SAD box 43): 1 transaction value, 2–6 the fallbacks' }),
    /** Why the customs value is not the transaction value: required with valuation methods 2–6. */
    valuationReason: optionalText(512).meta({
      description:
        'Why the customs value is not the transaction value (UCC art. 74): required with valuation methods 2–6',
    }),
    supplementaryUnits: decimal({ ...MASS_COLUMN, positive: true })
      .nullish()
      .meta({
        description:
          'DE 6/2 supplementary units (SAD box 41): the quantity in the unit the CN code requires (supplementaryUnitOf)',
      }),
    packages: int({ min: 0, max: 99_999_999 }).nullish(),
    packageKind: z
      .string()
      .trim()
      .toUpperCase()
      .transform((s) => (s === '' ? null : s))
      .pipe(packageKindSchema.nullable())
      .nullish(),
    marks: optionalText(512),
    grossMassKg: mass,
    netMassKg: mass,
    /** In the declaration's currency. */
    invoiceValue: amount.meta({
      description: "DE 4/14 item price (SAD box 42), in the declaration's currency",
    }),
    /** EUR (box 46 / 47 base). */
    customsValue: amount.meta({
      description:
        'Customs value in EUR, the base of SAD box 47: the item price (DE 4/14) at the exchange rate (DE 4/15) with the additions and deductions (DE 4/9)',
    }),
    statisticalValue: amount,
    /** Percent of the customs value. */
    dutyRate: decimal({ ...DUTY_RATE_COLUMN, min: 0 }).nullish(),
    vatRate: decimal({ ...VAT_RATE_COLUMN, min: 0 })
      .refine((v) => Number(v) <= 100, 'A VAT rate is at most 100 %')
      .nullish(),
    /** EUR: costs to the first destination in the Union, added to the VAT base. */
    vatCosts: amount,
    containers: z.array(containerNumber).max(99, 'At most 99 containers').optional(),
    supportingDocuments: z.array(supportingDocumentSchema).max(99, 'At most 99 documents').optional(),
    previousDocuments: z.array(previousDocumentSchema).max(99, 'At most 99 documents').optional(),
  })
  .superRefine((item, ctx) => {
    const { grossMassKg, netMassKg } = item as Record<string, unknown>;
    // A gross mass of 0 has its own error: comparing with it would say the same twice.
    if (
      isNumber(grossMassKg) &&
      isNumber(netMassKg) &&
      Number(grossMassKg) > 0 &&
      Number(netMassKg) > Number(grossMassKg)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['netMassKg'],
        message: 'The net mass cannot be more than the gross mass',
      });
  });
export type DeclarationItemInput = z.input<typeof declarationItemInputSchema>;
export type DeclarationItemParsed = z.output<typeof declarationItemInputSchema>;

/** DE 1/11: 3 characters, letters and digits (Union codes such as F45 or C07, 000 for none). */
function additionalProcedureProblem(v: string): string | undefined {
  return /^[A-Z0-9]{3}$/.test(v)
    ? undefined
    : 'An additional procedure code is 3 letters or digits, e.g. 000 or F45';
}

/** DE 2/3: an authorisation the declaration relies on, by its type and number. */
const authorisationSchema = z.strictObject({
  type: authorisationTypeSchema,
  /** As issued; spaces are dropped (NCTS takes it without). */
  reference: text(35, { min: 1 }).transform((s) => s.replace(/\s+/g, '').toUpperCase()),
});

/** DE 2/2: a coded statement, with text where the code asks for it. */
const additionalInformationSchema = z
  .strictObject({
    code: codeValue(
      (v) =>
        /^[0-9A-Z]{5}$/.test(v) ? undefined : 'An additional information code has 5 characters, e.g. 00500',
      { max: 5 },
    ).pipe(z.string({ error: 'Enter the code, e.g. 00500' })),
    text: optionalText(512),
  })
  .transform((a) => ({ code: a.code, text: a.text ?? null }));

/** DE 7/18: one seal's identity, and the container it closes (none: the vehicle's or the load compartment's). */
const sealSchema = z
  .strictObject({
    identifier: text(20, { min: 1 })
      .transform((s) => s.replace(/\s+/g, '').toUpperCase())
      .refine((s) => s.length > 0, 'Enter the seal number'),
    container: containerNumber.nullish(),
  })
  .transform((s) => ({ identifier: s.identifier, container: s.container ?? null }));

const items = z
  .array(declarationItemInputSchema)
  .max(MAX_DECLARATION_ITEMS, `At most ${MAX_DECLARATION_ITEMS} items`);

/** Every header field of a declaration a staff user edits; all optional (a draft may be incomplete). */
export const declarationHeaderFields = {
  declarant: declarationPartyInputSchema.nullish(),
  representative: declarationPartyInputSchema.nullish(),
  representativeStatus: representativeStatusSchema.nullish(),
  /** Exporter (box 2). */
  consignor: declarationPartyInputSchema.nullish(),
  /** Importer (box 8). */
  consignee: declarationPartyInputSchema.nullish(),
  /** Transit: the holder of the procedure (principal, box 50). */
  holder: declarationPartyInputSchema.nullish(),
  /** Transit: the office of departure. */
  officeOfLodgement: office,
  officeOfExitEntry: office,
  officeOfDestination: office,
  officesOfTransit: z
    .array(
      codeValue(customsOfficeProblem, { squash: true, max: 8 }).pipe(
        z.string({ error: 'Enter the office reference, e.g. DE004058' }),
      ),
    )
    .max(9, 'At most 9 offices of transit')
    .optional(),
  countryOfDispatch: country,
  countryOfDestination: country,
  transportModeBorder: customsTransportModeSchema.nullish(),
  transportModeInland: customsTransportModeSchema.nullish(),
  meansAtDeparture: optionalText(35),
  meansAtDepartureCountry: country,
  meansAtBorder: optionalText(35),
  meansAtBorderCountry: country,
  containerIndicator: z.boolean({ error: 'Send true or false' }).optional(),
  incoterm: optionalIncotermSchema,
  incotermPlace: optionalText(100),
  natureOfTransaction: natureOfTransaction.meta({ description: 'DE 8/5 nature of transaction (SAD box 24)' }),
  currency,
  /** Box 22, in `currency`. */
  invoiceTotal: amount,
  /** Box 23: EUR per unit of `currency`. */
  exchangeRate: decimal({ ...RATE_COLUMN, positive: true }).nullish(),
  locationOfGoods: optionalText(70).meta({
    description:
      'DE 5/23 location of goods (SAD box 30): the identification, read as locationOfGoodsQualifier says (a UN/LOCODE, an office, an EORI, …)',
  }),
  locationOfGoodsType: locationTypeSchema
    .nullish()
    .meta({ description: 'DE 5/23 type of location: A designated, B authorised, C approved place, D other' }),
  locationOfGoodsQualifier: locationQualifierSchema.nullish().meta({
    description:
      'DE 5/23 qualifier of the identification: T postcode, U UN/LOCODE, V customs office, W GNSS, X EORI, Y authorisation number, Z address',
  }),
  warehouseReference: optionalText(35).meta({
    description: 'DE 2/7 identification of the warehouse (SAD box 49)',
  }),
  authorisations: z.array(authorisationSchema).max(99, 'At most 99 authorisations').optional().meta({
    description: 'DE 2/3 authorisations the declaration relies on (C5xx codes, e.g. C506 deferred payment)',
  }),
  additionalInformation: z
    .array(additionalInformationSchema)
    .max(99, 'At most 99 statements')
    .optional()
    .meta({ description: 'DE 2/2 additional information (SAD box 44): a 5-character code and its text' }),
  seals: z.array(sealSchema).max(99, 'At most 99 seals').optional().meta({
    description: 'DE 7/18 seals (SAD box D): their number is the count, each with its identity and container',
  }),
  limitDate: optionalCalendarDate().meta({
    description:
      'Transit: the date by which the goods must be presented at the office of destination (SAD box D)',
  }),
  guaranteeType: guaranteeTypeSchema.nullish(),
  // DE 4/9: the consignment's additions and deductions, EUR, apportioned to the items (customs-value.ts).
  additionTransportInsurance: decimal({ ...MONEY_COLUMN, min: 0 })
    .nullish()
    .meta({
      description: 'DE 4/9 addition, EUR: transport and insurance to the place of entry into the Union',
    }),
  additionCommissions: decimal({ ...MONEY_COLUMN, min: 0 })
    .nullish()
    .meta({ description: 'DE 4/9 addition, EUR: commissions and brokerage, except buying commissions' }),
  additionPacking: decimal({ ...MONEY_COLUMN, min: 0 })
    .nullish()
    .meta({ description: 'DE 4/9 addition, EUR: containers and packing not in the price' }),
  deductionTransportAfterEntry: decimal({ ...MONEY_COLUMN, min: 0 })
    .nullish()
    .meta({ description: 'DE 4/9 deduction, EUR: transport after entry into the Union, when in the price' }),
  deductionDuties: decimal({ ...MONEY_COLUMN, min: 0 })
    .nullish()
    .meta({ description: 'DE 4/9 deduction, EUR: import duties and taxes in the Union, when in the price' }),
  apportionment: z.enum(APPORTIONMENTS, { message: 'Apportion by value or by mass' }).nullish().meta({
    description:
      'How the additions and deductions are split over the items: by value (default) or by net mass',
  }),
  /** DE 4/8: how an import's duties and taxes are paid (each tax line carries it). */
  methodOfPayment: methodOfPaymentSchema
    .nullish()
    .meta({ description: 'DE 4/8 method of payment of the duties and taxes (SAD box 47, MP)' }),
  guaranteeReference: code(grnProblem, { squash: true, max: 24 }),
  /** EUR. */
  guaranteeAmount: decimal({ ...MONEY_COLUMN, positive: true }).nullish(),
  /** Internal: customers never see it. */
  notes: optionalText(2000),
};

const lrn = code(lrnProblem, { max: 22 });

/**
 * The cross-field checks of the content that the fields alone cannot make: procedure codes against
 * the category, the invoice total's decimals against the currency. Runs even when a field failed (that
 * field's own error says why, once). `category` is null when it is not known from the body (an update
 * that leaves it out): the API then checks the stored one.
 */
export function declarationContentIssues(
  content: { currency?: unknown; invoiceTotal?: unknown; items?: unknown },
  category: DeclarationCategory | null,
): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const { currency: cur, invoiceTotal } = content;
  if (typeof cur === 'string' && typeof invoiceTotal === 'string') {
    const p = currencyDecimalsProblem(invoiceTotal, cur);
    if (p) out.push({ path: ['invoiceTotal'], message: p });
  }
  if (category && Array.isArray(content.items)) {
    content.items.forEach((item, i) => {
      const pc = (item as { procedureCode?: unknown } | null)?.procedureCode;
      if (typeof pc !== 'string' || !/^\d{4}$/.test(pc)) return;
      const p = procedureCodeProblem(pc, category);
      if (p) out.push({ path: ['items', i, 'procedureCode'], message: sentence(p) });
    });
  }
  return out;
}

function addContentIssues(
  content: Record<string, unknown>,
  category: DeclarationCategory | null,
  ctx: z.RefinementCtx,
  prefix: (string | number)[] = [],
) {
  for (const issue of declarationContentIssues(content, category))
    ctx.addIssue({ code: 'custom', path: [...prefix, ...issue.path], message: issue.message });
}

const contentFields = { ...declarationHeaderFields, items: items.optional() };

/** The default category of a type: the only one for import/export, T1 for transit. */
export function defaultCategory(type: DeclarationType): DeclarationCategory {
  return CATEGORIES_OF_TYPE[type][0] as DeclarationCategory;
}

/**
 * `POST /api/declarations`: a new draft. From a dossier (`dossierId`: parties, goods, transport and
 * references prefilled, the fields sent win), as a copy of another declaration (`copyOf`: its content,
 * a new LRN), or from scratch (`customerId` needed). The LRN comes from the series unless given.
 */
export const declarationCreateSchema = z
  .strictObject({
    type: declarationTypeSchema,
    category: declarationCategorySchema.optional(),
    dossierId: uuidSchema.nullish(),
    customerId: uuidSchema.optional(),
    copyOf: uuidSchema.optional(),
    /**
     * The warehouse shipment whose outbound declaration this is (its owner's, of its procedure's type).
     * A copy keeps its source's shipment while that shipment is still to leave; `null` unlinks it.
     */
    shipmentId: uuidSchema.nullish(),
    lrn,
    ...contentFields,
  })
  .superRefine((d, ctx) => {
    const { type, category, dossierId, customerId, copyOf } = d as Record<string, unknown>;
    if (!dossierId && !customerId && !copyOf)
      ctx.addIssue({
        code: 'custom',
        path: ['customerId'],
        message: 'Choose the customer (or start from a dossier)',
      });
    const known = DECLARATION_TYPES.includes(type as DeclarationType) ? (type as DeclarationType) : null;
    if (
      known &&
      typeof category === 'string' &&
      !CATEGORIES_OF_TYPE[known].includes(category as DeclarationCategory)
    )
      ctx.addIssue({
        code: 'custom',
        path: ['category'],
        message: `A ${known} declaration is ${CATEGORIES_OF_TYPE[known].join(' or ')}`,
      });
    // The items are checked against the category sent when it fits the type, else the type's own.
    const cat = !known
      ? null
      : CATEGORIES_OF_TYPE[known].includes(category as DeclarationCategory)
        ? (category as DeclarationCategory)
        : defaultCategory(known);
    addContentIssues(d as Record<string, unknown>, cat, ctx);
  });
export type DeclarationCreate = z.input<typeof declarationCreateSchema>;
export type DeclarationCreateParsed = z.output<typeof declarationCreateSchema>;

/** `PATCH /api/declarations/{id}` (drafts): what is sent changes; `items` replaces the whole array. */
export const declarationUpdateSchema = z
  .strictObject({
    version: versionSchema,
    lrn,
    category: declarationCategorySchema.optional(),
    ...contentFields,
  })
  .superRefine((d, ctx) => {
    const { category } = d as Record<string, unknown>;
    const cat = DECLARATION_CATEGORIES.includes(category as DeclarationCategory)
      ? (category as DeclarationCategory)
      : null;
    addContentIssues(d as Record<string, unknown>, cat, ctx);
  });
export type DeclarationUpdate = z.input<typeof declarationUpdateSchema>;
export type DeclarationUpdateParsed = z.output<typeof declarationUpdateSchema>;
/** What a content write takes (the API's edit, an accepted amendment): the update without its version. */
export type DeclarationUpdateInputWithoutVersion = Omit<DeclarationUpdateParsed, 'version'>;

/** `POST …/{id}/lodge`. */
export const declarationLodgeSchema = z.strictObject({ version: versionSchema });
export type DeclarationLodge = z.input<typeof declarationLodgeSchema>;

/** The content an amendment proposes: header fields and, when sent, the whole items array. */
export const declarationChangesSchema = z.strictObject(contentFields).superRefine((d, ctx) => {
  addContentIssues(d as Record<string, unknown>, null, ctx);
});
export type DeclarationChanges = z.output<typeof declarationChangesSchema>;

/** `POST …/{id}/amend`: accepted or refused later by the authority. */
export const declarationAmendSchema = z.strictObject({
  version: versionSchema,
  reason: text(500, { min: 1 }),
  changes: declarationChangesSchema,
});
export type DeclarationAmend = z.input<typeof declarationAmendSchema>;

/** `POST …/{id}/cancel`: a request to invalidate, answered later by the authority. */
export const declarationCancelSchema = z.strictObject({
  version: versionSchema,
  reason: text(500, { min: 1 }),
});
export type DeclarationCancel = z.input<typeof declarationCancelSchema>;

export const declarationListQuerySchema = listQueryBaseSchema.extend({
  type: csvOf(declarationTypeSchema).optional(),
  status: csvOf(declarationStatusSchema).optional(),
  dossierId: uuidSchema.optional(),
  customerId: uuidSchema.optional(),
  /** The start of an LRN or MRN, any case. */
  reference: z.string().trim().max(40).optional(),
  /** Created on or after / on or before this day. */
  from: calendarDate.optional(),
  to: calendarDate.optional(),
  /** `true`: an amendment or cancellation waits for the authority's answer. */
  pendingRequest: queryBoolean.optional(),
});
export type DeclarationListQuery = z.infer<typeof declarationListQuerySchema>;

// ---- what the API answers ------------------------------------------------------------------------

export const declarationPartySchema = z.object({
  partyId: z.string().nullable(),
  name: z.string(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string().nullable(),
  eori: z.string().nullable(),
});
export type DeclarationParty = z.infer<typeof declarationPartySchema>;

export const declarationDocumentRefSchema = z.object({ type: z.string(), reference: z.string() });
export type DeclarationDocumentRef = z.infer<typeof declarationDocumentRefSchema>;
export const declarationAuthorisationSchema = z.object({
  type: authorisationTypeSchema,
  reference: z.string(),
});
export type DeclarationAuthorisation = z.infer<typeof declarationAuthorisationSchema>;
export const declarationAdditionalInformationSchema = z.object({
  code: z.string(),
  text: z.string().nullable(),
});
export type DeclarationAdditionalInformation = z.infer<typeof declarationAdditionalInformationSchema>;
export const declarationSealSchema = z.object({ identifier: z.string(), container: z.string().nullable() });
export type DeclarationSeal = z.infer<typeof declarationSealSchema>;

export const itemEstimateSchema = z.object({
  customsValue: z.string(),
  dutyRate: z.string(),
  duty: z.string(),
  vatCosts: z.string(),
  vatBase: z.string(),
  vatRate: z.string(),
  vat: z.string(),
  total: z.string(),
}) satisfies z.ZodType<ItemEstimate>;

export const declarationTotalsSchema = z.object({
  packages: z.number().int(),
  grossMassKg: z.string(),
  netMassKg: z.string(),
  invoiceValue: z.string(),
  customsValue: z.string(),
  statisticalValue: z.string(),
  duty: z.string().nullable(),
  vatBase: z.string().nullable(),
  vat: z.string().nullable(),
  dutyAndVat: z.string().nullable(),
}) satisfies z.ZodType<DeclarationTotals>;

export const declarationItemSchema = z.object({
  id: z.string(),
  /** 1.., SAD box 32. */
  position: z.number().int(),
  commodityCode: z.string().nullable(),
  description: z.string().nullable(),
  countryOfOrigin: z.string().nullable(),
  preference: z.string().nullable(),
  procedureCode: z.string().nullable(),
  additionalProcedureCodes: z.array(z.string()),
  valuationMethod: valuationMethodSchema.nullable(),
  valuationReason: z.string().nullable(),
  supplementaryUnits: z.string().nullable(),
  packages: z.number().int().nullable(),
  packageKind: z.string().nullable(),
  marks: z.string().nullable(),
  grossMassKg: z.string().nullable(),
  netMassKg: z.string().nullable(),
  invoiceValue: z.string().nullable(),
  customsValue: z.string().nullable(),
  statisticalValue: z.string().nullable(),
  dutyRate: z.string().nullable(),
  vatRate: z.string().nullable(),
  vatCosts: z.string().nullable(),
  containers: z.array(z.string()),
  supportingDocuments: z.array(declarationDocumentRefSchema),
  previousDocuments: z.array(declarationDocumentRefSchema),
  /** Duty and VAT of this item (import, when customs value and both rates are given). */
  estimate: itemEstimateSchema.nullable(),
});
export type DeclarationItem = z.infer<typeof declarationItemSchema>;

/** A rule the authority names when it rejects (`field` is a path like `items.2.netMassKg`, when known). */
export const declarationRuleSchema = z.object({
  code: z.string(),
  text: z.string(),
  field: z.string().nullable(),
});
export type DeclarationRule = z.infer<typeof declarationRuleSchema>;

const userRefSchema = z.object({ id: z.string(), name: z.string() });
const recordRefSchema = z.object({ id: z.string(), number: z.string() });
const lastMessageSchema = z.object({ kind: declarationMessageKindSchema, at: z.string() });

export const declarationSchema = z.object({
  id: z.string(),
  type: declarationTypeSchema,
  category: declarationCategorySchema,
  status: declarationStatusSchema,
  lrn: z.string(),
  mrn: z.string().nullable(),
  gateway: z.object({ label: z.string(), sandbox: z.boolean() }),
  dossier: recordRefSchema.nullable(),
  /** The warehouse shipment this declaration lets leave (its outbound declaration), or null. */
  shipment: recordRefSchema.nullable(),
  customer: partyRefSchema,
  declarant: declarationPartySchema.nullable(),
  representative: declarationPartySchema.nullable(),
  representativeStatus: representativeStatusSchema.nullable(),
  consignor: declarationPartySchema.nullable(),
  consignee: declarationPartySchema.nullable(),
  holder: declarationPartySchema.nullable(),
  officeOfLodgement: z.string().nullable(),
  officeOfExitEntry: z.string().nullable(),
  officeOfDestination: z.string().nullable(),
  officesOfTransit: z.array(z.string()),
  countryOfDispatch: z.string().nullable(),
  countryOfDestination: z.string().nullable(),
  transportModeBorder: customsTransportModeSchema.nullable(),
  transportModeInland: customsTransportModeSchema.nullable(),
  meansAtDeparture: z.string().nullable(),
  meansAtDepartureCountry: z.string().nullable(),
  meansAtBorder: z.string().nullable(),
  meansAtBorderCountry: z.string().nullable(),
  containerIndicator: z.boolean(),
  incoterm: z.string().nullable(),
  incotermPlace: z.string().nullable(),
  natureOfTransaction: z.string().nullable(),
  currency: z.string().nullable(),
  invoiceTotal: z.string().nullable(),
  exchangeRate: z.string().nullable(),
  locationOfGoods: z.string().nullable(),
  locationOfGoodsType: locationTypeSchema.nullable(),
  locationOfGoodsQualifier: locationQualifierSchema.nullable(),
  warehouseReference: z.string().nullable(),
  authorisations: z.array(declarationAuthorisationSchema),
  additionalInformation: z.array(declarationAdditionalInformationSchema),
  seals: z.array(declarationSealSchema),
  limitDate: z.string().nullable(),
  guaranteeType: guaranteeTypeSchema.nullable(),
  additionTransportInsurance: z.string().nullable(),
  additionCommissions: z.string().nullable(),
  additionPacking: z.string().nullable(),
  deductionTransportAfterEntry: z.string().nullable(),
  deductionDuties: z.string().nullable(),
  apportionment: z.enum(APPORTIONMENTS).nullable(),
  methodOfPayment: methodOfPaymentSchema.nullable(),
  guaranteeReference: z.string().nullable(),
  guaranteeAmount: z.string().nullable(),
  /** Internal: null for customers. */
  notes: z.string().nullable(),
  items: z.array(declarationItemSchema),
  totals: declarationTotalsSchema,
  pendingRequest: declarationRequestSchema.nullable(),
  /** The rules of the last rejection of lodging; [] otherwise. */
  rejection: z.array(declarationRuleSchema),
  lastMessage: lastMessageSchema.nullable(),
  lodgedAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  releasedAt: z.string().nullable(),
  exitedAt: z.string().nullable(),
  arrivedAt: z.string().nullable(),
  dischargedAt: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
  updatedAt: z.string(),
  allowedActions: z.array(z.enum(DECLARATION_ACTIONS)),
});
export type Declaration = z.infer<typeof declarationSchema>;

export const declarationListItemSchema = z.object({
  id: z.string(),
  type: declarationTypeSchema,
  category: declarationCategorySchema,
  status: declarationStatusSchema,
  lrn: z.string(),
  mrn: z.string().nullable(),
  dossier: recordRefSchema.nullable(),
  shipment: recordRefSchema.nullable(),
  customer: partyRefSchema,
  declarantName: z.string().nullable(),
  /** EUR, the items' total. */
  customsValue: z.string(),
  /** Import: the duty and VAT estimate; null otherwise or without rates. */
  dutyAndVat: z.string().nullable(),
  lastMessage: lastMessageSchema.nullable(),
  pendingRequest: declarationRequestSchema.nullable(),
  /** Export: when the exit was confirmed (the proof for zero-rated export VAT the dossier shows). */
  exitedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeclarationListItem = z.infer<typeof declarationListItemSchema>;

export const declarationMessageSchema = z.object({
  id: z.string(),
  direction: z.enum(DECLARATION_MESSAGE_DIRECTIONS),
  kind: declarationMessageKindSchema,
  at: z.string(),
  summary: z.string(),
  mrn: z.string().nullable(),
  rules: z.array(declarationRuleSchema),
  sandbox: z.boolean(),
  /** The user who sent it; null for what the authority (or the system) sent. */
  by: userRefSchema.nullable(),
  /**
   * The NCTS message type when the message was exchanged as XML (`IE015` for a transit's lodgement):
   * `GET /declarations/{id}/messages/{messageId}/xml` downloads it as sent. Null otherwise.
   */
  xml: z.enum(['IE015']).nullable(),
});
export type DeclarationMessage = z.infer<typeof declarationMessageSchema>;

/**
 * Customers see their own party's declarations once lodged (drafts answer 404 like another party's),
 * never the internal notes, and write nothing. Staff may move a draft to another customer: a
 * customer's history starts where the declaration became theirs.
 */
export const declarationFieldVisibility = {
  internal: ['notes'],
  partyField: 'customerId',
} as const satisfies FieldVisibility;
