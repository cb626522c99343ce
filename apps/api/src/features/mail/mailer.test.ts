import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { apiTest, seedDemo } from '../../test/api-test.ts';
import { bearer, createTestDatabase, DEMO_PASSWORDS, testConfig, waitUntil } from '../../test/helpers.ts';

/** The app's output as a pipe sees it (not a terminal): JSON log lines and the plain lines for people. */
function captured() {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { out, lines: () => chunks.join('').split('\n').filter(Boolean) };
}

const { db } = apiTest({ app: false });
let app: App;
let output: ReturnType<typeof captured>;

beforeAll(async () => {
  output = captured();
  // No SMTP_URL: mail stays in the outbox, as on a first start.
  app = await buildApp({
    config: testConfig({ logLevel: 'info', jobsEnabled: true }),
    db: db.db,
    pool: db.pool,
    out: output.out,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

const linkLine = (to: string) =>
  output.lines().find((l) => l.startsWith(`[fvg] mail to ${to}: `)) as string | undefined;

describe('mail kept in the outbox (no SMTP_URL)', () => {
  it('prints the reset link as its own plain line that works when opened', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/pwd/link',
      payload: { email: 'staff@fvg.local' },
      remoteAddress: '10.9.0.1',
    });
    expect(res.statusCode).toBe(200);
    await app.services.auth.settle();
    // Printed by the mail job, which runs after the request.
    await waitUntil('the reset line', () => linkLine('staff@fvg.local') !== undefined);

    const line = linkLine('staff@fvg.local');
    expect(line).toMatch(
      /^\[fvg\] mail to staff@fvg\.local: Reset your FVG password — http:\/\/fvg\.test\/guest\/password\/reset\?token=[\w-]+$/,
    );
    // Copied from the line as a newcomer would: the token in it resets the password.
    const token = new URL((line as string).split(' — ')[1] as string).searchParams.get('token');
    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/pwd/reset',
      payload: { token, password: 'a-new-staff-password-7' },
    });
    expect(reset.statusCode).toBe(200);
    // The JSON log keeps the secret out: no log record carries the mail's text or its token.
    const records = output.lines().filter((l) => l.startsWith('{'));
    expect(records.length).toBeGreaterThan(0);
    expect(records.join('\n')).not.toContain(token as string);
  });

  it('prints the invitation link of a new user', async () => {
    const partyId = (
      await db.db.selectFrom('parties').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow()
    ).id;
    const res = await app.inject({
      method: 'POST',
      url: '/api/users/invite',
      headers: await bearer(app, ...DEMO_PASSWORDS.admin),
      payload: { email: 'nina@acme.example', name: 'Nina New', role: 'customer', partyId, cwAccess: false },
    });
    expect(res.statusCode).toBe(201);
    await waitUntil('the invitation line', () => linkLine('nina@acme.example') !== undefined);
    expect(linkLine('nina@acme.example')).toMatch(
      /^\[fvg\] mail to nina@acme\.example: You are invited to FVG — http:\/\/fvg\.test\/guest\/password\/reset\?token=[\w-]+$/,
    );
  });

  it('prints nothing when the log does not show info (LOG_LEVEL=warn)', async () => {
    // A database of its own: the app above would otherwise run the mail job and print in its output.
    const own = await createTestDatabase();
    await seedDemo(own.db);
    const quiet = captured();
    const warnOnly = await buildApp({
      config: testConfig({ logLevel: 'warn', jobsEnabled: true }),
      db: own.db,
      pool: own.pool,
      out: quiet.out,
    });
    await warnOnly.ready();
    try {
      await warnOnly.inject({
        method: 'POST',
        url: '/api/auth/pwd/link',
        payload: { email: 'admin@fvg.local' },
        remoteAddress: '10.9.0.2',
      });
      await warnOnly.services.auth.settle();
      // The job ran (printing nothing) before the output is looked at.
      await warnOnly.services.mailer.flush();
      expect(
        await own.db
          .selectFrom('mail_outbox')
          .select('id')
          .where('to_address', '=', 'admin@fvg.local')
          .execute(),
      ).toHaveLength(1);
      expect(quiet.lines().filter((l) => !l.startsWith('{'))).toEqual([]);
      expect(quiet.lines().join('\n')).not.toContain('admin@fvg.local');
    } finally {
      await warnOnly.close();
      await own.drop();
    }
  });
});
