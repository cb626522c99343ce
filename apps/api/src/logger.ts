import type { FastifyServerOptions } from 'fastify';

/** Secrets that can travel in a query string (the hub's access_token, a reset token): never logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:access_token|token)=)[^&#]*/gi, '$1[redacted]');
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.authorization', 'body.password'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
