import { describe, expect, it } from 'vitest';
import { routeByName } from '../lib/route-table.ts';
import { decideGuard, type GuardDecision, type GuardRoute, type MeResult } from './guard.ts';

const routes: Record<string, GuardRoute> = {
  guest: { group: 'guest' },
  'guest-reset-exempt': { group: 'guest', exemptFromSignedInRedirect: true },
  auth: { group: 'auth' },
};

const sessions: Record<string, MeResult> = {
  'signed in': { ok: true, me: { Email: 'ann@example.com' } },
  'signed out (record without Email)': { ok: true, me: { Email: '' } },
  'me fetch failing': { ok: false },
};

const allow: GuardDecision = { kind: 'allow' };
const toLogin: GuardDecision = { kind: 'redirect', to: '/login' };
const toDossiers: GuardDecision = { kind: 'redirect', to: '/dossiers' };

const expected: [route: string, session: string, decision: GuardDecision][] = [
  ['guest', 'signed in', toDossiers],
  ['guest', 'signed out (record without Email)', allow],
  ['guest', 'me fetch failing', allow],
  ['guest-reset-exempt', 'signed in', allow],
  ['guest-reset-exempt', 'signed out (record without Email)', allow],
  ['guest-reset-exempt', 'me fetch failing', allow],
  ['auth', 'signed in', allow],
  ['auth', 'signed out (record without Email)', toLogin],
  ['auth', 'me fetch failing', toLogin],
];

describe('decideGuard', () => {
  it('covers every route group × session combination', () => {
    expect(expected).toHaveLength(Object.keys(routes).length * Object.keys(sessions).length);
  });

  it.each(expected)('%s route, %s → %j', (route, session, decision) => {
    const routeDef = routes[route];
    const meResult = sessions[session];
    if (!routeDef || !meResult) throw new Error('bad table');
    expect(decideGuard(routeDef, meResult)).toEqual(decision);
  });

  it('treats a missing or null record like one without Email', () => {
    expect(decideGuard({ group: 'auth' }, { ok: true, me: null })).toEqual(toLogin);
    expect(decideGuard({ group: 'auth' }, { ok: true, me: {} })).toEqual(toLogin);
    expect(decideGuard({ group: 'guest' }, { ok: true, me: undefined })).toEqual(allow);
  });

  it('never guards the public /logout route', () => {
    for (const meResult of Object.values(sessions)) {
      expect(decideGuard(routeByName('logout'), meResult)).toEqual(allow);
    }
  });

  it('fails closed for a route without a group', () => {
    expect(decideGuard({ group: undefined }, { ok: false })).toEqual(toLogin);
    expect(decideGuard({ group: undefined }, { ok: true, me: { Email: 'a@b.c' } })).toEqual(allow);
  });

  it('applies the exemption to the password reset route of the table', () => {
    const signedIn = sessions['signed in'] as MeResult;
    expect(decideGuard(routeByName('password-reset'), signedIn)).toEqual(allow);
    expect(decideGuard(routeByName('login'), signedIn)).toEqual(toDossiers);
    expect(decideGuard(routeByName('welcome'), signedIn)).toEqual(toDossiers);
    expect(decideGuard(routeByName('password-forgot'), signedIn)).toEqual(toDossiers);
  });
});
