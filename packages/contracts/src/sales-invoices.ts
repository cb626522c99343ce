import { z } from 'zod';
import { currencyCodeSchema, latestTodayOnEarth, MONEY_COLUMN, RATE_COLUMN } from './dossiers.ts';
import {
  type AllowanceCharge,
  allowanceChargeProblem,
  lineNet,
  lineNetWithAllowances,
} from './invoice-math.ts';
import { partyRefSchema } from './parties.ts';
import {
  calendarDate,
  decimal,
  fitsNumeric,
  int,
  optionalCalendarDate,
  optionalText,
  queryBoolean,
  text,
  versionSchema,
} from './primitives.ts';
import { csvOf, type FieldVisibility, listQueryBaseSchema, uuidSchema } from './records.ts';
import {
  INVOICE_KINDS,
  INVOICE_STATUSES,
  SALES_CHARGE_CODES,
  SALES_UNITS,
  VAT_CODES,
  VAT_EXEMPTION_REASONS,
} from './sales-values.ts';

/**
 * Sales invoices and credit notes (issue 11): a draft is edited freely, issuing gives it the next
 * number of its series and freezes it (in the database too); credit notes are invoice records of kind
 * `credit_note` against an issued invoice; payments lower what is open. The arithmetic lives in
 * invoice-math.ts, the VAT defaults and the issue checks in vat-rules.ts: this file is only the shapes.
 */

export const invoiceKindSchema = z.enum(INVOICE_KINDS);
export const invoiceStatusSchema = z.enum(INVOICE_STATUSES);
export const salesChargeCodeSchema = z.enum(SALES_CHARGE_CODES, { message: 'Choose a charge from the list' });
export const salesUnitSchema = z.enum(SALES_UNITS, { message: 'Choose a unit from the list' });
export const vatCodeSchema = z.enum(VAT_CODES, { message: 'Choose a VAT code from the list' });
export const vatExemptionReasonSchema = z.enum(VAT_EXEMPTION_REASONS, {
  message: 'Choose an exemption reason from the list',
});

/** What a user may do with an invoice now (`allowedActions`). */
export const INVOICE_ACTIONS = ['edit', 'delete', 'issue', 'credit', 'pay'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

/** Column sizes (migration 0018): quantities numeric(14,3), unit prices (16,4), amounts (16,2), rates (18,6). */
const QUANTITY_COLUMN = { precision: 14, scale: 3 } as const;
const UNIT_PRICE_COLUMN = { precision: 16, scale: 4 } as const;
const AMOUNT_COLUMN = MONEY_COLUMN;

/** Units of base currency (EUR) per unit of the invoice currency: BT-6 needs it when they differ. */
export const exchangeRateSchema = decimal({ ...RATE_COLUMN, positive: true });

const isDecimal = (s: unknown): s is string => typeof s === 'string' && /^-?\d{1,40}(\.\d{1,20})?$/.test(s);

/** The rate a VAT code takes: S above 0 %, O none, the others 0 % (a line's and a document allowance's). */
function vatRateIssue(ctx: z.RefinementCtx, vatCode: unknown, vatRate: unknown): void {
  if (vatCode === 'S' && (vatRate === null || vatRate === undefined))
    ctx.addIssue({ code: 'custom', path: ['vatRate'], message: 'Enter the VAT rate of the standard rate' });
  else if (vatCode === 'S' && isDecimal(vatRate) && Number(vatRate) <= 0)
    ctx.addIssue({ code: 'custom', path: ['vatRate'], message: 'A standard rate is more than 0 %' });
  else if (vatCode === 'O' && vatRate !== null && vatRate !== undefined)
    ctx.addIssue({ code: 'custom', path: ['vatRate'], message: 'Outside the scope of VAT has no rate' });
  else if (
    (vatCode === 'Z' || vatCode === 'E' || vatCode === 'AE' || vatCode === 'K' || vatCode === 'G') &&
    isDecimal(vatRate) &&
    Number(vatRate) !== 0
  )
    ctx.addIssue({ code: 'custom', path: ['vatRate'], message: `The rate of VAT code ${vatCode} is 0 %` });
}

/** The fields of an allowance (a discount) or a charge (a surcharge), EN 16931 BG-20/21/27/28 (ADR 0049). */
const allowanceChargeFields = {
  /** true: a charge (surcharge, UNCL7161 reasons); false: an allowance (discount, UNCL5189 reasons). */
  isCharge: z.boolean({ error: 'Say whether it is a discount (false) or a surcharge (true)' }),
  /** Without VAT, above 0, at most 2 decimals. */
  amount: decimal({ ...AMOUNT_COLUMN, positive: true }),
  reasonCode: optionalText(3),
  reason: optionalText(100),
};

/** allowanceChargeProblem, the one rule, on the parsed fields (its field names are the API's). */
function allowanceChargeIssue(ac: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (typeof ac.amount !== 'string' || typeof ac.isCharge !== 'boolean') return;
  const problem = allowanceChargeProblem(ac as unknown as AllowanceCharge);
  // The amount's own schema has said why already.
  if (problem && problem.field !== 'amount')
    ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
}

/** A line's allowance or charge (BG-27/BG-28): it changes the line's net (BT-131). */
export const allowanceChargeInputSchema = z
  .strictObject(allowanceChargeFields)
  .superRefine((ac, ctx) => allowanceChargeIssue(ac, ctx));
export type AllowanceChargeInput = z.input<typeof allowanceChargeInputSchema>;

/** A document allowance or charge (BG-20/BG-21), in the VAT category and rate it lowers or raises. */
export const documentAllowanceChargeInputSchema = z
  .strictObject({
    ...allowanceChargeFields,
    vatCode: vatCodeSchema,
    /** As a line's: S above 0 %, none for O, 0 for the others. */
    vatRate: decimal({ precision: 5, scale: 2, min: 0 }).nullish(),
  })
  .superRefine((ac, ctx) => {
    allowanceChargeIssue(ac, ctx);
    const { vatCode, vatRate } = ac as Record<string, unknown>;
    vatRateIssue(ctx, vatCode, vatRate);
  });
export type DocumentAllowanceChargeInput = z.input<typeof documentAllowanceChargeInputSchema>;

/** At most this many per line and per document. */
const MAX_ALLOWANCE_CHARGES = 20;

export const invoiceLineInputSchema = z
  .strictObject({
    /** The dossier revenue charge this line bills (lines drafted from a dossier carry it). */
    chargeId: uuidSchema.nullish(),
    /** On a credit note: the line of its invoice this line credits (required there, at that line's price and VAT). */
    creditedLineId: uuidSchema.nullish(),
    chargeCode: salesChargeCodeSchema,
    description: text(200, { min: 1 }),
    quantity: decimal({ ...QUANTITY_COLUMN, positive: true }),
    unit: salesUnitSchema.default('C62'),
    unitPrice: decimal({ ...UNIT_PRICE_COLUMN, min: 0 }),
    vatCode: vatCodeSchema,
    /** Percent (`'21'`); `0` for Z, E, AE, K and G; none for O (outside the scope of VAT). */
    vatRate: decimal({ precision: 5, scale: 2, min: 0 }).nullish(),
    /** Why a line is E, AE or O (VATEX, BT-121); issuing asks for it, a draft may leave it open. */
    exemptionReason: vatExemptionReasonSchema.nullish(),
    /** Discounts and surcharges of this line (BG-27/BG-28); its net is q × p + charges − allowances. */
    allowanceCharges: z
      .array(allowanceChargeInputSchema)
      .max(MAX_ALLOWANCE_CHARGES, `At most ${MAX_ALLOWANCE_CHARGES} per line`)
      .optional(),
  })
  .superRefine((line, ctx) => {
    // Runs even when a field failed: that field's own error says why, once.
    const { vatCode, vatRate, quantity, unitPrice, allowanceCharges } = line as Record<string, unknown>;
    vatRateIssue(ctx, vatCode, vatRate);
    if (isDecimal(quantity) && isDecimal(unitPrice)) {
      const readable =
        Array.isArray(allowanceCharges) &&
        allowanceCharges.every((ac: { amount?: unknown }) => isDecimal(ac?.amount));
      const net = readable
        ? lineNetWithAllowances({
            quantity,
            unitPrice,
            allowanceCharges: allowanceCharges as AllowanceCharge[],
          })
        : lineNet(quantity, unitPrice);
      if (!fitsNumeric(net, AMOUNT_COLUMN.precision, AMOUNT_COLUMN.scale))
        ctx.addIssue({
          code: 'custom',
          path: ['unitPrice'],
          message: `Quantity × unit price is ${net}, more than a line may be`,
        });
    }
  });
export type InvoiceLineInput = z.input<typeof invoiceLineInputSchema>;

const invoiceLines = z.array(invoiceLineInputSchema).max(500, 'At most 500 lines');

/** The header fields of a draft a staff user edits (the same for create and edit). */
const draftFields = {
  supplyDate: optionalCalendarDate(),
  /** BT-10: the buyer's reference (Peppol asks for it or an order reference). */
  buyerReference: optionalText(100),
  /** BT-13: the buyer's purchase order. */
  orderReference: optionalText(100),
  /** Internal: customers never see it. */
  notes: optionalText(2000),
  paymentTermsDays: int({ min: 0, max: 365 }).optional(),
  /** Discounts and surcharges of the whole document (BG-20/BG-21), each in a VAT category and rate. */
  allowanceCharges: z
    .array(documentAllowanceChargeInputSchema)
    .max(MAX_ALLOWANCE_CHARGES, `At most ${MAX_ALLOWANCE_CHARGES} on a document`)
    .optional(),
};

/** `POST /api/sales-invoices { dossierId, currency? }`: the dossier's revenue charges not yet invoiced. */
export const salesInvoiceFromDossierSchema = z.strictObject({
  dossierId: uuidSchema,
  /** Needed only when the dossier's open revenue charges are in several currencies. */
  currency: currencyCodeSchema.optional(),
  /** Base currency per unit of that currency; the charges' own rate when left out. */
  exchangeRate: exchangeRateSchema.nullish(),
  ...draftFields,
});
export type SalesInvoiceFromDossier = z.input<typeof salesInvoiceFromDossierSchema>;

/** `POST /api/sales-invoices` from scratch: a customer and the lines. */
export const salesInvoiceFromLinesSchema = z.strictObject({
  customerId: uuidSchema,
  dossierId: uuidSchema.nullish(),
  currency: currencyCodeSchema,
  exchangeRate: exchangeRateSchema.nullish(),
  ...draftFields,
  lines: invoiceLines,
});
export type SalesInvoiceFromLines = z.input<typeof salesInvoiceFromLinesSchema>;

/**
 * Either shape. One object checked by hand rather than a zod union, so a wrong body answers with the
 * failing fields of the shape meant (`lines.2.vatRate`, `customerId`), not "matches neither": a body
 * with `customerId` or `lines` is from scratch, otherwise it drafts from the dossier.
 */
export const salesInvoiceCreateSchema = z
  .record(z.string(), z.unknown(), { message: 'Send an object' })
  .meta({
    description:
      'Either `{ dossierId, currency?, exchangeRate?, supplyDate?, buyerReference?, orderReference?, notes?, ' +
      'paymentTermsDays? }` (the dossier’s revenue charges not invoiced yet become the lines) or `{ customerId, ' +
      'currency, lines: [{ chargeCode, description, quantity, unit, unitPrice, vatCode, vatRate?, exemptionReason?, ' +
      'chargeId?, allowanceCharges?: [{ isCharge, amount, reasonCode?, reason? }] }], dossierId?, exchangeRate?, ' +
      'supplyDate?, buyerReference?, orderReference?, notes?, paymentTermsDays?, allowanceCharges?: [{ isCharge, amount, ' +
      'reasonCode?, reason?, vatCode, vatRate? }] }`. Allowances are discounts, charges surcharges (EN 16931 ' +
      'BG-20/21 on the document, BG-27/28 on a line); reason codes from UNCL5189 and UNCL7161.',
    example: {
      customerId: '0b5e3a52-7c1d-4e8f-9a6b-2c3d4e5f6a7b',
      currency: 'EUR',
      lines: [
        {
          chargeCode: 'FREIGHT',
          description: 'Ocean freight',
          quantity: '1',
          unit: 'LS',
          unitPrice: '1200',
          vatCode: 'S',
          vatRate: '21',
        },
      ],
    },
  })
  .transform((body, ctx): SalesInvoiceCreateParsed => {
    const fromLines = 'customerId' in body || 'lines' in body;
    const parsed = (fromLines ? salesInvoiceFromLinesSchema : salesInvoiceFromDossierSchema).safeParse(body);
    if (parsed.success) return parsed.data;
    // The shape's own issues, unchanged (an unknown key stays `unrecognized_keys`, reported per key).
    for (const issue of parsed.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  });
export type SalesInvoiceCreateParsed =
  | z.output<typeof salesInvoiceFromDossierSchema>
  | z.output<typeof salesInvoiceFromLinesSchema>;
export type SalesInvoiceCreate = SalesInvoiceFromDossier | SalesInvoiceFromLines;

/** `PATCH /api/sales-invoices/{id}` (drafts): what is sent changes; `lines` replaces the whole list. */
export const salesInvoiceUpdateSchema = z.strictObject({
  version: versionSchema,
  customerId: uuidSchema.optional(),
  dossierId: uuidSchema.nullish(),
  currency: currencyCodeSchema.optional(),
  exchangeRate: exchangeRateSchema.nullish(),
  ...draftFields,
  lines: invoiceLines.optional(),
});
export type SalesInvoiceUpdate = z.input<typeof salesInvoiceUpdateSchema>;

/** `POST …/{id}/issue`: the issue date defaults to today in the company's zone; never in the future. */
export const invoiceIssueSchema = z.strictObject({
  version: versionSchema,
  issueDate: calendarDate
    .refine((d) => d <= latestTodayOnEarth(), 'The issue date cannot be in the future')
    .optional(),
});
export type InvoiceIssue = z.input<typeof invoiceIssueSchema>;

/**
 * `POST …/{id}/credit-notes`: a draft credit note of the chosen lines and quantities (positive, as UBL
 * CreditNote wants), or of everything still creditable when `lines` is left out.
 */
export const creditNoteCreateSchema = z.strictObject({
  version: versionSchema,
  lines: z
    .array(
      z.strictObject({
        lineId: uuidSchema,
        quantity: decimal({ ...QUANTITY_COLUMN, positive: true }),
      }),
    )
    .min(1, 'Choose at least one line to credit')
    .max(500)
    .superRefine((lines, ctx) => {
      const seen = new Set<string>();
      lines.forEach((l, i) => {
        if (seen.has(l.lineId))
          ctx.addIssue({ code: 'custom', path: [i, 'lineId'], message: 'This line is listed twice' });
        seen.add(l.lineId);
      });
    })
    .optional(),
});
export type CreditNoteCreate = z.input<typeof creditNoteCreateSchema>;

/** `POST …/{id}/payments`: more than what is open is refused on `amount`. */
export const paymentCreateSchema = z.strictObject({
  paidOn: calendarDate.refine((d) => d <= latestTodayOnEarth(), 'A payment cannot be received in the future'),
  amount: decimal({ ...AMOUNT_COLUMN, positive: true }),
  reference: optionalText(100),
});
export type PaymentCreate = z.input<typeof paymentCreateSchema>;

/** `DELETE …/{id}/payments/{paymentId}` (the last one only): the row stays, with why it was removed. */
export const paymentDeleteSchema = z.strictObject({
  reason: text(500, { min: 1 }),
});
export type PaymentDelete = z.input<typeof paymentDeleteSchema>;

export const salesInvoiceListQuerySchema = listQueryBaseSchema.extend({
  status: csvOf(invoiceStatusSchema).optional(),
  kind: csvOf(invoiceKindSchema).optional(),
  customerId: uuidSchema.optional(),
  dossierId: uuidSchema.optional(),
  /** Issued on or after / on or before this day (issue dates are calendar days). */
  issuedFrom: calendarDate.optional(),
  issuedTo: calendarDate.optional(),
  /** `true`: past the due date and not paid; `false`: the others. */
  overdue: queryBoolean.optional(),
});
export type SalesInvoiceListQuery = z.infer<typeof salesInvoiceListQuerySchema>;

// ---- what the API answers ------------------------------------------------------------------------

/** A party as printed on the invoice: snapshot at issue (live data while a draft). */
export const invoicePartySchema = z.object({
  name: z.string(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string(),
  vatNumber: z.string().nullable(),
  registrationNumber: z.string().nullable(),
  peppolScheme: z.string().nullable(),
  peppolId: z.string().nullable(),
  email: z.string().nullable(),
});
export type InvoiceParty = z.infer<typeof invoicePartySchema>;

/** The seller adds how to pay and the footer. */
export const invoiceSellerSchema = invoicePartySchema.extend({
  iban: z.string().nullable(),
  bic: z.string().nullable(),
  footer: z.string().nullable(),
});
export type InvoiceSeller = z.infer<typeof invoiceSellerSchema>;

export const allowanceChargeSchema = z.object({
  isCharge: z.boolean(),
  amount: z.string(),
  reasonCode: z.string().nullable(),
  reason: z.string().nullable(),
});
export const documentAllowanceChargeSchema = allowanceChargeSchema.extend({
  vatCode: vatCodeSchema,
  vatRate: z.string().nullable(),
});

export const invoiceLineSchema = z.object({
  id: z.string(),
  chargeId: z.string().nullable(),
  /** On a credit note: the invoice line it credits. */
  creditedLineId: z.string().nullable(),
  chargeCode: salesChargeCodeSchema,
  description: z.string(),
  quantity: z.string(),
  unit: salesUnitSchema,
  unitPrice: z.string(),
  vatCode: vatCodeSchema,
  vatRate: z.string().nullable(),
  exemptionReason: vatExemptionReasonSchema.nullable(),
  /** Discounts and surcharges of the line (BG-27/BG-28), in its net. */
  allowanceCharges: z.array(allowanceChargeSchema),
  /** BT-131: q × p rounded, plus the line's charges, less its allowances. */
  lineNet: z.string(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const vatGroupSchema = z.object({
  vatCode: vatCodeSchema,
  vatRate: z.string().nullable(),
  taxableAmount: z.string(),
  vatAmount: z.string(),
  exemptionReason: vatExemptionReasonSchema.nullable(),
});

/** invoice-math's DocumentTotals without `lineNets` (each line carries its own), plus the VAT in EUR. */
export const invoiceTotalsSchema = z.object({
  lineExtensionAmount: z.string(),
  vatGroups: z.array(vatGroupSchema),
  /** BT-107: the document's allowances. */
  allowanceTotalAmount: z.string(),
  /** BT-108: the document's charges. */
  chargeTotalAmount: z.string(),
  taxExclusiveAmount: z.string(),
  vatTotal: z.string(),
  taxInclusiveAmount: z.string(),
  payableAmount: z.string(),
  /** The VAT total in the base currency (BT-111): vatTotal × exchange rate; equal to vatTotal in EUR. */
  vatTotalBase: z.string(),
});
export type InvoiceTotals = z.infer<typeof invoiceTotalsSchema>;

const userRefSchema = z.object({ id: z.string(), name: z.string() });
const recordRefSchema = z.object({ id: z.string(), number: z.string() });
/** A draft has no number yet. */
/** The invoice a credit note corrects: its number (BT-25) and issue date (BT-26). */
const invoiceRefSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  issueDate: z.string().nullable(),
});

export const paymentSchema = z.object({
  id: z.string(),
  paidOn: z.string(),
  amount: z.string(),
  reference: z.string().nullable(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const salesInvoiceListItemSchema = z.object({
  id: z.string(),
  kind: invoiceKindSchema,
  number: z.string().nullable(),
  status: invoiceStatusSchema,
  customer: partyRefSchema,
  dossier: recordRefSchema.nullable(),
  creditedInvoice: invoiceRefSchema.nullable(),
  currency: z.string(),
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  /** BT-112: the total with VAT. */
  taxInclusiveAmount: z.string(),
  paidAmount: z.string(),
  /** What is still to be paid: total − payments − issued credit notes (0 for a credit note). */
  openAmount: z.string(),
  /** Past the due date and not (fully) paid. */
  overdue: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SalesInvoiceListItem = z.infer<typeof salesInvoiceListItemSchema>;

export const salesInvoiceSchema = z.object({
  id: z.string(),
  kind: invoiceKindSchema,
  number: z.string().nullable(),
  status: invoiceStatusSchema,
  customer: partyRefSchema,
  dossier: recordRefSchema.nullable(),
  creditedInvoice: invoiceRefSchema.nullable(),
  /** Credit notes drafted or issued against this invoice (customers see the issued ones). */
  creditNotes: z.array(
    z.object({
      id: z.string(),
      number: z.string().nullable(),
      status: invoiceStatusSchema,
      taxInclusiveAmount: z.string(),
    }),
  ),
  currency: z.string(),
  /** Base currency per unit of `currency`; null in the base currency. */
  exchangeRate: z.string().nullable(),
  issueDate: z.string().nullable(),
  supplyDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  paymentTermsDays: z.number().int(),
  buyerReference: z.string().nullable(),
  orderReference: z.string().nullable(),
  /** Internal: null for customers. */
  notes: z.string().nullable(),
  seller: invoiceSellerSchema,
  buyer: invoicePartySchema,
  lines: z.array(invoiceLineSchema),
  /** Discounts and surcharges of the whole document (BG-20/BG-21), between the lines' sum and the total excl. VAT. */
  allowanceCharges: z.array(documentAllowanceChargeSchema),
  totals: invoiceTotalsSchema,
  paidAmount: z.string(),
  openAmount: z.string(),
  overdue: z.boolean(),
  payments: z.array(paymentSchema),
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: userRefSchema.nullable(),
  updatedAt: z.string(),
  issuedAt: z.string().nullable(),
  allowedActions: z.array(z.enum(INVOICE_ACTIONS)),
  /**
   * Why it is not offered as a Peppol BIS e-invoice (an electronic address is missing, PEPPOL-EN16931-R010
   * / R020), with what to enter; empty when its UBL can be downloaded. A draft: what issuing warns of.
   */
  eInvoiceProblems: z
    .array(z.object({ field: z.string(), message: z.string(), code: z.string() }))
    .optional(),
});
export type SalesInvoice = z.infer<typeof salesInvoiceSchema>;
/**
 * An invoice with allowances and charges on the document (BG-20/21) and its lines (BG-27/28), as the
 * UBL and the PDF write them: since migration 0034 every invoice the API answers (ADR 0049).
 */
export type SalesInvoiceWithAllowances = SalesInvoice;

/**
 * Customers see their own issued invoices and credit notes in full but for the internal notes;
 * drafts are never theirs to see (404). Staff may move a draft to another customer: a customer's
 * history starts where the invoice became theirs.
 */
export const salesInvoiceFieldVisibility = {
  internal: ['notes'],
  partyField: 'customerId',
} as const satisfies FieldVisibility;
