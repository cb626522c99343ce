import { Writable } from 'node:stream';
import { PWD_LINK_ANSWER } from '@fvg/contracts';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { HttpProblem } from '../../http/problem.ts';
import { apiTest } from '../../test/api-test.ts';
import { createTestApp, mailText, testConfig } from '../../test/helpers.ts';
import { usersService } from '../users/users.service.ts';
import { PASSWORD_MESSAGES } from './password-policy.ts';

// No demo sign-ins here: the rate limit counts every attempt against an account.
const setup = apiTest({
  smtp: true,
  signIn: false,
  config: { jobsEnabled: true, loginMaxAttempts: 3, loginWindowSeconds: 600 },
});
const { db } = setup;

const json = { 'content-type': 'application/json' };
/** The test app allows 3 failures per account and address (loginMaxAttempts above). */
const N = 3;
const STRONG = 'Harbour-Crane-7319';
function addUser(email: string) {
  return usersService(db.db).create({ email, password: STRONG, role: 'staff' });
}
function login(email: string, password: string, ip = '10.0.0.1') {
  return setup.app.inject({
    method: 'POST',
    url: '/api/auth/access_token',
    headers: json,
    payload: { email, password },
    remoteAddress: ip,
  });
}
function me(token?: string) {
  return setup.app.inject({
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
      await setup.app.inject({
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
});

describe('sign-in limits (ADR 0016)', () => {
  function expectRetryAfter(res: Awaited<ReturnType<typeof login>>) {
    const body = expectProblem(res, 429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(body.detail).toContain(`${retryAfter} seconds`);
    return retryAfter;
  }

  it('evaluates at most N of 40 parallel wrong passwords; the rest answer 429 with Retry-After', async () => {
    await addUser('parallel@x.test');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login('parallel@x.test', `wrong-guess-${i}`, '10.10.0.1')),
    );
    const refused = results.filter((r) => r.statusCode === 401);
    const limited = results.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(N);
    expect(limited).toHaveLength(40 - N);
    for (const res of limited) expect(expectRetryAfter(res)).toBeLessThanOrEqual(600);
  });

  it('evaluates the right password among 30 parallel guesses only if it got one of the N slots', async () => {
    await addUser('race@x.test');
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 17 ? STRONG : `wrong-guess-${i}`));
    const results = await Promise.all(guesses.map((p) => login('race@x.test', p, '10.11.0.1')));
    const evaluated = results.filter((r) => r.statusCode === 401 || r.statusCode === 200);
    expect(evaluated.length).toBeLessThanOrEqual(N);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(30 - evaluated.length);
    expect(results.filter((r) => r.statusCode === 200).length).toBeLessThanOrEqual(1);
    expect([200, 429]).toContain(results[17]?.statusCode);
  });

  it('lets the owner in from a known address while attackers are blocked', async () => {
    await addUser('owner@x.test');
    expect((await login('owner@x.test', STRONG, '10.12.0.1')).statusCode).toBe(200);

    // One attacker address: N failures, then even the right password waits there.
    for (let i = 0; i < N; i++)
      expectProblem(await login('owner@x.test', 'wrong-password', '10.12.9.9'), 401);
    expect(expectRetryAfter(await login('owner@x.test', STRONG, '10.12.9.9'))).toBeLessThanOrEqual(600);

    // Attackers spread over many addresses use up the account's limit for addresses it never used...
    for (let i = 0; i < 3 * N; i++)
      expectProblem(await login('owner@x.test', 'wrong-password', `10.13.0.${i}`), 401);
    expectRetryAfter(await login('owner@x.test', STRONG, '10.13.1.1'));
    // ...but not for the owner's own address.
    expect((await login('owner@x.test', STRONG, '10.12.0.1')).statusCode).toBe(200);
  });

  it('keeps a blocked address from blocking the account elsewhere or other accounts', async () => {
    await addUser('victim@x.test');
    await addUser('bystander@x.test');
    for (let i = 0; i < N; i++)
      expectProblem(await login('victim@x.test', 'wrong-password', '10.14.0.1'), 401);
    expectRetryAfter(await login('victim@x.test', STRONG, '10.14.0.1'));

    expect((await login('bystander@x.test', STRONG, '10.14.0.2')).statusCode).toBe(200);
    // The owner elsewhere, and the same address for another account, are not locked out.
    expect((await login('victim@x.test', STRONG, '10.14.0.2')).statusCode).toBe(200);
    expect((await login('bystander@x.test', STRONG, '10.14.0.1')).statusCode).toBe(200);
  });

  it('backs off an address that sprays many accounts, longer each time, sparing its known users', async () => {
    const ip = '10.15.0.1';
    await addUser('regular@x.test');
    expect((await login('regular@x.test', STRONG, ip)).statusCode).toBe(200);

    // N failures on each of 10 accounts fill the address's limit (10 × N).
    const spray = (round: number) =>
      Promise.all(
        Array.from({ length: 10 }, async (_, a) => {
          for (let k = 0; k < N; k++)
            expectProblem(await login(`sprayed-${round}-${a}@x.test`, 'Summer2026!', ip), 401);
        }),
      );
    await spray(1);
    const first = expectRetryAfter(await login('fresh-1@x.test', 'Summer2026!', ip));
    expect(first).toBeLessThanOrEqual(600);
    // Someone who signed in from this address before is not blocked with it.
    expect((await login('regular@x.test', STRONG, ip)).statusCode).toBe(200);

    // Moving the block into the past stands in for waiting it out.
    await db.db
      .updateTable('throttle_buckets')
      .set({ blocked_until: new Date(Date.now() - 1000), window_start: new Date(Date.now() - 601_000) })
      .where('bucket', '=', `login:address:${ip}`)
      .execute();
    await spray(2);
    const second = expectRetryAfter(await login('fresh-2@x.test', 'Summer2026!', ip));
    expect(second).toBeGreaterThan(600);
    expect(second).toBeLessThanOrEqual(1200);
  });

  it('never locks out an owner who mistyped once and then signs in again and again', async () => {
    await addUser('tabs@x.test');
    expectProblem(await login('tabs@x.test', 'a-typo-password', '10.16.0.1'), 401);
    // More sign-ins than the limit in one window (tabs, devices behind one address): all succeed.
    for (let i = 0; i < 2 * N; i++)
      expect((await login('tabs@x.test', STRONG, '10.16.0.1')).statusCode).toBe(200);
    // Successes give back only their own slots: the typo still counts in its window, so whoever
    // guesses from the owner's address gets no fresh guesses from the owner's sign-ins.
    for (let i = 0; i < N - 1; i++)
      expectProblem(await login('tabs@x.test', 'wrong-password', '10.16.0.1'), 401);
    expectRetryAfter(await login('tabs@x.test', STRONG, '10.16.0.1'));
  });

  it('behind one trusted proxy, a client cannot escape its limit by writing X-Forwarded-For', async () => {
    const proxied = await createTestApp(db, { loginMaxAttempts: N, loginWindowSeconds: 600, trustProxy: 1 });
    try {
      await addUser('spoof@x.test');
      // The load balancer (the socket's address) appends the real client; the rest is the client's.
      const attempt = (password: string, spoofed: string) =>
        proxied.inject({
          method: 'POST',
          url: '/api/auth/access_token',
          headers: { ...json, 'x-forwarded-for': `${spoofed}, 203.0.113.7` },
          payload: { email: 'spoof@x.test', password },
          remoteAddress: '10.0.0.254',
        });
      for (let i = 0; i < N; i++) expectProblem(await attempt('wrong-password', `198.51.100.${i}`), 401);
      expectRetryAfter(await attempt(STRONG, '198.51.100.99'));
    } finally {
      await proxied.close();
    }
  });

  it('counts an IPv6 /64 as one address', async () => {
    await addUser('v6@x.test');
    for (let i = 0; i < N; i++)
      expectProblem(await login('v6@x.test', 'wrong-password', `2001:db8:1:2::${i + 1}`), 401);
    expectRetryAfter(await login('v6@x.test', STRONG, '2001:db8:1:2:ffff::9'));
    expect((await login('v6@x.test', STRONG, '2001:db8:1:3::1')).statusCode).toBe(200);
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
    setup.app.inject({
      method: 'POST',
      url: '/api/auth/pwd/link',
      headers: json,
      payload: { email },
      remoteAddress: ip,
    });
  const reset = (token: string, password: string) =>
    setup.app.inject({
      method: 'POST',
      url: '/api/auth/pwd/reset',
      headers: json,
      payload: { token, password },
    });

  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const known = await link('staff@fvg.local');
    const unknown = await link('ghost@fvg.local');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: PWD_LINK_ANSWER });
    expect(unknown.json()).toEqual(known.json());
    await setup.smtp.waitFor('staff@fvg.local');
    await setup.app.services.auth.settle();
    await setup.app.services.mailer.flush();
    expect(setup.smtp.mails.some((m) => m.to.includes('ghost@fvg.local'))).toBe(false);
  });

  it('answers before the account is even looked up, and mails the link afterwards', async () => {
    await addUser('slow@x.test');
    setup.smtp.mails.length = 0;
    // Hold the reset-token table: no link can be issued until the test lets go of it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let onLocked = () => {};
    const locked = new Promise<void>((resolve) => {
      onLocked = resolve;
    });
    const holder = db.db.transaction().execute(async (trx) => {
      await sql`lock table password_reset_tokens in exclusive mode`.execute(trx);
      onLocked();
      await held;
    });
    await locked;
    try {
      const known = await link('slow@x.test', '10.5.0.1');
      const unknown = await link('nobody-here@x.test', '10.5.0.2');
      expect(known.statusCode).toBe(200);
      expect(known.json()).toEqual({ message: PWD_LINK_ANSWER });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual(known.json());
      // Both answers are out while the known account's token still cannot be stored.
      const queued = await db.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('to_address', '=', 'slow@x.test')
        .execute();
      expect(queued).toHaveLength(0);
      expect(setup.smtp.mails).toHaveLength(0);
    } finally {
      release();
      await holder;
    }
    const mail = await setup.smtp.waitFor('slow@x.test');
    expect(mailText(mail.raw)).toMatch(/guest\/password\/reset\?token=/);
    await setup.app.services.auth.settle();
    await setup.app.services.mailer.flush();
    expect(setup.smtp.mails.some((m) => m.to.includes('nobody-here@x.test'))).toBe(false);
  });

  it('logs a reset link that could not be issued instead of dropping it silently', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await buildApp({
      config: testConfig({ smtpUrl: setup.smtp.url }),
      db: db.db,
      logger: { level: 'error', stream },
    });
    await logged.ready();
    await sql`alter table mail_outbox rename to mail_outbox_away`.execute(db.db);
    try {
      const res = await logged.inject({
        method: 'POST',
        url: '/api/auth/pwd/link',
        headers: json,
        payload: { email: 'staff@fvg.local' },
        remoteAddress: '10.7.0.1',
      });
      expect(res.json()).toEqual({ message: PWD_LINK_ANSWER });
      await logged.services.auth.settle();
    } finally {
      await sql`alter table mail_outbox_away rename to mail_outbox`.execute(db.db);
      await logged.close();
    }
    const errors = lines.map((l) => JSON.parse(l) as { msg: string; err?: { message: string } });
    expect(errors).toContainEqual(
      expect.objectContaining({
        msg: 'password reset link failed',
        err: expect.objectContaining({ message: expect.stringMatching(/mail_outbox/) }),
      }),
    );
  });

  it('refuses a common password and one built from the email or product name, on the field', async () => {
    await addUser('maria.jansen@harbour.example');
    setup.smtp.mails.length = 0;
    await link('maria.jansen@harbour.example', '10.4.1.1');
    const mail = await setup.smtp.waitFor('maria.jansen@harbour.example');
    const token = /token=([A-Za-z0-9_-]+)/.exec(mailText(mail.raw))?.[1] as string;

    for (const [password, message] of [
      ['password1234', PASSWORD_MESSAGES.common],
      ['qwertyuiop12', PASSWORD_MESSAGES.common],
      ['maria.jansen2026', PASSWORD_MESSAGES.personal],
      ['harbour-harbour!', PASSWORD_MESSAGES.personal],
      ['fvg-fvg-2026', PASSWORD_MESSAGES.personal],
    ] as const) {
      const body = expectProblem(await reset(token, password), 400);
      expect(body.errors).toEqual([{ field: 'password', message }]);
    }
    // A refused password does not use up the link.
    expect((await reset(token, 'Jansen-Kade-Lantern-81')).statusCode).toBe(200);
    expect(
      (await login('maria.jansen@harbour.example', 'Jansen-Kade-Lantern-81', '10.4.1.2')).statusCode,
    ).toBe(200);
  });

  it('clears the limits of an account when its password is reset', async () => {
    await addUser('locked@x.test');
    // Blocked at one address, and for every address it never signed in from.
    for (let i = 0; i < N; i++)
      expectProblem(await login('locked@x.test', 'wrong-password', '10.6.0.1'), 401);
    for (let i = 1; i <= 3 * N; i++)
      expectProblem(await login('locked@x.test', 'wrong-password', `10.6.${i}.1`), 401);
    expectProblem(await login('locked@x.test', STRONG, '10.6.0.1'), 429);
    expectProblem(await login('locked@x.test', STRONG, '10.6.99.1'), 429);

    setup.smtp.mails.length = 0;
    await link('locked@x.test', '10.6.9.2');
    const token = /token=([A-Za-z0-9_-]+)/.exec(
      mailText((await setup.smtp.waitFor('locked@x.test')).raw),
    )?.[1];
    expect((await reset(token as string, 'Unlocked-Quay-Heron-52')).statusCode).toBe(200);
    expect((await login('locked@x.test', 'Unlocked-Quay-Heron-52', '10.6.0.1')).statusCode).toBe(200);
    expect((await login('locked@x.test', 'Unlocked-Quay-Heron-52', '10.6.99.1')).statusCode).toBe(200);
  });

  it('applies the same policy when the operator command creates a user', async () => {
    const users = usersService(db.db);
    for (const [email, password, message] of [
      ['ops@depot.example', 'Password1234', PASSWORD_MESSAGES.common],
      ['ops@depot.example', 'depot-depot-1', PASSWORD_MESSAGES.personal],
      ['ops@depot.example', 'FVG-fvg-2026!', PASSWORD_MESSAGES.personal],
    ] as const) {
      const error = await users.create({ email, password, role: 'staff' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpProblem);
      expect((error as HttpProblem).status).toBe(400);
      expect((error as HttpProblem).options.errors).toEqual([{ field: 'password', message }]);
    }
    await expect(
      users.create({ email: 'ops@depot.example', password: STRONG, role: 'staff' }),
    ).resolves.toMatchObject({ email: 'ops@depot.example' });
  });

  it('resets the password through the mailed link, once', async () => {
    setup.smtp.mails.length = 0;
    await link('customer@acme.example', '10.4.0.2');
    const mail = await setup.smtp.waitFor('customer@acme.example');
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
    setup.smtp.mails.length = 0;
    await link('admin@fvg.local', '10.4.0.5');
    const mail = await setup.smtp.waitFor('admin@fvg.local');
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
    setup.smtp.mails.length = 0;
    await link('admin@fvg.local', '10.4.0.7');
    const token = /token=([A-Za-z0-9_-]+)/.exec(
      mailText((await setup.smtp.waitFor('admin@fvg.local')).raw),
    )?.[1] as string;
    expect((await reset(token, 'admin-new-password-1')).statusCode).toBe(200);
    expectProblem(await me(before.Token), 401);
  });
});
