import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { testConfig } from '../test/helpers.ts';
import { createDatabaseStatus, isDatabaseUnavailable, retryWhileUnavailable } from './availability.ts';
import { connect } from './database.ts';
import { freePort } from './embedded.ts';

const pgError = (code: string, message = 'x') =>
  Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('isDatabaseUnavailable', () => {
  it('knows the errors of a database that is not there, and only those', () => {
    for (const e of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })], 'all refused'),
      new Error('wrapped', { cause: pgError('57P01') }),
    ])
      expect(isDatabaseUnavailable(e), String(e)).toBe(true);
    for (const e of [
      pgError('23505', 'duplicate key value'),
      pgError('22P02', 'invalid input syntax'),
      pgError('40001', 'could not serialize access'),
      new Error('Something else'),
      undefined,
      'ECONNREFUSED',
    ])
      expect(isDatabaseUnavailable(e), String(e)).toBe(false);
  });
});

describe('the database status', () => {
  it('goes down on an unreachable error, probes until the database answers, and says each change once', async () => {
    let answers = false;
    const lines: string[] = [];
    const changes: string[] = [];
    const status = createDatabaseStatus({
      probe: async () => {
        if (!answers) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      log: (m) => lines.push(m),
      upIntervalMs: 60_000,
      downIntervalMs: 20,
    });
    try {
      status.subscribe((s) => changes.push(s));
      status.reportError(pgError('23505')); // a wrong query is no outage
      expect(status.state).toBe('up');
      status.reportError(pgError('57P01', 'terminating connection due to administrator command'));
      status.reportError(pgError('57P01', 'terminating connection due to administrator command'));
      expect(status.state).toBe('down');
      const back = status.whenUp();
      answers = true;
      await back;
      expect(changes).toEqual(['down', 'up']);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^database unreachable: terminating connection .*\(57P01\); answering 503/);
      expect(lines[1]).toMatch(/^database reachable again after \d+\.\d s$/);
    } finally {
      status.stop();
    }
  });

  it('retryWhileUnavailable waits out an outage but not a wrong query', async () => {
    let calls = 0;
    const result = await retryWhileUnavailable(
      async () => {
        calls++;
        if (calls < 3) throw pgError('57P03', 'the database system is starting up');
        return 'done';
      },
      { delayMs: 10 },
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
    await expect(
      retryWhileUnavailable(() => Promise.reject(pgError('23505')), { delayMs: 10 }),
    ).rejects.toMatchObject({
      code: '23505',
    });
  });
});

describe('the API without its database', () => {
  const handle = { current: undefined as ReturnType<typeof connect> | undefined };
  afterAll(async () => {
    await handle.current?.close();
  });

  it('answers 503 problem+json with Retry-After to a signed-in call and to sign-in, never a 500', async () => {
    // A port nothing listens on: every connection is refused, as with a stopped server.
    handle.current = connect(`postgres://fvg:fvg@127.0.0.1:${await freePort()}/fvg`, 2);
    const app = await buildApp({
      config: testConfig({ jwtSecret: 'a-test-secret-that-is-long-enough-for-hs256' }),
      db: handle.current.db,
      logger: false,
    });
    try {
      await app.ready();
      const token = await app.services.auth.signer.sign({
        sub: '00000000-0000-4000-8000-000000000001',
        email: 'staff@fvg.local',
        role: 'staff',
        party: null,
        cw_access: false,
      });
      const calls = [
        app.inject({
          method: 'POST',
          url: '/api/auth/access_token',
          payload: { email: 'staff@fvg.local', password: 'staff-demo-2026' },
        }),
        app.inject({ method: 'GET', url: '/api/dossiers', headers: { authorization: `Bearer ${token}` } }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toMatchObject({ type: '/problems/database-unavailable', status: 503 });
      }
      expect(app.services.status.state).toBe('down');
    } finally {
      await app.close();
    }
  });
});
