import type { FieldError } from '@fvg/contracts';

/**
 * An error that the API answers as RFC 9457 problem+json. Services throw these; the error plugin
 * turns them into responses. `type` is a stable URI per kind of problem.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string>; type?: string } = {},
  ) {
    super(detail ?? title);
  }

  get type(): string {
    return this.options.type ?? `/problems/${slug(this.title)}`;
  }
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export const problems = {
  validation: (errors: FieldError[], detail = 'The request has invalid fields.') =>
    new HttpProblem(400, 'Validation failed', detail, { errors }),
  badRequest: (detail: string, errors?: FieldError[]) =>
    new HttpProblem(400, 'Bad request', detail, errors ? { errors } : {}),
  unauthorized: (detail = 'Sign in to continue.') =>
    new HttpProblem(401, 'Unauthorized', detail, { headers: { 'www-authenticate': 'Bearer' } }),
  forbidden: (detail = 'You do not have access to this.') => new HttpProblem(403, 'Forbidden', detail),
  notFound: (detail = 'Not found.') => new HttpProblem(404, 'Not found', detail),
  conflict: (detail: string, errors?: FieldError[]) =>
    new HttpProblem(409, 'Conflict', detail, errors ? { errors } : {}),
  /** Well-formed, but the record as it is refuses it (an invoice the law would refuse, an overpayment). */
  unprocessable: (detail: string, errors: FieldError[]) =>
    new HttpProblem(422, 'Unprocessable content', detail, { errors }),
  tooManyRequests: (retryAfterSeconds: number, detail: string) =>
    new HttpProblem(429, 'Too many requests', detail, {
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
};
