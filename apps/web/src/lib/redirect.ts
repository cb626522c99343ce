/*
 * The `redirect` search parameter of /login carries where the user was going. Only paths of this
 * app are followed: anything that could leave the origin (`//host`, `https:`, `\\`) or loop back
 * into the session screens is dropped, so the parameter cannot be used as an open redirect.
 */

const NEVER_RETURN_TO = ['/login', '/logout'];

export function safeRedirectTarget(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const target = value.trim();
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return undefined;
  if ([...target].some((char) => char.charCodeAt(0) < 0x20)) return undefined;
  const pathname = target.split(/[?#]/, 1)[0] ?? '';
  if (NEVER_RETURN_TO.some((path) => pathname === path || pathname.startsWith(`${path}/`))) return undefined;
  return target;
}
