import { z } from 'zod';

/**
 * Stable codes of the contracts' own rules. A zod custom issue carries its code as `params.code`
 * (with the details a sentence needs, e.g. `example`), and the API passes it on as `errors[].code`
 * and `errors[].params`: a client words the problem itself (apps/web/src/lib/field-messages.ts)
 * instead of parsing the English `message`, which stays for developers.
 */
export const FIELD_ISSUE_CODES = [
  'unlocode',
  'vat_number',
  'eori',
  'country_code',
  'container_number',
  'container_check_digit',
  'imo_number',
  'act_after_recorded',
  'iban',
  'bic',
  'peppol_id',
  'peppol_endpoint',
  'series_prefix',
  'series_below_issued',
] as const;
export type FieldIssueCode = (typeof FIELD_ISSUE_CODES)[number];

/** The `params` of a custom issue with a stable code, e.g. `issueParams('vat_number', { example })`. */
export function issueParams(
  code: FieldIssueCode,
  details: Record<string, string | number> = {},
): { code: FieldIssueCode } & Record<string, string | number> {
  return { ...details, code };
}

/** One failing field of a request, as carried by a validation problem. */
export const fieldErrorSchema = z.object({
  /** Dotted path of the field, e.g. `body.email` is reported as `email`. */
  field: z.string(),
  message: z.string(),
  /** A rule's stable code (FIELD_ISSUE_CODES), when the rule has one. */
  code: z.string().optional(),
  /** What the code's sentence needs (an example value, the expected check digit…). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** RFC 9457 problem details, as every error of the API is answered. */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(fieldErrorSchema).optional(),
    /** The request's id (also its X-Request-Id header and on its log lines): the reference a user quotes. */
    requestId: z.string().optional(),
  })
  .catchall(z.unknown());
export type Problem = z.infer<typeof problemSchema>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * The problem type of a request that failed because the server could not reach its database (stopped,
 * restarting): answered 503 with `Retry-After`; nothing about the request itself was wrong.
 */
export const DATABASE_UNAVAILABLE_PROBLEM = '/problems/database-unavailable';
