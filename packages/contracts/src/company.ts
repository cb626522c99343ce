import { z } from 'zod';
import { BASE_CURRENCIES, formatSeriesNumber, PEPPOL_SCHEMES, SERIES_KINDS } from './company-values.ts';
import { MAX_LRN_LENGTH } from './declarations-values.ts';
import { int, optionalCalendarDate, optionalText, text, versionSchema } from './primitives.ts';
import { issueParams } from './problem.ts';
import { taxIdSchema } from './tax-id-schema.ts';
import { gs1CompanyPrefixProblem } from './validators/gs1.ts';
import { ibanLength, ibanProblem, isBic, normalizeIban } from './validators/iban.ts';
import { isCountryCode } from './validators/places.ts';
import { eoriProblem, vatNumberProblem } from './validators/tax-ids.ts';

export * from './company-values.ts';

export const seriesKindSchema = z.enum(SERIES_KINDS);

const iban = z
  .string()
  .transform(normalizeIban)
  .transform((s) => (s === '' ? null : s))
  .nullish()
  .superRefine((v, ctx) => {
    const problem = v ? ibanProblem(v) : undefined;
    if (!problem || !v) return;
    const length = ibanLength(v.slice(0, 2));
    const message =
      problem === 'check-digits'
        ? 'This IBAN has a typo: its check digits do not match'
        : problem === 'length' && length
          ? `A ${v.slice(0, 2)} IBAN has ${length} characters`
          : 'Enter an IBAN such as NL91 ABNA 0417 1643 00';
    ctx.addIssue({
      code: 'custom',
      message,
      params: issueParams('iban', { problem, ...(length && problem === 'length' ? { length } : {}) }),
    });
  });

const bic = z
  .string()
  .transform((s) => s.replace(/\s+/g, '').toUpperCase())
  .transform((s) => (s === '' ? null : s))
  .nullish()
  .refine((v) => !v || isBic(v), {
    message: 'Enter a BIC of 8 or 11 characters such as ABNANL2A',
    params: issueParams('bic'),
  });

/** A series' prefix: what precedes the number, e.g. `I-` gives I-2026-000123. */
export const seriesPrefixSchema = text(12, { min: 1 })
  .transform((s) => s.toUpperCase())
  .refine((s) => /^[A-Z0-9][A-Z0-9/.-]{0,11}$/.test(s), {
    message: 'Use letters, digits, - / or . (up to 12), starting with a letter or digit',
    params: issueParams('series_prefix'),
  });

export const seriesInputSchema = z.strictObject({
  kind: seriesKindSchema,
  prefix: seriesPrefixSchema,
  /** The calendar year the next number applies to; the current year when absent. */
  year: int({ min: 2000, max: 9999 }).optional(),
  nextNumber: int({ min: 1, max: 999_999_999 }),
  /** Why the next number changes: required when it does (kept in the company's history). */
  reason: optionalText(500),
});
export type SeriesInput = z.input<typeof seriesInputSchema>;

export const companyFieldsSchema = z.strictObject({
  legalName: text(200, { min: 1 }),
  street: optionalText(200),
  postalCode: optionalText(20),
  city: optionalText(100),
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCountryCode, {
      message: 'Enter an ISO 3166 country code (e.g. NL)',
      params: issueParams('country_code'),
    }),
  vatNumber: taxIdSchema(vatNumberProblem, 'vat_number'),
  eori: taxIdSchema(eoriProblem, 'eori'),
  registrationNumber: optionalText(50),
  iban,
  bic,
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email('Enter a valid email address'))
    .nullish()
    .or(z.literal('').transform(() => null)),
  peppolScheme: z
    .enum(PEPPOL_SCHEMES, { message: 'Choose a Peppol scheme from the list' })
    .nullish()
    .or(z.literal('').transform(() => null)),
  peppolId: optionalText(50).refine((v) => !v || /^[A-Za-z0-9][A-Za-z0-9.:_-]*$/.test(v), {
    message: 'Use letters, digits, . : _ or - only',
    params: issueParams('peppol_id'),
  }),
  baseCurrency: z.enum(BASE_CURRENCIES, { message: 'The base currency is EUR (job costing is kept in EUR)' }),
  paymentTermsDays: int({ min: 0, max: 365 }),
  invoiceFooter: optionalText(1000),
  /** The GS1 company prefix pallets' SSCCs are generated under (the warehouse); none: SSCCs are typed. */
  gs1CompanyPrefix: z
    .string()
    .transform((s) => s.replace(/\s+/g, ''))
    .transform((s) => (s === '' ? null : s))
    .superRefine((v, ctx) => {
      const p = v === null ? undefined : gs1CompanyPrefixProblem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    })
    .nullish(),
  /** The SSCC's first digit, 0–9, which the company chooses to widen its serial range. */
  ssccExtensionDigit: int({ min: 0, max: 9 }).optional(),
  /** Books closed up to this day: nothing is issued, paid or credited on or before it. */
  booksClosedUpTo: optionalCalendarDate(),
  series: z
    .array(seriesInputSchema)
    .max(SERIES_KINDS.length * 2)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((s, i) => {
        const key = `${s.kind}/${s.year ?? ''}`;
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', path: [i, 'kind'], message: 'This series is listed twice' });
        seen.add(key);
        // The declaration series makes LRNs, which customs takes up to 22 characters (domain-standards).
        const lrn = formatSeriesNumber(s.prefix, s.year ?? new Date().getUTCFullYear(), s.nextNumber);
        if (s.kind === 'declaration' && lrn.length > MAX_LRN_LENGTH)
          ctx.addIssue({
            code: 'custom',
            path: [i, 'prefix'],
            message: `An LRN has at most ${MAX_LRN_LENGTH} characters; ${lrn} has ${lrn.length}: shorten the prefix`,
          });
      });
    }),
});

/** The endpoint is a scheme and an id together: one without the other is no address (Peppol BT-34). */
function peppolPair(
  v: { peppolScheme?: string | null | undefined; peppolId?: string | null | undefined },
  ctx: z.RefinementCtx,
) {
  // Checked here when the form sends both; the service checks the stored pair after a partial update.
  if (v.peppolScheme === undefined || v.peppolId === undefined) return;
  if (v.peppolScheme && !v.peppolId)
    ctx.addIssue({
      code: 'custom',
      path: ['peppolId'],
      message: 'Enter the endpoint id that goes with the scheme',
      params: issueParams('peppol_endpoint'),
    });
  if (v.peppolId && !v.peppolScheme)
    ctx.addIssue({
      code: 'custom',
      path: ['peppolScheme'],
      message: 'Choose the scheme of the endpoint id',
      params: issueParams('peppol_endpoint'),
    });
}

/** The whole settings as the admin screen sends them: the Peppol pair checked together. */
export const companyFormSchema = companyFieldsSchema.superRefine(peppolPair);

/** PUT /api/company: every field is optional (what is absent stays), `version` is required. */
export const companyUpdateSchema = companyFieldsSchema
  .partial()
  .extend({ version: versionSchema })
  .superRefine(peppolPair);
export type CompanyUpdate = z.input<typeof companyUpdateSchema>;

export const seriesSchema = z.object({
  kind: seriesKindSchema,
  prefix: z.string(),
  year: z.number().int(),
  nextNumber: z.number().int(),
  /** The last number issued that year (0: none); the next number must stay above it. */
  lastIssued: z.number().int(),
});
export type Series = z.infer<typeof seriesSchema>;

export const companySchema = z.object({
  legalName: z.string(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  countryCode: z.string(),
  vatNumber: z.string().nullable(),
  eori: z.string().nullable(),
  registrationNumber: z.string().nullable(),
  iban: z.string().nullable(),
  bic: z.string().nullable(),
  email: z.string().nullable(),
  peppolScheme: z.string().nullable(),
  peppolId: z.string().nullable(),
  baseCurrency: z.string(),
  paymentTermsDays: z.number().int(),
  invoiceFooter: z.string().nullable(),
  gs1CompanyPrefix: z.string().nullable(),
  ssccExtensionDigit: z.number().int(),
  /** Books closed up to this day (null: none closed). */
  booksClosedUpTo: z.string().nullable(),
  /** The series of the current year (the year each one reports). */
  series: z.array(seriesSchema),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;
