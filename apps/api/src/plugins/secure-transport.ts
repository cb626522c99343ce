import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Helmet's own default HSTS value (a year, sub-domains included). */
export const HSTS = 'max-age=31536000; includeSubDomains';

const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'", 'ws:', 'wss:'],
  workerSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
};

/**
 * Whether this request reached the app over HTTPS: its PUBLIC_URL says so (TLS ends in front of the
 * app, whatever the hop to it), or the connection itself is TLS, or a proxy trusted by TRUST_PROXY
 * says so in X-Forwarded-Proto (Fastify's `request.protocol` reads it only from trusted proxies).
 */
export function servedOverHttps(request: FastifyRequest, publicUrl: string): boolean {
  return publicUrl.startsWith('https:') || request.protocol === 'https';
}

/**
 * The security headers (helmet), with the two that only make sense over HTTPS sent only then:
 * `upgrade-insecure-requests` would make a browser that opened `http://server:3000` on the office
 * network fetch every script over HTTPS and show a blank page, and HSTS pins a host to HTTPS.
 */
export const secureTransportPlugin = fp<{ publicUrl: string }>(
  async (app: FastifyInstance, { publicUrl }) => {
    await app.register(helmet, {
      contentSecurityPolicy: { directives: { ...CSP_DIRECTIVES, upgradeInsecureRequests: null } },
      strictTransportSecurity: false,
    });
    // After helmet's own onRequest hooks (registered above), which have written their headers.
    app.addHook('onRequest', async (request, reply) => {
      if (!servedOverHttps(request, publicUrl)) return;
      reply.header('strict-transport-security', HSTS);
      const csp = reply.raw.getHeader('content-security-policy');
      if (typeof csp === 'string')
        reply.raw.setHeader('content-security-policy', `${csp};upgrade-insecure-requests`);
    });
  },
  { name: 'secure-transport' },
);
