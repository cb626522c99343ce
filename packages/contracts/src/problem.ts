import { z } from 'zod';

/** One failing field of a request, as carried by a validation problem. */
export const fieldErrorSchema = z.object({
  /** Dotted path of the field, e.g. `body.email` is reported as `email`. */
  field: z.string(),
  message: z.string(),
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
  })
  .catchall(z.unknown());
export type Problem = z.infer<typeof problemSchema>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
