import { createHash } from 'node:crypto';
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { HttpProblem } from '../http/problem.ts';
import { reportUnlessStopping } from '../process-state.ts';

/**
 * `Idempotency-Key` on POSTs (ADR 0020): the first answer to a signed-in user's POST is kept for
 * 24 hours under (user, key) and a retry with the same key gets that answer again
 * (`Idempotent-Replayed: true`) instead of a second record. Covered: every POST under /api made by a
 * signed-in user, except sign-in (/api/auth) and the hub (/api/chat); multipart uploads are excluded
 * (their body is a stream, documents flag re-uploaded bytes as duplicates instead).
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A claimed key whose request has not answered after this long belongs to a request that died. */
const ABANDONED_AFTER_MS = 2 * 60_000;
/** How long a retry waits for the first request with its key to answer before it gets a 409. */
const WAIT_FOR_FIRST_MS = 10_000;
const PURGE_INTERVAL_MS = 60 * 60_000;
/** The answer headers a replay repeats; the others (security, rate limits, dates) are made anew. */
const KEPT_HEADERS = ['content-type', 'location', 'etag'];
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** Whether a POST to `url` takes the header (the same rule for requests and for the OpenAPI document). */
export function coversPath(method: string, url: string): boolean {
  if (method !== 'POST' || !url.startsWith('/api/')) return false;
  return !/^\/api\/(auth|chat)(\/|$|\?)/.test(url);
}

interface Claim {
  userId: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false` keeps a covered POST out (its header is ignored and not documented): for answers that
     * must not be stored, such as a secret shown once.
     */
    idempotency?: boolean;
  }
  interface FastifyRequest {
    /** Set when this request claimed an idempotency key: its answer is stored for retries. */
    idempotencyClaim?: Claim;
  }
}

const keyProblem = (status: number, title: string, detail: string, headers?: Record<string, string>) =>
  new HttpProblem(status, title, detail, {
    errors: [{ field: 'Idempotency-Key', message: detail }],
    type: `/problems/idempotency-key-${status === 400 ? 'invalid' : status === 422 ? 'reused' : 'in-progress'}`,
    ...(headers ? { headers } : {}),
  });

/**
 * What makes a retry the same request: method, URL, body, and the caller's standing (role, party,
 * warehouse access). An answer made under other rights is never replayed: a user made a customer
 * since must not get back what they saw as staff.
 */
function fingerprint(request: FastifyRequest): string {
  const { role, party_id, cw_access } = request.user;
  return createHash('sha256')
    .update(JSON.stringify([request.method, request.url, request.body ?? null, role, party_id, cw_access]))
    .digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deletes keys older than 24 hours; the hourly timer runs it, and tests call it. */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export const idempotencyPlugin = fp<{ db: Db }>(async (app: FastifyInstance, { db }) => {
  // Runs after the route's own onRequest (sign-in) and after body validation: a refused body claims
  // no key, so the corrected retry may use the same one.
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined || !request.user || !coversPath(request.method, request.url)) return;
    if (request.routeOptions.config.idempotency === false) return;
    if (/^multipart\//i.test(request.headers['content-type'] ?? '')) return;
    if (typeof header !== 'string' || !KEY_FORMAT.test(header)) {
      throw keyProblem(
        400,
        'Invalid Idempotency-Key',
        'Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), sent once.',
      );
    }
    const claim = { userId: request.user.id, key: header };
    const print = fingerprint(request);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      // Claim the key, or take over one that has expired (the purge may not have run yet).
      const claimed = await db
        .insertInto('idempotency_keys')
        .values({
          user_id: claim.userId,
          key: claim.key,
          request: `${request.method} ${request.url.split('?')[0]}`,
          fingerprint: print,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'key'])
            .doUpdateSet((eb) => ({
              request: eb.ref('excluded.request'),
              fingerprint: eb.ref('excluded.fingerprint'),
              status: null,
              headers: null,
              body: null,
              created_at: sql<Date>`now()`,
              completed_at: null,
            }))
            .where(
              'idempotency_keys.created_at',
              '<',
              sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
            ),
        )
        .returning('key')
        .executeTakeFirst();
      if (claimed) {
        request.idempotencyClaim = claim;
        return;
      }
      const first = await db
        .selectFrom('idempotency_keys')
        .select(['request', 'fingerprint', 'status', 'headers', 'body'])
        .select(
          sql<boolean>`created_at < now() - make_interval(secs => ${ABANDONED_AFTER_MS / 1000})`.as(
            'abandoned',
          ),
        )
        .where('user_id', '=', claim.userId)
        .where('key', '=', claim.key)
        .executeTakeFirst();
      if (!first) continue; // released (the first request failed) or purged just now: claim again
      if (first.fingerprint !== print) {
        throw keyProblem(
          422,
          'Idempotency-Key reused',
          `This Idempotency-Key was already used for another request (${first.request} with other content, or before your access changed); use a new key for a new request.`,
        );
      }
      if (first.status !== null) return replay(reply, first.status, first.headers, first.body);
      if (first.abandoned) {
        throw keyProblem(
          409,
          'Idempotency-Key outcome unknown',
          'The first request with this Idempotency-Key did not finish (the server stopped while it ran), so whether it took effect is unknown: look for the record, and send a new key to create it again.',
        );
      }
      if (Date.now() + delay > deadline) {
        throw keyProblem(
          409,
          'Idempotency-Key in progress',
          'The first request with this Idempotency-Key is still running; retry shortly.',
          { 'retry-after': '1' },
        );
      }
      await sleep(delay);
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    const where = db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', claim.userId)
      .where('key', '=', claim.key);
    // A server error saved nothing (the error handler says so): release the key so a retry runs again.
    // A streamed answer cannot be kept; release it too rather than replay something else.
    const body =
      typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (reply.statusCode >= 500 || (body === null && payload != null)) {
      await where.execute();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await db
      .updateTable('idempotency_keys')
      .set({
        status: reply.statusCode,
        headers: JSON.stringify(headers),
        body: body ?? Buffer.alloc(0),
        completed_at: sql<Date>`now()`,
      })
      .where('user_id', '=', claim.userId)
      .where('key', '=', claim.key)
      .execute();
    return payload;
  });

  // The answer never reached onSend (the client went away before it was sent): keep the claim only
  // if the answer was stored; otherwise release it so that the retry runs.
  app.addHook('onResponse', async (request) => {
    const claim = request.idempotencyClaim;
    if (!claim) return;
    await db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', claim.userId)
      .where('key', '=', claim.key)
      .where('status', 'is', null)
      .execute();
  });

  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    const purge = () =>
      purgeIdempotencyKeys(db).catch((e: unknown) =>
        reportUnlessStopping(e, () => app.log.warn({ err: e }, 'idempotency key purge failed')),
      );
    await purge();
    timer = setInterval(purge, PURGE_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});

function replay(
  reply: FastifyReply,
  status: number,
  headers: Record<string, string> | null,
  body: Buffer | null,
) {
  return reply
    .status(status)
    .headers(headers ?? {})
    .header(REPLAYED_HEADER, 'true')
    .send(body ?? Buffer.alloc(0));
}

const KEY_DOC = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7E]+$',
  description: `Makes a retry safe: the first answer to this request is kept for ${IDEMPOTENCY_TTL_HOURS} hours per user under this key, and a retry with the same key gets it again (with \`Idempotent-Replayed: true\`) instead of creating a second record. The same key with another body is a 422; while the first request runs, a retry waits for it (409 after ${WAIT_FOR_FIRST_MS / 1000} s). Use a new random key (a UUID) per new request.`,
};

/** Adds the Idempotency-Key header to the OpenAPI operations that take it (the rule of `coversPath`). */
export function withIdempotencyKeyDocs<S extends FastifySchema>(
  transform: SwaggerTransform<S>,
): SwaggerTransform<S> {
  return (document) => {
    const out = transform(document);
    const methods = [document.route.method].flat();
    const consumes = (document.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
    const multipart = consumes.some((c) => c.startsWith('multipart/'));
    const optedOut = (document.route.config as { idempotency?: boolean } | undefined)?.idempotency === false;
    if (
      !methods.includes('POST') ||
      multipart ||
      optedOut ||
      !coversPath('POST', document.url) ||
      !out.schema
    )
      return out;
    if ((out.schema as { hide?: boolean }).hide) return out;
    const headers = (out.schema.headers ?? { type: 'object', properties: {} }) as {
      properties?: Record<string, unknown>;
    };
    return {
      ...out,
      schema: {
        ...out.schema,
        headers: {
          ...headers,
          type: 'object',
          properties: { ...headers.properties, 'Idempotency-Key': KEY_DOC },
        },
      },
    };
  };
}
