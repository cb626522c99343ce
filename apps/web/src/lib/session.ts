import {
  DEFAULT_USER_PREFERENCES,
  loginResponseSchema,
  type Me,
  meSchema,
  type UserPreferences,
} from '@fvg/contracts';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from './api-client.ts';
import { setDisplayPreferences } from './display-preferences.ts';
import { setLanguage } from './i18n.ts';
import { setNumberFormat } from './number-format.ts';
import { clearToken, getToken, setToken, tokenCwAccess } from './token.ts';

export { claimsOf, clearToken, getToken, setToken, tokenCwAccess } from './token.ts';

/** Query keys of the session; `sessionKeys.all` covers everything that depends on who is signed in. */
export const sessionKeys = {
  all: ['session'] as const,
  me: () => [...sessionKeys.all, 'me'] as const,
};

/** The guard runs on every navigation; this keeps it from calling `me` more than twice a minute. */
export const ME_STALE_MS = 30_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The user record, with `access.cw_access` defaulting to false when absent (specification §3). */
export function normalizeMe(raw: unknown): Me {
  const record = isRecord(raw) ? raw : {};
  const access = isRecord(record.access) ? record.access : {};
  return meSchema.parse({ ...record, access: { ...access, cw_access: access.cw_access === true } });
}

/**
 * Puts the user's preferences in force: the one number formatter, the date/time formatter and the
 * catalogue language. Components using useNumberFormat / useDisplayPreferences re-render at once;
 * everything else formats with them on its next render. Called whenever `me` arrives or changes.
 */
export function applyPreferences(preferences: UserPreferences = DEFAULT_USER_PREFERENCES): void {
  try {
    setNumberFormat({
      currency: preferences.currency,
      decimal: preferences.decimalSeparator,
      thousands: preferences.thousandsSeparator,
    });
  } catch (error) {
    // The server never stores colliding separators; an old cached record must not break the app.
    console.error('The number format of the profile could not be applied', error);
  }
  setDisplayPreferences({
    dateFormat: preferences.dateFormat,
    timeFormat: preferences.timeFormat,
    timeZone: preferences.timeZone,
  });
  void setLanguage(preferences.language);
}

/** A changed user record (the profile saved): cached and applied, so every screen formats with it. */
export function setMe(queryClient: QueryClient, me: Me): void {
  queryClient.setQueryData(sessionKeys.me(), me);
  applyPreferences(me.preferences);
}

export async function fetchMe(signal?: AbortSignal): Promise<Me> {
  const sent = getToken();
  try {
    const me = normalizeMe(await api.get('me', signal ? { signal } : {}));
    applyPreferences(me.preferences);
    return me;
  } catch (error) {
    if (isApiError(error) && error.status === 401) {
      // The token was replaced while this call was out (a password change hands this session a
      // fresh one and ends the old): that says nothing about the session, so ask again with the new.
      const now = getToken();
      if (now && now !== sent) return fetchMe(signal);
      // A rejected token will not get better: drop it so later calls go out without it.
      clearToken();
    }
    throw error;
  }
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: sessionKeys.me(),
    queryFn: ({ signal }) => fetchMe(signal),
    staleTime: ME_STALE_MS,
    retry: false,
  });
}

/** The outcome of loading the user record, as the route guard (app/guard.ts) consumes it. */
export type LoadedMe = { ok: true; me: Me } | { ok: false };

/** Loads `me` through the query cache; without a token it does not call and counts as a failed fetch. */
export async function loadMeResult(queryClient: QueryClient): Promise<LoadedMe> {
  if (!getToken()) return { ok: false };
  try {
    return { ok: true, me: await queryClient.fetchQuery(meQueryOptions()) };
  } catch {
    return { ok: false };
  }
}

/** The signed-in user's record; disabled (no call) without a token. */
export function useMe() {
  return useQuery({ ...meQueryOptions(), enabled: getToken() !== null });
}

/** Whether the signed-in user works for the forwarder (staff or admin); false until `me` loads. */
export function useIsStaff(): boolean {
  const role = useMe().data?.role;
  return role === 'admin' || role === 'staff';
}

/**
 * The warehouse access flag: the server's user record is authoritative once loaded; until then the
 * token's claim stands in. False whenever neither says true.
 */
export function hasCwAccess(
  me: { access?: { cw_access?: boolean } | null } | null | undefined,
  token: string | null = getToken(),
): boolean {
  if (me?.access) return me.access.cw_access === true;
  return tokenCwAccess(token);
}

/** Signs in: stores the token and forgets any cached record of a previous user. Returns the token. */
export async function login(email: string, password: string, queryClient?: QueryClient): Promise<string> {
  const { Token } = await api.post('auth/access_token', { email, password }, { schema: loginResponseSchema });
  setToken(Token);
  queryClient?.removeQueries({ queryKey: sessionKeys.all });
  return Token;
}

const signOutListeners = new Set<() => void>();

/**
 * Runs `listener` on every logout(), before the token and the cache go (the real-time hub stops
 * there). Returns the function that removes it.
 */
export function onSignOut(listener: () => void): () => void {
  signOutListeners.add(listener);
  return () => {
    signOutListeners.delete(listener);
  };
}

/**
 * Ends `token` on the server too (POST auth/sign-out, ADR 0052): another copy of it (a stolen one, an
 * old tab) stops working, and its hub connections close. Best effort: the local sign-out never waits
 * for it, and a token the server already refuses (the hub ended the session) answers 401, ignored.
 */
async function endOnServer(token: string): Promise<void> {
  try {
    await api.post('auth/sign-out', undefined, { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    // Unreachable or already ended: the token is gone from this browser either way.
  }
}

/**
 * Signs out: the token goes (so no later call carries the header), the server ends it, and every
 * cached answer goes.
 */
export function logout(queryClient?: QueryClient): void {
  const token = getToken();
  for (const listener of [...signOutListeners]) {
    try {
      listener();
    } catch (error) {
      console.error('A sign-out listener failed', error);
    }
  }
  clearToken();
  if (token) void endOnServer(token);
  queryClient?.clear();
  // The next person at this browser starts from the defaults, not the previous user's formats.
  applyPreferences();
}
