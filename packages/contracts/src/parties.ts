import { z } from 'zod';
import { PARTY_KINDS } from './parties-values.ts';
import { EAS_SCHEMES, PEPPOL_ID_PATTERN } from './peppol.ts';
import { optionalText, versionSchema } from './primitives.ts';
import { issueParams } from './problem.ts';
import { listQueryBaseSchema } from './records.ts';
import { taxIdSchema } from './tax-id-schema.ts';
import { isCountryCode } from './validators/places.ts';
import { eoriProblem, vatNumberProblem } from './validators/tax-ids.ts';

export * from './parties-values.ts';

export const partyKindSchema = z.enum(PARTY_KINDS);

export const partyContactSchema = z.strictObject({
  name: z.string().trim().min(1, 'Enter a name').max(200),
  email: z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address')).nullish(),
  phone: optionalText(50),
  role: optionalText(100),
});

export const partyFieldsSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9_-]{1,19}$/, 'Use 2 to 20 letters, digits, - or _'),
  name: z.string().trim().min(1, 'Enter a name').max(200),
  kinds: z.array(partyKindSchema).min(1, 'Choose at least one role').max(PARTY_KINDS.length),
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
  /** The party's Peppol electronic address (BT-49 as a buyer): an EAS scheme and an id, both or neither. */
  peppolScheme: z
    .enum(EAS_SCHEMES, { message: 'Choose a Peppol scheme (EAS code) from the list' })
    .nullish()
    .or(z.literal('').transform(() => null)),
  peppolId: optionalText(50).refine((v) => !v || PEPPOL_ID_PATTERN.test(v), {
    message: 'Use letters, digits, . : _ or - only',
    params: issueParams('peppol_id'),
  }),
  street: optionalText(200),
  postalCode: optionalText(20),
  city: optionalText(100),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email('Enter a valid email address'))
    .nullish()
    .or(z.literal('').transform(() => null)),
  phone: optionalText(50),
  // No defaults here: the edit schema is this one made partial, and a default would overwrite.
  contacts: z.array(partyContactSchema).max(50).optional(),
});
export type PartyFields = z.input<typeof partyFieldsSchema>;

/**
 * Why a party's Peppol scheme and id do not go together (one without the other is no address), as
 * `{ field, message }`, or undefined. The create schema and the service (on the stored pair after a
 * partial update) both ask it.
 */
export function peppolPairProblem(v: {
  peppolScheme?: string | null;
  peppolId?: string | null;
}): { field: 'peppolScheme' | 'peppolId'; message: string } | undefined {
  if (v.peppolScheme && !v.peppolId)
    return { field: 'peppolId', message: 'Enter the endpoint id that goes with the scheme' };
  if (v.peppolId && !v.peppolScheme)
    return { field: 'peppolScheme', message: 'Choose the scheme of the endpoint id' };
  return undefined;
}

export const partyCreateSchema = partyFieldsSchema.superRefine((v, ctx) => {
  const problem = peppolPairProblem(v);
  if (problem)
    ctx.addIssue({
      code: 'custom',
      path: [problem.field],
      message: problem.message,
      params: issueParams('peppol_endpoint'),
    });
});
export const partyUpdateSchema = partyFieldsSchema.partial().extend({ version: versionSchema });

export const partySchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  kinds: z.array(z.string()),
  countryCode: z.string(),
  vatNumber: z.string().nullable(),
  eori: z.string().nullable(),
  peppolScheme: z.string().nullable(),
  peppolId: z.string().nullable(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  contacts: z.array(
    z.object({
      name: z.string(),
      email: z.string().nullish(),
      phone: z.string().nullish(),
      role: z.string().nullish(),
    }),
  ),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Party = z.infer<typeof partySchema>;

export const partyListQuerySchema = listQueryBaseSchema.extend({
  kind: partyKindSchema.optional(),
  countryCode: z.string().trim().toUpperCase().length(2).optional(),
});
export type PartyListQuery = z.infer<typeof partyListQuerySchema>;

/** A party as other records show it. */
export const partyRefSchema = z.object({ id: z.string(), code: z.string(), name: z.string() });
export type PartyRef = z.infer<typeof partyRefSchema>;
