import { DATABASE_UNAVAILABLE_PROBLEM, PROBLEM_CONTENT_TYPE, type Problem } from '@fvg/contracts';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  unavailableReason,
} from '../db/availability.ts';
import { HttpProblem } from '../http/problem.ts';
import { issueCode } from '../http/validation.ts';

/**
 * Every problem answer goes out here, and carries the request's id (`requestId`, also in the
 * X-Request-Id header and on the request's log lines): the reference a user's screenshot gives (ADR 0055).
 */
export function sendProblem(reply: FastifyReply, problem: Problem, headers: Record<string, string> = {}) {
  return reply
    .status(problem.status)
    .headers(headers)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify({ ...problem, requestId: reply.request.id }));
}

/**
 * A PostgreSQL data exception (SQLSTATE class 22: a NUL byte 22021, untranslatable character 22P05,
 * numeric overflow 22003, a date that does not exist 22008, bad datetime format 22007, bad text for a
 * type 22P02…): bad input that slipped past the contracts' primitives. The primitives are the fix;
 * this is the safety net that keeps it a 400.
 */
function isDataException(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown };
  return typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code) && typeof e.severity === 'string';
}

interface ErrorsOptions {
  onUnavailable?: (error: unknown) => void;
}

/**
 * Every error leaves the API as RFC 9457 problem+json; validation errors carry one entry per field.
 * `onUnavailable` hears of every request that failed for want of the database (the status goes down).
 */
export const errorsPlugin = fp(async (app: FastifyInstance, opts: ErrorsOptions) => {
  app.setErrorHandler((error: FastifyError | HttpProblem, request, reply) => {
    const instance = request.url.split('?')[0];
    // The database went away (stopped, killed, restarting): the client may try again shortly, never a 500.
    if (!(error instanceof HttpProblem) && isDatabaseUnavailable(error)) {
      opts.onUnavailable?.(error);
      request.log.debug(`database unavailable: ${unavailableReason(error)}`);
      return sendProblem(
        reply,
        {
          type: DATABASE_UNAVAILABLE_PROBLEM,
          title: 'Service unavailable',
          status: 503,
          detail: `The server lost its connection to its database and is reconnecting. Try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
          instance,
        },
        { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      );
    }
    if (error instanceof HttpProblem) {
      return sendProblem(
        reply,
        {
          type: error.type,
          title: error.title,
          status: error.status,
          ...(error.detail ? { detail: error.detail } : {}),
          ...(error.options.errors ? { errors: error.options.errors } : {}),
          instance,
        },
        error.options.headers,
      );
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.flatMap((v) => {
        const base = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        // An unknown field is reported on the field itself, so a form (or a developer) sees which.
        const keys = v.keyword === 'unrecognized_keys' ? ((v.params as { keys?: string[] }).keys ?? []) : [];
        if (keys.length)
          return keys.map((k) => ({ field: base ? `${base}.${k}` : k, message: 'Unknown field' }));
        const coded = v.keyword === 'custom' ? issueCode((v.params as { params?: unknown }).params) : {};
        return [
          {
            field: base || (error.validationContext ?? 'body'),
            message: v.message ?? 'Invalid value',
            ...coded,
          },
        ];
      });
      return sendProblem(reply, {
        type: '/problems/validation-failed',
        title: 'Validation failed',
        status: 400,
        detail: `The request has invalid fields: ${errors.map((e) => e.field).join(', ')}.`,
        errors,
        instance,
      });
    }
    if (isDataException(error)) {
      request.log.warn({ err: error }, 'data exception from PostgreSQL: a contract let bad input through');
      return sendProblem(reply, {
        type: '/problems/invalid-value',
        title: 'Invalid value',
        status: 400,
        detail: 'A value is out of range or malformed. Nothing was saved.',
        instance,
      });
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, {
      type: status >= 500 ? '/problems/internal' : `/problems/http-${status}`,
      title: status >= 500 ? 'Internal server error' : error.name || 'Error',
      status,
      detail: status >= 500 ? 'Something went wrong on our side. Nothing was saved.' : error.message,
      instance,
    });
  });
});
