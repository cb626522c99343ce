import type { FieldError } from '@fvg/contracts';
import type { z } from 'zod';

/** Zod issues as the problem+json `errors` list: one entry per field, dotted path. */
export function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || 'body',
    message: issue.message,
  }));
}
