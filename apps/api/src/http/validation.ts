import type { FieldError } from '@fvg/contracts';
import type { z } from 'zod';

/**
 * The stable code and details of a contract rule's issue (its `params.code`, see FIELD_ISSUE_CODES),
 * to pass on beside the message so a client can word it; nothing for other issues.
 */
export function issueCode(params: unknown): Pick<FieldError, 'code' | 'params'> {
  if (typeof params !== 'object' || params === null) return {};
  const { code, ...rest } = params as Record<string, unknown>;
  if (typeof code !== 'string') return {};
  const details = Object.fromEntries(
    Object.entries(rest).filter((e): e is [string, string | number] =>
      ['string', 'number'].includes(typeof e[1]),
    ),
  );
  return Object.keys(details).length ? { code, params: details } : { code };
}

/** Zod issues as the problem+json `errors` list: one entry per field, dotted path. */
export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'body',
    message: issue.message,
    ...(issue.code === 'custom' ? issueCode(issue.params) : {}),
  }));
}
