import { cwAccessOf, TOKEN_STORAGE_KEY } from '@fvg/contracts';

/*
 * The bearer token lives in local storage under the key the specification fixes (`bearerToken`).
 * Every access is guarded: storage can be unavailable (private mode, blocked cookies), and a
 * missing token simply means "not signed in".
 */

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/** The stored bearer token, or null when there is none. */
export function getToken(): string | null {
  try {
    const token = storage()?.getItem(TOKEN_STORAGE_KEY);
    return token ? token : null;
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  try {
    storage()?.setItem(TOKEN_STORAGE_KEY, token);
  } catch {
    // Storage full or blocked: the session then lasts as long as nothing needs the token again.
  }
}

export function clearToken(): void {
  try {
    storage()?.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored that we could remove.
  }
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * The payload of a JWT, decoded but NOT verified: the server verifies the token on every call,
 * the browser only reads the claims to shape the UI. Null when the token is absent or garbled.
 */
export function claimsOf(token: string | null | undefined): Record<string, unknown> | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
    return payload as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The `cw_access` claim of a token: false when the token or the claim is absent or garbled. */
export function tokenCwAccess(token: string | null | undefined = getToken()): boolean {
  return cwAccessOf(claimsOf(token));
}
