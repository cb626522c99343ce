import type { Socket } from 'node:net';
import { findTextProblem, PROBLEM_CONTENT_TYPE, type Problem } from '@fvg/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { problems } from '../http/problem.ts';
import { sendProblem } from './errors.ts';

/**
 * Node reads at most this many bytes of request line and headers. Above Node's 16 KB default, so a long
 * URL is read and refused with a 414 that says so instead of the connection being reset.
 */
export const MAX_HEADER_BYTES = 64 * 1024;
/** The longest URL (path and query) the API reads; longer ones answer 414. */
export const MAX_URL_LENGTH = 8 * 1024;
/** The longest path parameter (ids, numbers, references); longer ones answer 414. */
export const MAX_PARAM_LENGTH = 256;
/**
 * The router's own limit, kept far above MAX_PARAM_LENGTH so that the router still matches the route
 * (its own overflow answers before any hook) and the guard below answers with its clear 414.
 */
export const ROUTER_MAX_PARAM_LENGTH = MAX_HEADER_BYTES;

const uriTooLong = (detail: string) =>
  ({ type: '/problems/uri-too-long', title: 'URI too long', status: 414, detail }) as const;

/**
 * Fastify's `frameworkErrors`: errors the router raises before any route runs (a path that does not
 * decode, like `/api/parties/%zz`) as problem+json.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const instance = request.url.split('?')[0];
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return sendProblem(reply, { ...uriTooLong('A path parameter is too long.'), instance });
  const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
  const badUrl = error.code === 'FST_ERR_BAD_URL';
  const detail = badUrl
    ? 'The URL is malformed: a percent sign must start a valid escape of UTF-8 text, such as %20.'
    : error.message;
  const field = badUrl ? undecodableParam(request) : undefined;
  return sendProblem(reply, {
    type: status === 400 ? '/problems/bad-request' : `/problems/http-${status}`,
    title: status === 400 ? 'Bad request' : 'Error',
    status,
    detail,
    ...(field ? { errors: [{ field, message: 'Not valid percent-encoded UTF-8 text' }] } : {}),
    instance,
  });
}

/** Path templates of the API's operations, split into segments (`{id}` marks a parameter). */
const templatesOf = new WeakMap<FastifyInstance, string[][]>();

/**
 * The router refuses a path it cannot decode before it knows the route, so it cannot say which
 * parameter was wrong. The OpenAPI document's templates can: the first one whose literal segments
 * match names the parameter at the undecodable segment, so the problem carries the field as every
 * other validation error does.
 */
function undecodableParam(request: FastifyRequest): string | undefined {
  const segments = (request.url.split('?')[0] ?? '').split('/');
  const bad = segments.findIndex((seg) => {
    try {
      decodeURIComponent(seg);
      return false;
    } catch {
      return true;
    }
  });
  if (bad < 0) return undefined;
  const app = request.server as FastifyInstance & { swagger?: () => { paths?: Record<string, unknown> } };
  let templates = templatesOf.get(app);
  if (!templates) {
    templates = Object.keys(app.swagger?.().paths ?? {}).map((t) => t.split('/'));
    templatesOf.set(app, templates);
  }
  for (const t of templates) {
    if (t.length !== segments.length) continue;
    const fits = t.every((part, i) => i === bad || part.startsWith('{') || part === segments[i]);
    const param = /^\{(\w+)\}$/.exec(t[bad] ?? '')?.[1];
    if (fits && param) return param;
  }
  return undefined;
}

const CLIENT_ERRORS: Record<string, { status: number; title: string; detail: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    title: 'Request header fields too large',
    detail: `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KB.`,
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, title: 'Request timeout', detail: 'The request took too long.' },
  ERR_HTTP_HEADERS_TIMEOUT: { status: 408, title: 'Request timeout', detail: 'The headers took too long.' },
};

/**
 * Fastify's `clientErrorHandler`: what Node refuses before a request exists (oversized headers, a
 * request that does not parse as HTTP) is answered on the raw socket, still as problem+json.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (err.code && CLIENT_ERRORS[err.code]) || {
    status: 400,
    title: 'Bad request',
    detail: 'The request is not valid HTTP.',
  };
  const problem: Problem = {
    type: `/problems/${known.title.toLowerCase().replaceAll(' ', '-')}`,
    ...known,
  };
  const body = JSON.stringify(problem);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${known.title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function fieldOf(path: (string | number)[], fallback: string): string {
  return path.length ? path.map(String).join('.') : fallback;
}

/**
 * The framework-level guard every route passes (ADR 0017): URLs and path parameters within their
 * limits (414), and no string anywhere in the path, query or body that PostgreSQL cannot store (a NUL
 * byte, a lone surrogate) — a 400 naming the field, before any schema or SQL sees it. A new endpoint
 * is covered without doing anything.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    const instance = request.url.split('?')[0];
    if (request.url.length > MAX_URL_LENGTH) {
      return sendProblem(reply, {
        ...uriTooLong(`The URL is longer than ${MAX_URL_LENGTH} characters; send long input in a body.`),
        instance,
      });
    }
    const params = (request.params ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(params)) {
      if (typeof value === 'string' && value.length > MAX_PARAM_LENGTH) {
        return sendProblem(reply, {
          ...uriTooLong(`The path parameter ${name} is longer than ${MAX_PARAM_LENGTH} characters.`),
          errors: [{ field: name, message: `At most ${MAX_PARAM_LENGTH} characters` }],
          instance,
        });
      }
    }
  });

  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const found = findTextProblem(value);
      if (found) {
        const field = fieldOf(found.path, part);
        throw problems.validation(
          [{ field, message: found.message }],
          `The request has invalid fields: ${field}.`,
        );
      }
    }
  });
});
