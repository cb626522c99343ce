import { DEFAULT_USER_PREFERENCES } from '@fvg/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { displayPreferences } from './display-preferences.ts';
import { formatMoney } from './format.ts';
import { formatDate } from './format-date.ts';
import { numberFormat } from './number-format.ts';
import {
  claimsOf,
  getToken,
  hasCwAccess,
  loadMeResult,
  login,
  logout,
  normalizeMe,
  sessionKeys,
  setToken,
  tokenCwAccess,
} from './session.ts';

function base64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function jwt(payload: unknown): string {
  return `${base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.signature`;
}

const meRecord = {
  id: 'u1',
  Email: 'ann@example.com',
  name: 'Ann Example',
  role: 'staff',
  party: null,
  access: { cw_access: true },
};

function jsonResponse(status: number, body: unknown, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
}

describe('token claims', () => {
  it('reads cw_access true', () => {
    const token = jwt({ sub: 'u1', cw_access: true });
    expect(claimsOf(token)).toMatchObject({ sub: 'u1', cw_access: true });
    expect(tokenCwAccess(token)).toBe(true);
  });

  it('reads cw_access false', () => {
    expect(tokenCwAccess(jwt({ sub: 'u1', cw_access: false }))).toBe(false);
  });

  it('is false when the claim is missing', () => {
    expect(tokenCwAccess(jwt({ sub: 'u1' }))).toBe(false);
  });

  it('is false when the claim is not a boolean true', () => {
    expect(tokenCwAccess(jwt({ sub: 'u1', cw_access: 'true' }))).toBe(false);
  });

  it('is false and null-claimed for garbled tokens', () => {
    for (const token of [
      'garbage',
      'a.b.c',
      'a.%%%.c',
      `x.${base64Url('[1,2]')}.y`,
      `x.${base64Url('null')}.y`,
      '',
    ]) {
      expect(claimsOf(token)).toBeNull();
      expect(tokenCwAccess(token)).toBe(false);
    }
    expect(tokenCwAccess(null)).toBe(false);
  });

  it('decodes base64url payloads with UTF-8 text', () => {
    expect(claimsOf(jwt({ name: 'Zoë Ångström ✓' }))).toEqual({ name: 'Zoë Ångström ✓' });
  });

  it('reads the stored token by default', () => {
    expect(tokenCwAccess()).toBe(false);
    setToken(jwt({ cw_access: true }));
    expect(tokenCwAccess()).toBe(true);
  });
});

describe('hasCwAccess', () => {
  it('follows the user record once loaded, the token claim before', () => {
    const token = jwt({ cw_access: true });
    expect(hasCwAccess({ access: { cw_access: false } }, token)).toBe(false);
    expect(hasCwAccess({ access: { cw_access: true } }, null)).toBe(true);
    expect(hasCwAccess(undefined, token)).toBe(true);
    expect(hasCwAccess(undefined, null)).toBe(false);
  });
});

describe('normalizeMe', () => {
  it('defaults access.cw_access to false when absent', () => {
    const { access: _access, ...withoutAccess } = meRecord;
    expect(normalizeMe(withoutAccess).access).toEqual({ cw_access: false });
    expect(normalizeMe({ ...meRecord, access: {} }).access).toEqual({ cw_access: false });
  });
});

describe('session', () => {
  it('login stores the Token under bearerToken and forgets the cached user', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { Token: 'tok-1' }));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = new QueryClient();
    queryClient.setQueryData(sessionKeys.me(), { previous: true });

    await expect(login('ann@example.com', 'secret-password', queryClient)).resolves.toBe('tok-1');

    expect(localStorage.getItem('bearerToken')).toBe('tok-1');
    expect(queryClient.getQueryData(sessionKeys.me())).toBeUndefined();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/access_token');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'ann@example.com', password: 'secret-password' });
  });

  it('logout clears the token and the query cache', () => {
    setToken('tok-1');
    const queryClient = new QueryClient();
    queryClient.setQueryData(['dossiers'], [1, 2]);
    logout(queryClient);
    expect(getToken()).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('logout ends the token on the server too, with that token, and does not wait for it', async () => {
    const fetchMock = vi.fn(() => new Promise<Response>(() => {})); // the server never answers
    vi.stubGlobal('fetch', fetchMock);
    setToken('tok-2');
    logout(new QueryClient());
    expect(getToken()).toBeNull();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/sign-out');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok-2');
    vi.unstubAllGlobals();
  });

  it('logout without a token calls nothing', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    logout(new QueryClient());
    expect(fetchMock).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('loadMeResult does not call the API without a token', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    await expect(loadMeResult(new QueryClient())).resolves.toEqual({ ok: false });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('loadMeResult loads the record with the Bearer token', async () => {
    setToken('tok-1');
    const fetchMock = vi.fn(async () => jsonResponse(200, meRecord));
    vi.stubGlobal('fetch', fetchMock);
    // A record without preferences (an older server) reads as the defaults.
    await expect(loadMeResult(new QueryClient())).resolves.toEqual({
      ok: true,
      me: { ...meRecord, preferences: DEFAULT_USER_PREFERENCES },
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/me');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
  });

  it('loadMeResult reports failure on 401 and drops the rejected token', async () => {
    setToken('tok-expired');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          401,
          { type: 'about:blank', title: 'Unauthorized', status: 401 },
          'application/problem+json',
        ),
      ),
    );
    await expect(loadMeResult(new QueryClient())).resolves.toEqual({ ok: false });
    expect(getToken()).toBeNull();
  });

  it('loadMeResult reports failure on network errors', async () => {
    setToken('tok-1');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(loadMeResult(new QueryClient())).resolves.toEqual({ ok: false });
    expect(getToken()).toBe('tok-1');
  });

  it('puts the preferences of me in force when it loads, and the defaults back on logout', async () => {
    setToken('tok-prefs');
    const preferences = {
      currency: 'EUR',
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD.MM.YYYY',
      timeFormat: 'h:mm A',
      timeZone: 'Asia/Tokyo',
      language: 'en',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(200, { ...meRecord, preferences })),
    );
    const queryClient = new QueryClient();
    await loadMeResult(queryClient);
    expect(numberFormat()).toEqual({ currency: 'EUR', decimal: ',', thousands: '.' });
    expect(formatMoney('1234567.5')).toBe('€1.234.567,50');
    expect(displayPreferences()).toMatchObject({ dateFormat: 'DD.MM.YYYY', timeZone: 'Asia/Tokyo' });
    expect(formatDate('2026-11-23T20:00:00Z')).toBe('24.11.2026');

    logout(queryClient);
    expect(formatMoney('1234567.5')).toBe('$1,234,567.50');
    expect(displayPreferences()).toMatchObject({ dateFormat: 'D MMM YYYY', timeFormat: 'HH:mm' });
  });

  it('asks again with a token replaced while me was out, instead of ending the session', async () => {
    setToken('tok-before-change');
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization;
      if (auth === 'Bearer tok-before-change') {
        // The password change answered meanwhile with this session's fresh token.
        setToken('tok-after-change');
        return jsonResponse(
          401,
          { type: 'about:blank', title: 'Unauthorized', status: 401 },
          'application/problem+json',
        );
      }
      return jsonResponse(200, meRecord);
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(loadMeResult(new QueryClient())).resolves.toMatchObject({ ok: true });
    expect(getToken()).toBe('tok-after-change');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
