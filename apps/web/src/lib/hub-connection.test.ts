import { HUB_CLIENT_DEFAULTS } from '@fvg/contracts';
import {
  HttpClient,
  type HttpRequest,
  HttpResponse,
  HubConnectionState,
  type IRetryPolicy,
  LogLevel,
} from '@microsoft/signalr';
import { describe, expect, it, vi } from 'vitest';
import { createHubConnection, hubUrl } from './hub-connection.ts';
import { createHubLogger } from './hub-logger.ts';
import { setToken } from './token.ts';

/*
 * The real @microsoft/signalr client, built the way the app builds it, against a scripted HTTP
 * layer: the specification's constants (§9) as the installed client applies them.
 */

/** An HttpClient that answers from a script and keeps a copy of every request. */
class ScriptedHttpClient extends HttpClient {
  readonly requests: HttpRequest[] = [];

  constructor(private readonly answer: (request: HttpRequest) => HttpResponse | Promise<HttpResponse>) {
    super();
  }

  override async send(request: HttpRequest): Promise<HttpResponse> {
    this.requests.push({ ...request, headers: { ...request.headers } });
    return this.answer(request);
  }
}

const RS = '\u001e';
const json = (body: unknown) => new HttpResponse(200, 'OK', JSON.stringify(body));
const isNegotiate = (request: HttpRequest) =>
  request.method === 'POST' && /\/negotiate\?/.test(request.url ?? '');
const quietConsole = () => ({ warn: vi.fn(), error: vi.fn() });

describe('hubUrl', () => {
  it('is /chat on the API base, absolute against the page', () => {
    expect(hubUrl('/api', 'https://fvg.example.com/dossiers/D-1')).toBe('https://fvg.example.com/api/chat');
    expect(hubUrl('/api/', 'https://fvg.example.com/')).toBe('https://fvg.example.com/api/chat');
    expect(hubUrl('https://api.example.com', 'https://fvg.example.com/')).toBe(
      'https://api.example.com/chat',
    );
    expect(hubUrl('/api', null)).toBe('/api/chat');
  });
});

describe('createHubConnection: the specification constants on the real client', () => {
  it('sets server timeout 30 s, keep-alive 15 s, reconnect delays 0, 2, 10, 30 s and then stop', () => {
    const connection = createHubConnection({ url: 'http://hub.test/api/chat', console: quietConsole() });
    expect(connection.serverTimeoutInMilliseconds).toBe(30_000);
    expect(connection.keepAliveIntervalInMilliseconds).toBe(15_000);
    expect(HUB_CLIENT_DEFAULTS.serverTimeoutMs).toBe(30_000);
    expect(HUB_CLIENT_DEFAULTS.keepAliveIntervalMs).toBe(15_000);

    // The policy is private in the library; reading it is the only way to see the delays it will use.
    const policy = (connection as unknown as { _reconnectPolicy?: IRetryPolicy })._reconnectPolicy;
    expect(policy).toBeDefined();
    const delays = [0, 1, 2, 3, 4].map((previousRetryCount) =>
      policy?.nextRetryDelayInMilliseconds({
        previousRetryCount,
        elapsedMilliseconds: 0,
        retryReason: new Error('lost'),
      }),
    );
    expect(delays).toEqual([0, 2_000, 10_000, 30_000, null]);
    expect(delays.slice(0, 4)).toEqual([...HUB_CLIENT_DEFAULTS.reconnectDelaysMs]);
    expect(connection.state).toBe(HubConnectionState.Disconnected);
  });

  it('follows at most 100 negotiate redirects (built into the client)', async () => {
    const log = quietConsole();
    const http = new ScriptedHttpClient(() =>
      json({ url: 'http://hub.test/api/chat', accessToken: 'redirected' }),
    );
    const connection = createHubConnection({
      url: 'http://hub.test/api/chat',
      console: log,
      http: { httpClient: http },
    });

    await expect(connection.start()).rejects.toThrow('Negotiate redirection limit exceeded.');
    expect(http.requests.filter(isNegotiate)).toHaveLength(100);
    expect(HUB_CLIENT_DEFAULTS.maxRedirects).toBe(100);
    // The redirect's token replaces the stored one.
    expect(http.requests[1]?.headers?.Authorization).toBe('Bearer redirected');
    // Hub errors reach the console only.
    expect(log.error).toHaveBeenCalledWith('[hub]', expect.stringContaining('redirection limit'));
  });

  it('accepts 99 redirects (the 100th negotiate is answered normally)', async () => {
    let negotiations = 0;
    const http = new ScriptedHttpClient(() => {
      negotiations++;
      return negotiations < 100
        ? json({ url: 'http://hub.test/api/chat', accessToken: 'redirected' })
        : json({ error: 'Hub is shutting down' });
    });
    const connection = createHubConnection({
      url: 'http://hub.test/api/chat',
      console: quietConsole(),
      http: { httpClient: http },
    });
    await expect(connection.start()).rejects.toThrow('Hub is shutting down');
    expect(negotiations).toBe(100);
  });

  it('negotiates on /api/chat with the bearer token and long-polls with a 100 s timeout', async () => {
    setToken('tok-ann');
    let polls = 0;
    let handshake = '';
    let handshakeSent: () => void = () => {};
    const handshakeArrived = new Promise<void>((resolve) => (handshakeSent = resolve));
    const http = new ScriptedHttpClient(async (request) => {
      if (isNegotiate(request)) {
        return json({
          connectionId: 'c-1',
          connectionToken: 't-1',
          negotiateVersion: 1,
          availableTransports: [{ transport: 'LongPolling', transferFormats: ['Text', 'Binary'] }],
        });
      }
      if (request.method === 'GET') {
        polls++;
        if (polls === 1) return new HttpResponse(200, 'OK', ''); // the first poll returns at once
        if (polls === 2) {
          await handshakeArrived;
          return new HttpResponse(200, 'OK', `{}${RS}`);
        }
        // Later polls hang until the client stops and aborts them.
        return new Promise<HttpResponse>((resolve) => {
          if (request.abortSignal) request.abortSignal.onabort = () => resolve(new HttpResponse(204));
        });
      }
      if (request.method === 'POST') {
        handshake += String(request.content);
        handshakeSent();
        return new HttpResponse(200, 'OK', '');
      }
      return new HttpResponse(202, 'Accepted', ''); // DELETE on stop
    });

    const connection = createHubConnection({ console: quietConsole(), http: { httpClient: http } });
    await connection.start();
    expect(connection.state).toBe(HubConnectionState.Connected);

    const [negotiate, ...rest] = http.requests;
    expect(negotiate?.url).toBe(`${window.location.origin}/api/chat/negotiate?negotiateVersion=1`);
    expect(negotiate?.headers?.Authorization).toBe('Bearer tok-ann');
    // The HTTP timeout of negotiate and sends: the client's default, left as is.
    expect(negotiate?.timeout).toBe(100_000);
    const pollRequests = rest.filter((request) => request.method === 'GET');
    expect(pollRequests.length).toBeGreaterThanOrEqual(2);
    for (const poll of pollRequests) {
      expect(poll.url).toMatch(/\/api\/chat\?id=t-1&_=\d+$/);
      expect(poll.timeout).toBe(100_000);
      expect(poll.headers?.Authorization).toBe('Bearer tok-ann');
    }
    expect(HUB_CLIENT_DEFAULTS.longPollTimeoutMs).toBe(100_000);
    expect(handshake).toBe(`{"protocol":"json","version":1}${RS}`);

    await connection.stop();
    expect(connection.state).toBe(HubConnectionState.Disconnected);
    expect(http.requests.some((request) => request.method === 'DELETE')).toBe(true);
  });
});

describe('createHubLogger', () => {
  it('writes warnings and errors to the console and drops the chatter', () => {
    const sink = quietConsole();
    const logger = createHubLogger(sink);
    logger.log(LogLevel.Trace, 'trace');
    logger.log(LogLevel.Debug, 'debug');
    logger.log(LogLevel.Information, 'info');
    logger.log(LogLevel.Warning, 'warning');
    logger.log(LogLevel.Error, 'error');
    logger.log(LogLevel.Critical, 'critical');
    logger.log(LogLevel.None, 'none');
    expect(sink.warn.mock.calls).toEqual([['[hub]', 'warning']]);
    expect(sink.error.mock.calls).toEqual([
      ['[hub]', 'error'],
      ['[hub]', 'critical'],
    ]);
  });
});
