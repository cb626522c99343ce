import type { AddressInfo } from 'node:net';
import { DEFAULT_USER_PREFERENCES } from '@fvg/contracts';
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { apiTest } from '../../test/api-test.ts';
import { mailText, testConfig } from '../../test/helpers.ts';
import { authRepository } from '../auth/auth.repository.ts';
import { PASSWORD_MESSAGES } from '../auth/password-policy.ts';
import { newOpaqueToken } from '../auth/tokens.ts';
import { usersService } from '../users/users.service.ts';

/**
 * The profile (issue 14): the preferences round trip through `me`, every field's validation, and the
 * password change: the current one required (and limited like a sign-in), the new one through the
 * reset's policy, every other session ended (old tokens and open hub connections, with the official
 * client), a fresh token for this one, a mail to the owner through the real SMTP catcher.
 */

const PASSWORD = 'Harbour-Crane-7319';
const NEW_PASSWORD = 'Lantern-Fjord-Otter-4410';
const MAX_ATTEMPTS = 3;

const setup = apiTest({ smtp: true, app: false });
const { db } = setup;
let app: App;
let hubUrl: string;

beforeAll(async () => {
  app = await buildApp({
    config: testConfig({
      smtpUrl: setup.smtp.url,
      jobsEnabled: true,
      loginMaxAttempts: MAX_ATTEMPTS,
      loginWindowSeconds: 600,
    }),
    db: db.db,
    pool: db.pool,
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  hubUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/chat`;
});
afterAll(async () => {
  const closed = app.close();
  app.server.closeAllConnections();
  await closed;
});

let serial = 0;
/** A user of its own per test: a password change must touch no other test's sessions. */
async function newUser(role: 'staff' | 'customer' = 'staff') {
  const email = `profile-${++serial}@${role === 'customer' ? 'acme.example' : 'fvg.test'}`;
  await usersService(db.db).create({
    email,
    password: PASSWORD,
    name: `Pat Profile ${serial}`,
    role,
    ...(role === 'customer' ? { party: 'ACME' } : {}),
  });
  const token = await signIn(email, PASSWORD);
  if (!token) throw new Error(`sign-in of ${email} failed`);
  return { email, token };
}

async function signIn(email: string, password: string): Promise<string | undefined> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/access_token',
    payload: { email, password },
    remoteAddress: '10.14.0.1',
  });
  return res.statusCode === 200 ? (res.json() as { Token: string }).Token : undefined;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const me = (token: string) => app.inject({ method: 'GET', url: '/api/me', headers: auth(token) });
const patch = (token: string, payload: unknown) =>
  app.inject({ method: 'PATCH', url: '/api/profile', headers: auth(token), payload: payload as object });
const changePassword = (token: string, currentPassword: string, newPassword: string) =>
  app.inject({
    method: 'POST',
    url: '/api/profile/password',
    headers: auth(token),
    payload: { currentPassword, newPassword },
  });

type Problem = { status: number; detail?: string; errors?: { field: string; message: string }[] };
function problemOf(res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }) {
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  return res.json() as Problem;
}
const fieldsOf = (res: Parameters<typeof problemOf>[0]) => (problemOf(res).errors ?? []).map((e) => e.field);

describe('preferences', () => {
  it('are the defaults until changed, and round-trip through me', async () => {
    const { token } = await newUser();
    expect((await me(token)).json()).toMatchObject({ preferences: DEFAULT_USER_PREFERENCES });
    const chosen = {
      currency: 'EUR',
      decimalSeparator: ',',
      thousandsSeparator: '.',
      dateFormat: 'DD-MM-YYYY',
      timeFormat: 'h:mm A',
      timeZone: 'Europe/Amsterdam',
      language: 'en',
    };
    const res = await patch(token, { name: '  Nina Bakker ', preferences: chosen });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Nina Bakker', preferences: chosen });
    expect((await me(token)).json()).toMatchObject({ name: 'Nina Bakker', preferences: chosen });
  });

  it('a patch changes only what it names; a null zone goes back to the browser’s', async () => {
    const { token } = await newUser();
    await patch(token, { preferences: { currency: 'gbp', timeZone: 'Asia/Tokyo' } });
    expect((await patch(token, { preferences: { dateFormat: 'YYYY-MM-DD' } })).statusCode).toBe(200);
    expect((await me(token)).json()).toMatchObject({
      preferences: {
        ...DEFAULT_USER_PREFERENCES,
        currency: 'GBP',
        timeZone: 'Asia/Tokyo',
        dateFormat: 'YYYY-MM-DD',
      },
    });
    await patch(token, { preferences: { timeZone: null } });
    expect((await me(token)).json()).toMatchObject({ preferences: { timeZone: null, currency: 'GBP' } });
  });

  it('are per user: one user’s choice leaves another’s as it was', async () => {
    const a = await newUser();
    const b = await newUser('customer');
    await patch(a.token, { preferences: { currency: 'CHF', thousandsSeparator: "'" } });
    expect((await me(b.token)).json()).toMatchObject({ preferences: DEFAULT_USER_PREFERENCES });
    expect((await me(a.token)).json()).toMatchObject({
      preferences: { currency: 'CHF', thousandsSeparator: "'" },
    });
  });

  it.each([
    ['an unknown currency', { preferences: { currency: 'XYZ' } }, 'preferences.currency'],
    ['a currency that is no code', { preferences: { currency: 'Euro' } }, 'preferences.currency'],
    [
      'a zone the runtime does not know',
      { preferences: { timeZone: 'Mars/Olympus_Mons' } },
      'preferences.timeZone',
    ],
    // Node 24's Intl takes ES2024 offset zones; PostgreSQL reads '+01:00' as POSIX, i.e. UTC−1.
    ['an offset instead of a zone', { preferences: { timeZone: '+01:00' } }, 'preferences.timeZone'],
    // Intl knows it, PostgreSQL's tz data no longer does: stored, it broke the dashboard (400 on tz).
    [
      'a zone the database does not know',
      { preferences: { timeZone: 'US/Pacific-New' } },
      'preferences.timeZone',
    ],
    ['a date format not on the list', { preferences: { dateFormat: 'YY/M/D' } }, 'preferences.dateFormat'],
    ['a time format not on the list', { preferences: { timeFormat: 'hh:mm:ss' } }, 'preferences.timeFormat'],
    ['a language without a catalogue', { preferences: { language: 'de' } }, 'preferences.language'],
    [
      'a decimal separator not on the list',
      { preferences: { decimalSeparator: ';' } },
      'preferences.decimalSeparator',
    ],
    [
      'equal separators in one patch',
      { preferences: { decimalSeparator: ',', thousandsSeparator: ',' } },
      'preferences.thousandsSeparator',
    ],
    [
      'a decimal separator equal to the stored thousands one',
      { preferences: { decimalSeparator: ',' } },
      'preferences.decimalSeparator',
    ],
    ['an empty name', { name: '   ' }, 'name'],
    ['an unknown key', { nickname: 'Pat' }, 'nickname'],
    ['an unknown preference', { preferences: { theme: 'dark' } }, 'preferences.theme'],
  ])('refuses %s with a problem on the field, storing nothing', async (_, body, field) => {
    const { token } = await newUser();
    const before = (await me(token)).json();
    const res = await patch(token, body);
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res).join(' ')).toContain(field);
    expect((await me(token)).json()).toEqual(before);
  });

  it('takes a decimal comma when the same patch moves the thousands separator away', async () => {
    const { token } = await newUser();
    const res = await patch(token, { preferences: { decimalSeparator: ',', thousandsSeparator: ' ' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ preferences: { decimalSeparator: ',', thousandsSeparator: ' ' } });
  });

  it('needs a signed-in user', async () => {
    const res = await app.inject({ method: 'PATCH', url: '/api/profile', payload: { name: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('password change', () => {
  it('refuses a wrong current password on currentPassword and keeps the old one', async () => {
    const { email, token } = await newUser();
    const res = await changePassword(token, 'not-my-password', NEW_PASSWORD);
    expect(res.statusCode).toBe(400);
    expect(problemOf(res).errors).toEqual([
      { field: 'currentPassword', message: 'Your current password is not correct.' },
    ]);
    expect((await me(token)).statusCode).toBe(200);
    expect(await signIn(email, PASSWORD)).toBeDefined();
    expect(await signIn(email, NEW_PASSWORD)).toBeUndefined();
  });

  it('checks the new password with the reset’s policy, on newPassword', async () => {
    const { email, token } = await newUser();
    const common = await changePassword(token, PASSWORD, 'password123');
    expect(common.statusCode).toBe(400);
    expect(problemOf(common).errors).toEqual([{ field: 'newPassword', message: PASSWORD_MESSAGES.common }]);
    const personal = await changePassword(token, PASSWORD, `${email.split('@')[0]}2026`);
    expect(problemOf(personal).errors?.[0]).toMatchObject({ field: 'newPassword' });
    const short = await changePassword(token, PASSWORD, 'short');
    expect(fieldsOf(short)).toEqual(['newPassword']);
    const same = await changePassword(token, PASSWORD, PASSWORD);
    expect(fieldsOf(same)).toEqual(['newPassword']);
    expect(await signIn(email, PASSWORD)).toBeDefined();
  });

  it('limits wrong current passwords like a sign-in', async () => {
    const { token } = await newUser();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      expect((await changePassword(token, `wrong-${i}`, NEW_PASSWORD)).statusCode).toBe(400);
    }
    const blocked = await changePassword(token, PASSWORD, NEW_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(problemOf(blocked).status).toBe(429);
  });

  it('ends every other session, keeps this one with a fresh token, and mails the owner', async () => {
    const { email, token } = await newUser('customer');
    const other = await signIn(email, PASSWORD);
    if (!other) throw new Error('second sign-in failed');
    // Another device holds a hub connection open (the official client).
    const conn = new HubConnectionBuilder()
      .withUrl(hubUrl, { transport: HttpTransportType.WebSockets, accessTokenFactory: () => other })
      .configureLogging(LogLevel.None)
      .build();
    const closed = new Promise<Error | undefined>((resolve) => conn.onclose(resolve));
    await conn.start();
    expect(conn.state).toBe(HubConnectionState.Connected);

    const res = await changePassword(token, PASSWORD, NEW_PASSWORD);
    expect(res.statusCode).toBe(200);
    const { Token } = res.json() as { Token: string; message: string };
    expect(Token).not.toBe(token);

    // Both earlier tokens (issued within the same second as the change) are refused; the fresh one works.
    const old = await me(other);
    expect(old.statusCode).toBe(401);
    expect(problemOf(old).detail).toBe('Your password was changed. Sign in again.');
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(Token)).json()).toMatchObject({ Email: email });

    const error = await closed;
    expect(error?.message).toContain('Your session has ended. Sign in again.');
    expect(conn.state).toBe(HubConnectionState.Disconnected);
    const { id } = (await me(Token)).json() as { id: string };
    expect([...app.services.hub.connections()].filter((c) => c.userId === id && !c.closed)).toHaveLength(0);

    expect(await signIn(email, PASSWORD)).toBeUndefined();
    expect(await signIn(email, NEW_PASSWORD)).toBeDefined();

    const mail = await setup.smtp.waitFor(email);
    const text = mailText(mail.raw);
    expect(text).toContain('Subject: Your FVG password was changed');
    expect(text).toContain('Every other device signed in to your account has been signed out.');
    expect(text).toContain('http://fvg.test/password-forgot');
    expect(text).not.toContain(NEW_PASSWORD);
  });

  it('voids a reset link mailed before the change', async () => {
    // Whoever asked for that link (or reads that mailbox) must not set a password over the new one.
    const { email, token } = await newUser();
    const { id } = (await me(token)).json() as { id: string };
    const link = newOpaqueToken();
    await authRepository(db.db).insertResetToken(id, link.hash, 60);
    expect((await changePassword(token, PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/pwd/reset',
      payload: { token: link.token, password: 'Quartz-Meadow-Heron-5821' },
    });
    expect(reset.statusCode).toBe(400);
    expect(fieldsOf(reset)).toEqual(['token']);
    expect(await signIn(email, NEW_PASSWORD)).toBeDefined();
  });

  it('needs a signed-in user', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/profile/password',
      payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(401);
  });
});
