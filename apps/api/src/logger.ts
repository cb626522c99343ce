import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { prettyFactory } from 'pino-pretty';

/** Where the log goes: a terminal gets readable lines, anything else one JSON object a line. */
export type LogOutput = NodeJS.WritableStream & { isTTY?: boolean };

/** Secrets that can travel in a query string (the hub's access_token, a reset token): never logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:access_token|token)=)[^&#]*/gi, '$1[redacted]');
}

/**
 * Pretty-printed in the process (not pino's worker transport) so a line is written before the next
 * one and nothing is lost when the process exits right after logging.
 */
function prettyStream(out: LogOutput) {
  const pretty = prettyFactory({
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return { write: (line: string) => out.write(pretty(line)) };
}

export function loggerOptions(
  level: string,
  out: LogOutput = process.stdout,
): FastifyServerOptions['logger'] {
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
    stream: out.isTTY ? prettyStream(out) : out,
  };
}

/**
 * Fastify logs two `info` lines per request; at that level they drown everything else (a browser
 * session makes thousands). One `debug` line per request instead, seen with LOG_LEVEL=debug; a
 * failed response still logs at `error`.
 */
export class RequestLog extends LogController {
  /** Every line of a request carries its id as `requestId`, the name its problem answers use (ADR 0055). */
  constructor(options: ConstructorParameters<typeof LogController>[0] = {}) {
    super({ requestIdLogLabel: 'requestId', ...options });
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.trace({ method: request.method, url: redactUrl(request.url) }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.debug(line, 'request completed');
  }
}

const SHOWS_INFO = new Set(['trace', 'debug', 'info']);

/**
 * A line meant for a person at the terminal (a mailed link to open): plain text on the log's output,
 * never inside JSON, shown when the log shows `info`.
 */
export function plainLines(log: FastifyBaseLogger, out: LogOutput = process.stdout) {
  return (line: string) => {
    // A disabled logger (logger: false in tests) has no level: it prints nothing either.
    if (SHOWS_INFO.has(log.level)) out.write(`[fvg] ${line}\n`);
  };
}
