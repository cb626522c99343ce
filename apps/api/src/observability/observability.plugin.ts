import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { problems } from '../http/problem.ts';
import type { Metrics } from './metrics.ts';

/** An incoming X-Request-Id is kept when it looks like an id (a proxy's or a client's), not free text. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * Fastify's request-id options: the id every log line of a request carries (as `requestId`, the label
 * RequestLog in logger.ts gives it), taken from a sane X-Request-Id or made here. The response and
 * every problem answer carry it too (ADR 0055).
 */
export const requestIdOptions = {
  requestIdHeader: false as const,
  genReqId(req: IncomingMessage): string {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  },
};

type Verdict = 'allowed' | 'off' | 'no-token' | 'not-allowed';

/**
 * Who may read the metrics: a bearer METRICS_TOKEN (compared in constant time) or an address in
 * METRICS_ALLOW, either suffices. With neither configured the metrics are off (404, as any unknown path).
 */
export function metricsAccess(config: Pick<Config, 'metricsToken' | 'metricsAllow'>) {
  const allow = new BlockList();
  for (const entry of config.metricsAllow) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    allow.addSubnet(address, prefix ? Number(prefix) : family === 'ipv6' ? 128 : 32, family);
  }
  const digest = (s: string) => createHash('sha256').update(s).digest();
  const expected = config.metricsToken ? digest(config.metricsToken) : undefined;
  return (request: FastifyRequest): Verdict => {
    if (!expected && config.metricsAllow.length === 0) return 'off';
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (expected && match && timingSafeEqual(digest(match[1] as string), expected)) return 'allowed';
    // An IPv4 client of a dual-stack listener arrives as ::ffff:a.b.c.d.
    const ip = request.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (config.metricsAllow.length && isIP(ip) && allow.check(ip, family)) return 'allowed';
    return expected ? 'no-token' : 'not-allowed';
  };
}

/**
 * Request ids on answers, the HTTP metrics of every request and `GET /api/metrics` (Prometheus
 * text), kept out of the product API's OpenAPI document: it has its own credentials (ADR 0055).
 */
export const observabilityPlugin = fp(
  async (app: FastifyInstance, { config, metrics }: { config: Config; metrics: Metrics }) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
    app.addHook('onResponse', async (request, reply) => {
      // The route's pattern (`/api/dossiers/:id`), never the URL: ids would make a series per record.
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });

    const access = metricsAccess(config);
    app.get('/api/metrics', { schema: { hide: true } }, async (request, reply) => {
      const verdict = access(request);
      if (verdict === 'off') throw problems.notFound();
      if (verdict === 'no-token') throw problems.unauthorized('The metrics need the scrape token.');
      if (verdict === 'not-allowed') throw problems.forbidden('The metrics are not open to this address.');
      return reply.type(metrics.contentType).send(await metrics.text());
    });
  },
  { name: 'fvg-observability' },
);
