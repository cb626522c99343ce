import { PWD_LINK_ANSWER } from '@fvg/contracts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { seedDemo } from '../../db/seed.ts';
import {
  createTestApp,
  createTestDatabase,
  mailText,
  startSmtpCatcher,
  type TestDatabase,
} from '../../test/helpers.ts';

let db: TestDatabase;
let app: App;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
  smtp = await startSmtpCatcher();
  app = await createTestApp(db, { smtpUrl: smtp.url, loginMaxAttempts: 3, loginWindowSeconds: 600 });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
  await db.drop();
});

const json = { 'content-type': 'application/json' };
function login(email: string, password: string, ip = '10.0.0.1') {
  return app.inject({
    method: 'POST',
    url: '/api/auth/access_token',
    headers: json,
    payload: { email, password },
    remoteAddress: ip,
  });
}
function me(token?: string) {
  return app.inject({
    method: 'GET',
    url: '/api/me',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}
function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  status: number,
) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json() as { status: number; title: string; type: string };
  expect(body.status).toBe(status);
  expect(body.title).toBeTruthy();
  return body as {
    status: number;
    title: string;
    detail?: string;
    errors?: { field: string; message: string }[];
  };
}

describe('POST /api/auth/access_token', () => {
  it('answers { Token } for valid credentials, and the token opens /me', async () => {
    const res = await login('admin@fvg.local', 'admin-demo-2026');
    expect(res.statusCode).toBe(200);
    const { Token } = res.json() as { Token: string };
    expect(Token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(Token.split('.')[1] as string, 'base64url').toString());
    expect(claims).toMatchObject({ email: 'admin@fvg.local', role: 'admin', cw_access: true });

    const user = await me(Token);
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({
      Email: 'admin@fvg.local',
      name: 'Ada Admin',
      role: 'admin',
      access: { cw_access: true },
    });
  });

  it('treats the email case-insensitively', async () => {
    expect((await login('Staff@FVG.local', 'staff-demo-2026', '10.0.0.9')).statusCode).toBe(200);
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const unknown = expectProblem(await login('nobody@fvg.local', 'whatever-password', '10.0.0.2'), 401);
    const wrong = expectProblem(await login('staff@fvg.local', 'not-the-password', '10.0.0.3'), 401);
    expect(unknown.detail).toBe(wrong.detail);
    expect(unknown.title).toBe(wrong.title);
  });

  it('answers 400 with the failing fields for malformed credentials', async () => {
    const body = expectProblem(
      await app.inject({
        method: 'POST',
        url: '/api/auth/access_token',
        headers: json,
        payload: { email: 'no-at-sign', extra: 1 },
      }),
      400,
    );
    const fields = body.errors?.map((e) => e.field) ?? [];
    expect(fields).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('rate-limits failed sign-ins per account with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++)
      expectProblem(await login('customer@globex.example', 'wrong-password', `10.1.0.${i}`), 401);
    // The right password from a fresh address is still refused while the account is locked.
    const res = await login('customer@globex.example', 'customer-demo-2026', '10.1.0.99');
    const body = expectProblem(res, 429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(body.detail).toContain(String(retryAfter));
  });

  it('rate-limits failed sign-ins per address across accounts', async () => {
    for (const who of ['a@x.test', 'b@x.test', 'c@x.test'])
      expectProblem(await login(who, 'wrong-password', '10.2.0.1'), 401);
    expectProblem(await login('staff@fvg.local', 'staff-demo-2026', '10.2.0.1'), 429);
    expect((await login('staff@fvg.local', 'staff-demo-2026', '10.2.0.2')).statusCode).toBe(200);
  });
});

describe('GET /api/me', () => {
  it('answers 401 without a token', async () => {
    expectProblem(await me(), 401);
  });

  it('answers 401 for a tampered token', async () => {
    const { Token } = (await login('staff@fvg.local', 'staff-demo-2026', '10.3.0.1')).json() as {
      Token: string;
    };
    const [h, p, s] = Token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    payload.role = 'admin';
    payload.cw_access = true;
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expectProblem(await me(forged), 401);
    expectProblem(await me(`${Token}x`), 401);
  });

  it('answers 401 for an expired token signed with the right key', async () => {
    const secret = (
      await db.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'jwt_secret')
        .executeTakeFirstOrThrow()
    ).value;
    const user = await db.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'staff@fvg.local')
      .executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ email: 'staff@fvg.local', role: 'staff', cw_access: false })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('fvg')
      .setSubject(user.id)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 60)
      .sign(new TextEncoder().encode(secret));
    expectProblem(await me(expired), 401);
  });

  it('reports cw_access false for a user without it and the party of a customer', async () => {
    const staff = (await login('staff@fvg.local', 'staff-demo-2026', '10.3.0.2')).json() as { Token: string };
    expect((await me(staff.Token)).json()).toMatchObject({ access: { cw_access: false }, party: null });
    const customer = (await login('customer@acme.example', 'customer-demo-2026', '10.3.0.3')).json() as {
      Token: string;
    };
    expect((await me(customer.Token)).json()).toMatchObject({
      role: 'customer',
      party: { code: 'ACME' },
      access: { cw_access: true },
    });
  });
});

describe('password forgot and reset', () => {
  const link = (email: string, ip = '10.4.0.1') =>
    app.inject({
      method: 'POST',
      url: '/api/auth/pwd/link',
      headers: json,
      payload: { email },
      remoteAddress: ip,
    });
  const reset = (token: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/pwd/reset', headers: json, payload: { token, password } });

  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const known = await link('staff@fvg.local');
    const unknown = await link('ghost@fvg.local');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: PWD_LINK_ANSWER });
    expect(unknown.json()).toEqual(known.json());
    await smtp.waitFor('staff@fvg.local');
    await app.services.mailer.flush();
    expect(smtp.mails.some((m) => m.to.includes('ghost@fvg.local'))).toBe(false);
  });

  it('resets the password through the mailed link, once', async () => {
    smtp.mails.length = 0;
    await link('customer@acme.example', '10.4.0.2');
    const mail = await smtp.waitFor('customer@acme.example');
    const url = /http:\/\/fvg\.test\/guest\/password\/reset\?token=([A-Za-z0-9_-]+)/.exec(mailText(mail.raw));
    expect(url).not.toBeNull();
    const token = url?.[1] as string;

    // Only the token's hash is stored.
    const stored = await db.db.selectFrom('password_reset_tokens').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);

    const tooShort = expectProblem(await reset(token, 'short'), 400);
    expect(tooShort.errors?.[0]?.field).toBe('password');

    const ok = await reset(token, 'a-brand-new-password');
    expect(ok.statusCode).toBe(200);
    expect((await login('customer@acme.example', 'a-brand-new-password', '10.4.0.3')).statusCode).toBe(200);
    expectProblem(await login('customer@acme.example', 'customer-demo-2026', '10.4.0.4'), 401);

    const reused = expectProblem(await reset(token, 'another-new-password'), 400);
    expect(reused.detail).toMatch(/already been used/);
    expect(reused.errors?.[0]?.field).toBe('token');
  });

  it('rejects an expired token and an unknown one with clear messages', async () => {
    smtp.mails.length = 0;
    await link('admin@fvg.local', '10.4.0.5');
    const mail = await smtp.waitFor('admin@fvg.local');
    const token = /token=([A-Za-z0-9_-]+)/.exec(mailText(mail.raw))?.[1] as string;
    await db.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('used_at', 'is', null)
      .execute();
    expect(expectProblem(await reset(token, 'a-brand-new-password'), 400).detail).toMatch(/expired/);
    expect(expectProblem(await reset('not-a-real-token', 'a-brand-new-password'), 400).detail).toMatch(
      /not valid/,
    );
  });

  it('ends sessions issued before a password change', async () => {
    const before = (await login('admin@fvg.local', 'admin-demo-2026', '10.4.0.6')).json() as {
      Token: string;
    };
    expect((await me(before.Token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1100)); // token iat has one-second resolution
    smtp.mails.length = 0;
    await link('admin@fvg.local', '10.4.0.7');
    const token = /token=([A-Za-z0-9_-]+)/.exec(
      mailText((await smtp.waitFor('admin@fvg.local')).raw),
    )?.[1] as string;
    expect((await reset(token, 'admin-new-password-1')).statusCode).toBe(200);
    expectProblem(await me(before.Token), 401);
  });
});
