import { HOME_PATH, LOGIN_PATH, type RouteGroup } from '../lib/route-table.ts';

/*
 * The route guard of the specification (§4), as a pure decision:
 * - guest route, user signed in (the record has an Email) → the dossiers list, unless the route is
 *   exempt (the password reset link);
 * - auth route, no Email → login;
 * - the user record could not be fetched (no token, 401, network error…) → guest routes are
 *   allowed, everything else goes to login.
 * 'public' routes (/logout) are never guarded. A route without a group fails closed, like auth.
 */

export interface GuardRoute {
  group: RouteGroup | undefined;
  exemptFromSignedInRedirect?: boolean | undefined;
}

export type MeResult = { ok: true; me: { Email?: string | null } | null | undefined } | { ok: false };

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: typeof HOME_PATH | typeof LOGIN_PATH };

const ALLOW: GuardDecision = { kind: 'allow' };
const TO_LOGIN: GuardDecision = { kind: 'redirect', to: LOGIN_PATH };
const TO_HOME: GuardDecision = { kind: 'redirect', to: HOME_PATH };

/** The user record says "logged in" when it carries a non-empty Email. */
export function isSignedIn(me: { Email?: string | null } | null | undefined): boolean {
  return typeof me?.Email === 'string' && me.Email.trim() !== '';
}

export function decideGuard(route: GuardRoute, meResult: MeResult): GuardDecision {
  if (route.group === 'public') return ALLOW;
  if (!meResult.ok) return route.group === 'guest' ? ALLOW : TO_LOGIN;
  const signedIn = isSignedIn(meResult.me);
  if (route.group === 'guest') return signedIn && !route.exemptFromSignedInRedirect ? TO_HOME : ALLOW;
  return signedIn ? ALLOW : TO_LOGIN;
}

/** Whether a route needs the user record at all (public routes do not). */
export function needsUser(route: GuardRoute): boolean {
  return route.group !== 'public';
}
