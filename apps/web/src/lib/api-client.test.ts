import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, apiUrl, parseRetryAfter, problemMessage } from './api-client.ts';
import { setToken } from './token.ts';

/** A stand-in for fetch's Response: the real constructor refuses statuses outside 200–599 (e.g. 199). */
function fakeResponse(
  status: number,
  body = '',
  headers: Record<string, string> = {},
  statusText = '',
): Response {
  return {
    status,
    statusText,
    headers: new Headers(headers),
    text: async () => body,
  } as unknown as Response;
}

function headersOfCall(mock: ReturnType<typeof stubFetch>, index: number): Record<string, string> {
  const init = mock.mock.calls[index]?.[1];
  return (init?.headers ?? {}) as Record<string, string>;
}

function stubFetch(response: Response | (() => Promise<Response>)) {
  const mock = vi.fn(async (_url: string, _init?: RequestInit) =>
    typeof response === 'function' ? response() : response,
  );
  vi.stubGlobal('fetch', mock);
  return mock;
}

const problem = {
  type: 'https://fvg.example/problems/not-found',
  title: 'Not found',
  status: 404,
  detail: 'No dossier D-1',
};

describe('apiRequest', () => {
  it('joins the base /api and the path', () => {
    expect(apiUrl('me')).toBe('/api/me');
    expect(apiUrl('/auth/access_token')).toBe('/api/auth/access_token');
  });

  it('returns the parsed JSON of a 2xx answer', async () => {
    stubFetch(fakeResponse(200, '{"ok":true}', { 'content-type': 'application/json; charset=utf-8' }));
    await expect(apiRequest('health')).resolves.toEqual({ ok: true });
  });

  it('accepts 299 and empty 204 answers', async () => {
    stubFetch(fakeResponse(299, '{"a":1}', { 'content-type': 'application/json' }));
    await expect(apiRequest('x')).resolves.toEqual({ a: 1 });
    stubFetch(fakeResponse(204));
    await expect(apiRequest('x')).resolves.toBeUndefined();
  });

  it.each([199, 300, 404])('throws an ApiError carrying the problem body for %i', async (status) => {
    const body = { ...problem, status };
    stubFetch(fakeResponse(status, JSON.stringify(body), { 'content-type': 'application/problem+json' }));
    const error = await apiRequest('dossiers/D-1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).problem).toEqual(body);
    expect((error as ApiError).message).toBe('No dossier D-1');
  });

  it('reads problems sent as plain JSON too, keeping extension members', async () => {
    const body = { ...problem, status: 400, errors: [{ field: 'email', message: 'Bad' }], traceId: 't-1' };
    stubFetch(fakeResponse(400, JSON.stringify(body), { 'content-type': 'application/json' }));
    const error = (await apiRequest('x').catch((caught: unknown) => caught)) as ApiError;
    expect(error.problem).toEqual(body);
    expect(error.fieldErrors).toEqual([{ field: 'email', message: 'Bad' }]);
  });

  it('builds a fallback problem for a body that is not one', async () => {
    stubFetch(fakeResponse(502, '<html>Bad gateway</html>', { 'content-type': 'text/html' }, 'Bad Gateway'));
    const error = (await apiRequest('x').catch((caught: unknown) => caught)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.problem).toEqual({ type: 'about:blank', title: 'Bad Gateway', status: 502 });

    stubFetch(fakeResponse(404, '{"message":"nope"}', { 'content-type': 'application/json' }));
    const second = (await apiRequest('x').catch((caught: unknown) => caught)) as ApiError;
    expect(second.problem).toEqual({ type: 'about:blank', title: 'Not found', status: 404, detail: 'nope' });
  });

  it("keeps the problem's request id, or takes the X-Request-Id header of an answer that is not a problem", async () => {
    const body = { ...problem, requestId: 'req-in-body' };
    stubFetch(
      fakeResponse(404, JSON.stringify(body), {
        'content-type': 'application/problem+json',
        'x-request-id': 'req-in-body',
      }),
    );
    expect(((await apiRequest('x').catch((caught: unknown) => caught)) as ApiError).requestId).toBe(
      'req-in-body',
    );
    stubFetch(
      fakeResponse(502, '<html>Bad gateway</html>', { 'content-type': 'text/html', 'x-request-id': 'r-9' }),
    );
    const proxied = (await apiRequest('x').catch((caught: unknown) => caught)) as ApiError;
    expect(proxied.requestId).toBe('r-9');
    expect(proxied.problem).toEqual({
      type: 'about:blank',
      title: 'Bad gateway',
      status: 502,
      requestId: 'r-9',
    });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = (await apiRequest('x').catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.problem.status).toBe(0);
  });

  it('lets an abort through unchanged', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    stubFetch(async () => {
      throw abort;
    });
    await expect(apiRequest('x')).rejects.toBe(abort);
  });

  it('sends the Bearer header when a token is stored, and none otherwise', async () => {
    const fetchMock = stubFetch(fakeResponse(200, '{}', { 'content-type': 'application/json' }));
    await apiRequest('me');
    expect(headersOfCall(fetchMock, 0).Authorization).toBeUndefined();

    setToken('abc.def.ghi');
    await apiRequest('me');
    expect(headersOfCall(fetchMock, 1).Authorization).toBe('Bearer abc.def.ghi');
  });

  it('sends JSON bodies with their content type and sets no timeout signal', async () => {
    const fetchMock = stubFetch(fakeResponse(200, '{"Token":"t"}', { 'content-type': 'application/json' }));
    await apiRequest('auth/access_token', { method: 'POST', body: { email: 'a@b.c' } });
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"email":"a@b.c"}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.signal).toBeUndefined();
  });

  it('sends a Blob as it is, typed by the Blob unless a Content-Type header is given', async () => {
    const fetchMock = stubFetch(fakeResponse(200, '{}', { 'content-type': 'application/json' }));
    const csv = new Blob(['a,b\n1,2\n'], { type: 'text/csv' });
    await apiRequest('import', { method: 'POST', body: csv });
    const init = fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(init.body).toBe(csv);
    expect(headersOfCall(fetchMock, 0)['Content-Type']).toBe('text/csv');

    await apiRequest('import', { method: 'POST', body: csv, headers: { 'content-type': 'text/plain' } });
    expect(headersOfCall(fetchMock, 1)['content-type']).toBe('text/plain');
    expect(headersOfCall(fetchMock, 1)['Content-Type']).toBeUndefined();
  });

  it('validates the answer with a schema when given one', async () => {
    stubFetch(fakeResponse(200, '{"Token":5}', { 'content-type': 'application/json' }));
    const schema = {
      parse: (data: unknown) => {
        if (typeof (data as { Token?: unknown }).Token !== 'string') throw new Error('bad');
        return data as { Token: string };
      },
    };
    await expect(apiRequest('x', { schema })).rejects.toBeInstanceOf(ApiError);
  });

  it('reads Retry-After for 429 and says how long to wait', async () => {
    stubFetch(
      fakeResponse(429, JSON.stringify({ type: 'about:blank', title: 'Too many requests', status: 429 }), {
        'content-type': 'application/problem+json',
        'retry-after': '42',
      }),
    );
    const error = (await apiRequest('x').catch((caught: unknown) => caught)) as ApiError;
    expect(error.retryAfterSeconds).toBe(42);
    expect(problemMessage(error)).toBe('Too many attempts, try again in 42 s.');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('30')).toBe(30);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
