import { HUB_CLIENT_DEFAULTS, HUB_PATH } from '@fvg/contracts';
import { type HubConnection, HubConnectionBuilder, type IHttpConnectionOptions } from '@microsoft/signalr';
import { API_BASE } from './api-client.ts';
import { createHubLogger, type HubConsole } from './hub-logger.ts';
import { getToken } from './token.ts';

/*
 * The only module that imports @microsoft/signalr at runtime. hub-client.ts loads it with a dynamic
 * import when the hub starts, so the library (~15 KB gzip) is a chunk of its own that the first
 * paint of the shell does not wait for.
 */

/**
 * The hub's address: `/chat` on the API base (`/api` → `/api/chat`), made absolute against the
 * page's address (the client resolves relative URLs itself only when it detects a browser).
 */
export function hubUrl(
  apiBase: string = API_BASE,
  pageUrl: string | null = globalThis.location?.href ?? null,
): string {
  const path = `${apiBase.replace(/\/+$/, '')}${HUB_PATH}`;
  return pageUrl ? new URL(path, pageUrl).href : path;
}

export interface CreateHubConnectionOptions {
  url?: string;
  /** Where warnings and errors go; the console by default. */
  console?: HubConsole;
  /**
   * Extra transport options. Tests pass an `httpClient`; the app passes nothing, so the
   * library's defaults (transports, timeouts) apply.
   */
  http?: Omit<IHttpConnectionOptions, 'accessTokenFactory' | 'logger'>;
}

/**
 * A HubConnection with the specification's constants (§9), set explicitly where the builder lets us:
 * - server timeout 30 s, keep-alive 15 s;
 * - automatic reconnect after 0, 2, 10 and 30 s, then stop (the closed state; HubClient takes over);
 * - the stored bearer token, read again on every negotiate (so a restart after a new sign-in uses
 *   the new token). The client sends it as `Authorization: Bearer` on HTTP requests and as the
 *   `access_token` query parameter on the WebSocket upgrade and the SSE request.
 *
 * The other two constants are built into @microsoft/signalr and cannot be set from outside:
 * - long-poll timeout 100 s: LongPollingTransport polls with `timeout: 100000`;
 * - at most 100 redirects during negotiation: `MAX_REDIRECTS = 100` in HttpConnection.
 * hub-connection.test.ts checks both against the installed client, so an upgrade that changes
 * them fails the tests.
 *
 * `timeout` (the HTTP timeout of the negotiate and send requests) is deliberately left unset: the
 * client's own default (100 s) applies.
 */
export function createHubConnection(options: CreateHubConnectionOptions = {}): HubConnection {
  // configureLogging's logger serves both the HubConnection and its HttpConnection.
  return new HubConnectionBuilder()
    .withUrl(options.url ?? hubUrl(), {
      ...options.http,
      accessTokenFactory: () => getToken() ?? '',
    })
    .withServerTimeout(HUB_CLIENT_DEFAULTS.serverTimeoutMs)
    .withKeepAliveInterval(HUB_CLIENT_DEFAULTS.keepAliveIntervalMs)
    .withAutomaticReconnect([...HUB_CLIENT_DEFAULTS.reconnectDelaysMs])
    .configureLogging(createHubLogger(options.console))
    .build();
}
