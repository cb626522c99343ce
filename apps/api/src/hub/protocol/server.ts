import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { isDatabaseUnavailable, unavailableReason } from '../../db/availability.ts';
import { HubConnection, type HubLimits, type HubStats, newHubStats } from './connection.ts';
import type { HubDefinition } from './hub.ts';
import { type Backplane, LifetimeManager } from './lifetime.ts';

export interface HubServerOptions<User> {
  /** Path of the hub, e.g. `/api/chat`. */
  path: string;
  hub: HubDefinition<User>;
  backplane?: Backplane | undefined;
  limits?: Partial<HubLimits>;
  /** Counts the messages of every connection of this hub (the app's metrics read it). */
  stats?: HubStats;
}

/** Defaults as ASP.NET Core SignalR has them; tests shorten them through configuration. */
export const DEFAULT_LIMITS: HubLimits = {
  keepAliveIntervalMs: 15_000,
  clientTimeoutMs: 30_000,
  handshakeTimeoutMs: 15_000,
  longPollTimeoutMs: 90_000, // under the client's 100 s
  longPollDisconnectTimeoutMs: 15_000,
  negotiateTimeoutMs: 30_000,
  maxMessageSize: 32 * 1024,
  recheckIntervalMs: 30_000,
};

const TRANSPORTS = [
  { transport: 'WebSockets', transferFormats: ['Text', 'Binary'] },
  { transport: 'ServerSentEvents', transferFormats: ['Text'] },
  { transport: 'LongPolling', transferFormats: ['Text', 'Binary'] },
];

/** How long a closed long-polling connection stays known, so late polls get 204 and DELETE 202. */
const CLOSED_GRACE_MS = 5_000;

function tokenOf(headers: IncomingMessage['headers'], query: URLSearchParams): string | undefined {
  const header = headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? query.get('access_token') ?? undefined;
}

function newId(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export interface HubServer<User> {
  lifetime: LifetimeManager;
  /** Connections known to this node (all transports, before and after the handshake). */
  readonly connectionCount: number;
  connections(): Iterable<HubConnection<User>>;
  close(): Promise<void>;
}

/**
 * Mounts a SignalR endpoint (negotiate, WebSockets, Server-Sent Events, long polling; JSON hub
 * protocol) for any hub definition. Transport rules follow TransportProtocols.md.
 */
export async function mountHub<User>(
  app: FastifyInstance,
  options: HubServerOptions<User>,
): Promise<HubServer<User>> {
  const { path, hub } = options;
  const limits: HubLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const stats = options.stats ?? newHubStats();
  const lifetime = new LifetimeManager(options.backplane);
  await lifetime.start();
  const byToken = new Map<string, HubConnection<User>>();
  /** Set by close(): a client reconnecting during shutdown must not open a poll the server then waits for. */
  let closing = false;
  const closedAt = new Map<string, number>();
  const log = app.log.child({ hub: path });

  const create = async (user: User, accessToken: string | undefined, withToken = true) => {
    const connectionId = newId(16);
    const token = withToken ? newId(32) : connectionId;
    const conn = new HubConnection<User>(
      connectionId,
      token,
      user,
      accessToken,
      hub,
      lifetime,
      limits,
      log,
      (c) => {
        if (c.transport === 'LongPolling') closedAt.set(c.token, Date.now());
        else byToken.delete(c.token);
      },
      stats,
    );
    conn.expiresAt = await hub.expiresAt?.(accessToken);
    byToken.set(token, conn);
    return conn;
  };

  async function userOf(headers: IncomingMessage['headers'], query: URLSearchParams) {
    const accessToken = tokenOf(headers, query);
    return { user: await hub.authenticate(accessToken), accessToken };
  }

  // One sweep for every connection: pings, timeouts, abandoned and unused connections.
  const tickMs = Math.max(50, Math.min(1000, Math.floor(limits.keepAliveIntervalMs / 3)));
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const conn of byToken.values()) conn.tick(now);
    for (const [token, at] of closedAt) {
      if (now - at > CLOSED_GRACE_MS) {
        closedAt.delete(token);
        byToken.delete(token);
      }
    }
  }, tickMs);
  sweep.unref();

  // Every open connection's user, re-checked in one batch per round: a connection that only listens
  // ends too when its user is no longer valid, even if the revocation's close never reached it.
  const recheckAll = async () => {
    const open = [...byToken.values()].filter((c) => c.handshakeDone && !c.closed);
    if (open.length === 0) return;
    const entries = open.map((c) => ({ token: c.bearerToken, user: c.user }));
    const verdicts = hub.recheckMany
      ? await hub.recheckMany(entries)
      : await Promise.all(entries.map((e) => hub.recheck?.(e.token, e.user) ?? { user: e.user }));
    open.forEach((c, i) => {
      const verdict = verdicts[i];
      if (verdict) c.applyRecheck(verdict);
    });
  };
  let rechecking = false;
  const recheckTimer =
    hub.recheck || hub.recheckMany
      ? setInterval(() => {
          if (rechecking) return; // a slow round is not overtaken by the next
          rechecking = true;
          recheckAll()
            .catch((e: unknown) =>
              // The database away: nobody is judged, the next round asks again (one line, no stack).
              isDatabaseUnavailable(e)
                ? log.warn(`hub periodic re-check skipped: ${unavailableReason(e)}`)
                : log.error({ err: e }, 'hub periodic re-check failed'),
            )
            .finally(() => {
              rechecking = false;
            });
        }, limits.recheckIntervalMs)
      : undefined;
  recheckTimer?.unref();

  // ---- HTTP: negotiate, SSE / long-poll GET, POST sends, DELETE --------------------------------------
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: limits.maxMessageSize * 4 },
      (_req, body, done) => done(null, body),
    );

    scope.post(`${path}/negotiate`, { schema: { hide: true } }, async (request, reply) => {
      if (closing) return reply.status(503).type('text/plain').send('The server is shutting down.');
      const query = new URL(request.url, 'http://x').searchParams;
      const { user, accessToken } = await userOf(request.headers, query);
      if (!user) return reply.status(401).header('www-authenticate', 'Bearer').send();
      const version = Number(query.get('negotiateVersion') ?? '0');
      const conn = await create(user, accessToken, version >= 1);
      return reply.header('cache-control', 'no-store').send({
        connectionId: conn.connectionId,
        ...(version >= 1 ? { connectionToken: conn.token, negotiateVersion: 1 } : { negotiateVersion: 0 }),
        availableTransports: TRANSPORTS,
      });
    });

    const resolve = async (request: FastifyRequest, reply: FastifyReply) => {
      const query = new URL(request.url, 'http://x').searchParams;
      const id = query.get('id');
      if (!id) {
        await reply.status(400).type('text/plain').send('Connection ID required');
        return undefined;
      }
      const { user } = await userOf(request.headers, query);
      const conn = byToken.get(id);
      if (!user) {
        // The token stopped authenticating before anything closed the connection (the periodic re-check
        // had not run yet, or a revocation's close was lost): re-checked now, so the client gets the
        // Close saying why instead of a bare 401 it would keep reconnecting after.
        conn?.tick(Date.now()); // an expired token closes as expired, not as ended
        if (conn && !conn.closed && conn.handshakeDone && hub.recheck) {
          try {
            conn.applyRecheck(await hub.recheck(conn.bearerToken, conn.user));
          } catch (e) {
            log.error({ err: e }, 'hub re-check failed');
          }
        }
        // A long-polling connection closed because its session ended still hands its last records (the
        // Close saying why) to the next poll, and takes the client's DELETE: the token no longer
        // authenticates, and without the Close the client would keep reconnecting.
        if (conn?.closed && conn.transport === 'LongPolling' && request.method !== 'POST') return conn;
        await reply.status(401).header('www-authenticate', 'Bearer').send();
        return undefined;
      }
      if (!conn) {
        await reply.status(404).type('text/plain').send('No Connection with that ID');
        return undefined;
      }
      if (hub.userId(conn.user) !== hub.userId(user)) {
        await reply.status(403).send();
        return undefined;
      }
      return conn;
    };

    scope.get(path, { schema: { hide: true } }, async (request, reply) => {
      const conn = await resolve(request, reply);
      if (!conn) return reply;
      const wantsSse = (request.headers.accept ?? '').includes('text/event-stream');
      if (wantsSse) {
        if (conn.transport) {
          return reply
            .status(conn.transport === 'ServerSentEvents' ? 409 : 400)
            .type('text/plain')
            .send(
              conn.transport === 'ServerSentEvents'
                ? 'The connection is already active.'
                : 'Cannot change transports between requests.',
            );
        }
        if (conn.closed) return reply.status(404).type('text/plain').send('No Connection with that ID');
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        res.socket?.setNoDelay(true);
        res.write(':\r\n\r\n'); // open the stream at once: the client is connected when it sees bytes
        conn.attachSink('ServerSentEvents', {
          write: (payload) => {
            // One event per payload; every line of it prefixed with `data: `.
            res.write(`data: ${payload.replace(/\r?\n/g, '\r\ndata: ')}\r\n\r\n`);
          },
          end: () => res.end(),
        });
        request.raw.once('close', () => conn.dispose());
        return reply;
      }
      if (conn.transport && conn.transport !== 'LongPolling') {
        return reply.status(400).type('text/plain').send('Cannot change transports between requests.');
      }
      conn.poll(reply);
      return reply;
    });

    scope.post(path, { schema: { hide: true } }, async (request, reply) => {
      const conn = await resolve(request, reply);
      if (!conn) return reply;
      if (conn.transport === 'WebSockets') {
        return reply
          .status(405)
          .type('text/plain')
          .send('POST requests are not allowed for WebSocket connections.');
      }
      if (conn.closed) return reply.status(404).type('text/plain').send('No Connection with that ID');
      conn.receive(typeof request.body === 'string' ? request.body : '');
      return reply.status(200).type('text/plain').send('');
    });

    scope.delete(path, { schema: { hide: true } }, async (request, reply) => {
      const conn = await resolve(request, reply);
      if (!conn) return reply;
      if (conn.transport !== 'LongPolling') {
        return reply
          .status(400)
          .type('text/plain')
          .send('Cannot terminate this connection using the DELETE endpoint.');
      }
      conn.dispose();
      return reply.status(202).type('text/plain').send('');
    });
  });

  // ---- WebSockets: the upgrade is handled on the raw server, after authentication -------------------
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageSize * 4 });
  const refuse = (socket: Duplex, status: number, text: string, extra = '') => {
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n${extra}Connection: close\r\n\r\n${text}`,
    );
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== path) return; // another upgrade handler's business
    if (closing) return refuse(socket, 503, 'Service Unavailable');
    void (async () => {
      try {
        const { user, accessToken } = await userOf(req.headers, url.searchParams);
        if (!user) return refuse(socket, 401, 'Unauthorized', 'WWW-Authenticate: Bearer\r\n');
        const id = url.searchParams.get('id');
        let conn: HubConnection<User> | undefined;
        if (id) {
          conn = byToken.get(id);
          if (!conn || conn.closed) return refuse(socket, 404, 'No Connection with that ID');
          if (hub.userId(conn.user) !== hub.userId(user)) return refuse(socket, 403, 'Forbidden');
          if (conn.transport === 'WebSockets')
            return refuse(socket, 409, 'The connection is already active.');
          if (conn.transport) return refuse(socket, 400, 'Cannot change transports between requests.');
        } else {
          conn = await create(user, accessToken, false); // skipNegotiation: the connection is made on the spot
        }
        const target = conn;
        wss.handleUpgrade(req, socket, head, (ws) => attachWebSocket(target, ws));
      } catch (e) {
        // The database away (the user could not be looked up): try again later, it is no server fault.
        if (isDatabaseUnavailable(e)) return refuse(socket, 503, 'Service Unavailable', 'Retry-After: 5\r\n');
        log.error({ err: e }, 'websocket upgrade failed');
        refuse(socket, 500, 'Internal Server Error');
      }
    })();
  };
  app.server.on('upgrade', onUpgrade);

  function attachWebSocket(conn: HubConnection<User>, ws: WebSocket) {
    conn.attachSink('WebSockets', {
      write: (payload) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(payload);
      },
      end: () => {
        if (ws.readyState === WebSocket.OPEN) ws.close(1000);
      },
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        conn.close('Connection closed with an error. Binary frames are not supported by the JSON protocol.');
        return;
      }
      conn.receive(data.toString());
    });
    ws.on('close', () => conn.dispose());
    ws.on('error', (e) => {
      log.debug({ err: e }, 'websocket error');
      conn.dispose(e);
    });
  }

  return {
    lifetime,
    get connectionCount() {
      return byToken.size;
    },
    connections: () => byToken.values(),
    async close() {
      closing = true;
      clearInterval(sweep);
      clearInterval(recheckTimer);
      app.server.off('upgrade', onUpgrade);
      for (const conn of [...byToken.values()]) conn.close(undefined, true);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await lifetime.close();
    },
  };
}
