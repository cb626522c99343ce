import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { connect } from '../db/database.ts';
import { enqueue } from '../jobs/jobs.ts';
import { seedDemo } from '../seed/sign-ins.ts';
import {
  bearer,
  createTestApp,
  createTestDatabase,
  DEMO_PASSWORDS,
  hubClients,
  type TestDatabase,
  testConfig,
} from '../test/helpers.ts';

const TOKEN = 'a-scrape-token-of-enough-length';
/** Apps on a database without the settings table (down, or not migrated) need their JWT secret given. */
const SECRET = 'a-test-secret-of-enough-length';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
});
afterAll(() => db.drop());

/** One sample of the Prometheus text exposition: `name{labels} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the text format strictly enough that a malformed line fails the test. */
function parseMetrics(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1] as string] = l[2] as string;
    const value = Number(m[3]);
    // Go's ParseFloat, as Prometheus reads the value: NaN in any case, ±Inf.
    if (Number.isNaN(value) && !/^nan$/i.test(m[3] as string)) throw new Error(`not a number: ${line}`);
    samples.push({ name: m[1] as string, labels, value });
  }
  return { samples, types };
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;
}

async function scrape(app: Awaited<ReturnType<typeof createTestApp>>) {
  const res = await app.inject({ url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.body);
}

describe('GET /api/metrics', () => {
  it('is off without configuration: 404 problem+json, as any unknown path', async () => {
    const app = await createTestApp(db);
    const res = await app.inject({ url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    await app.close();
  });

  it('needs the bearer token: 401 without it or with a wrong one, 200 with it', async () => {
    const app = await createTestApp(db, { metricsToken: TOKEN });
    const none = await app.inject('/api/metrics');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.json()).toMatchObject({ status: 401 });
    const wrong = await app.inject({ url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    const short = await app.inject({ url: '/api/metrics', headers: { authorization: 'Bearer a' } });
    expect(short.statusCode).toBe(401);
    expect((await scrape(app)).samples.length).toBeGreaterThan(0);
    await app.close();
  });

  it('opens to an allowed network without the token, and answers 403 elsewhere', async () => {
    const inside = await createTestApp(db, { metricsAllow: ['10.1.0.0/16', '127.0.0.0/8'] });
    const ok = await inside.inject({ url: '/api/metrics', remoteAddress: '127.0.0.1' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('fvg_http_requests_total');
    expect((await inside.inject({ url: '/api/metrics', remoteAddress: '::ffff:10.1.2.3' })).statusCode).toBe(
      200,
    );
    const outside = await inside.inject({ url: '/api/metrics', remoteAddress: '192.0.2.7' });
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ status: 403 });
    await inside.close();
    // Both configured: the token opens it from anywhere, no token from outside asks for it.
    const both = await createTestApp(db, { metricsAllow: ['10.1.0.0/16'], metricsToken: TOKEN });
    expect((await both.inject({ url: '/api/metrics', remoteAddress: '192.0.2.7' })).statusCode).toBe(401);
    expect(
      (
        await both.inject({
          url: '/api/metrics',
          remoteAddress: '192.0.2.7',
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).statusCode,
    ).toBe(200);
    await both.close();
  });

  it('is not part of the OpenAPI document of the product API', async () => {
    const app = await createTestApp(db);
    const doc = (await app.inject('/api/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/api/metrics');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health/live', '/api/health/ready']));
    await app.close();
  });

  it('counts requests per route pattern and status with latency buckets, and the pool, queue and sign-in figures', async () => {
    const app = await createTestApp(db, { metricsToken: TOKEN });
    const staff = await bearer(app, ...DEMO_PASSWORDS.staff);
    const before = (await scrape(app)).samples;
    const route = { method: 'GET', route: '/api/parties/:id', status: '404' };
    const missing = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 3; i++) await app.inject({ url: `/api/parties/${missing}`, headers: staff });
    await app.inject({
      method: 'POST',
      url: '/api/auth/access_token',
      payload: { email: DEMO_PASSWORDS.staff[0], password: 'not-the-password' },
    });
    await enqueue(db.db, 'offers.expire', {}, { runAt: new Date(Date.now() + 3_600_000) });

    const { samples, types } = await scrape(app);
    expect(value(samples, 'fvg_http_requests_total', route)).toBe(
      (value(before, 'fvg_http_requests_total', route) ?? 0) + 3,
    );
    // The pattern labels the series, never the URL with its id.
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes(missing)))).toBe(false);
    expect(types.get('fvg_http_request_duration_seconds')).toBe('histogram');
    const buckets = samples.filter(
      (s) => s.name === 'fvg_http_request_duration_seconds_bucket' && s.labels.route === route.route,
    );
    expect(buckets.map((b) => b.labels.le)).toEqual(expect.arrayContaining(['0.005', '0.1', '1', '+Inf']));
    expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBeGreaterThanOrEqual(3);
    expect(value(samples, 'fvg_http_request_duration_seconds_count', route)).toBeGreaterThanOrEqual(3);

    expect(value(samples, 'fvg_sign_in_refusals_total', { reason: 'wrong_credentials' })).toBe(1);
    expect(value(samples, 'fvg_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'fvg_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'fvg_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(value(samples, 'fvg_jobs_queued', { state: 'waiting' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'fvg_jobs_queued', { state: 'failed' })).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'fvg_hub_connections')).toBe(0);
    expect(value(samples, 'fvg_process_resident_memory_bytes')).toBeGreaterThan(0);
    await app.close();
  });

  it('counts failed job runs', async () => {
    const app = await buildApp({
      config: testConfig({ metricsToken: TOKEN, jobsEnabled: true }),
      db: db.db,
      pool: db.pool,
      logger: false,
    });
    app.services.jobs.register('offers.expire', async () => {
      throw new Error('the test job fails');
    });
    await app.ready();
    await enqueue(db.db, 'offers.expire', {}, { maxAttempts: 1, jobKey: 'metrics-test-failure' });
    const deadline = Date.now() + 15_000;
    let failures: number | undefined;
    while (Date.now() < deadline) {
      failures = value((await scrape(app)).samples, 'fvg_jobs_failures_total', { task: 'offers.expire' });
      if (failures) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(failures).toBe(1);
    await app.close();
  });

  it('counts hub connections and messages', async () => {
    const app = await buildApp({ config: testConfig({ metricsToken: TOKEN }), db: db.db, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const hubUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/chat`;
    const hub = hubClients(() => hubUrl);
    try {
      const conn = await hub.connect(await bearer(app, ...DEMO_PASSWORDS.staff));
      await conn.invoke('LeaveDossier', '00000000-0000-4000-8000-000000000000');
      const { samples } = await scrape(app);
      expect(value(samples, 'fvg_hub_connections')).toBe(1);
      expect(value(samples, 'fvg_hub_messages_total', { direction: 'in' })).toBeGreaterThanOrEqual(1);
      expect(value(samples, 'fvg_hub_messages_total', { direction: 'out' })).toBeGreaterThanOrEqual(1);
    } finally {
      await hub.stopAll();
      await app.close();
    }
  });
});

describe('health: liveness and readiness', () => {
  it('live and ready answer 200 with a reachable, migrated database', async () => {
    const app = await createTestApp(db);
    const live = await app.inject('/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok', version: expect.any(String) });
    const ready = await app.inject('/api/health/ready');
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      version: expect.any(String),
      checks: { database: 'up', migrations: 'done', jobs: 'off' },
    });
    await app.close();
  });

  it('ready waits for the job worker where this process runs one', async () => {
    const app = await createTestApp(db, { jobsEnabled: true });
    try {
      const ready = await app.inject('/api/health/ready');
      expect(ready.statusCode, ready.body).toBe(200);
      expect(ready.json()).toMatchObject({ checks: { jobs: 'running' } });
      // A worker that stopped: this node cannot do its share of the jobs.
      await app.services.jobs.stop();
      const stopped = await app.inject('/api/health/ready');
      expect(stopped.statusCode).toBe(503);
      expect(stopped.json()).toMatchObject({
        detail: 'Not ready: the job worker is not running.',
        checks: { database: 'up', migrations: 'done', jobs: 'stopped' },
      });
    } finally {
      await app.close();
    }
  });

  it('not ready (503 problem+json, Retry-After) when the database is gone; live still answers', async () => {
    const dead = connect('postgres://nobody:nothing@127.0.0.1:1/none', 1);
    const app = await buildApp({ config: testConfig({ jwtSecret: SECRET }), db: dead.db, logger: false });
    const ready = await app.inject('/api/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(ready.headers['retry-after']).toBe('5');
    expect(ready.json()).toMatchObject({
      status: 503,
      title: 'Not ready',
      checks: { database: 'down', migrations: 'unknown', jobs: 'off' },
      requestId: ready.headers['x-request-id'],
    });
    expect((await app.inject('/api/health/live')).statusCode).toBe(200);
    // The old single probe answers as it always did.
    expect((await app.inject('/api/health')).json()).toMatchObject({ status: 'unavailable' });
    await app.close();
    await dead.close();
  });

  it('not ready while migrations have not run', async () => {
    const name = `fvg_test_${process.ppid}_obs_empty_${Date.now()}`;
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(inject('pgAdminUrl'));
    url.pathname = `/${name}`;
    const empty = connect(url.toString(), 1);
    try {
      const app = await buildApp({ config: testConfig({ jwtSecret: SECRET }), db: empty.db, logger: false });
      const ready = await app.inject('/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ checks: { database: 'up', migrations: 'pending' } });
      await app.close();
    } finally {
      await empty.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

describe('request ids', () => {
  /** An app whose log (debug: one line per request) is kept as parsed JSON lines. */
  async function loggedApp(overrides: Partial<Config> = {}, routes?: (app: App) => void) {
    const lines: Record<string, unknown>[] = [];
    const out = new Writable({
      write(chunk, _encoding, done) {
        for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
        done();
      },
    });
    const app = await buildApp({ config: testConfig({ logLevel: 'debug', ...overrides }), db: db.db, out });
    routes?.(app);
    await app.ready();
    return { app, lines };
  }

  it('one id on the log line, the X-Request-Id header and the problem body of the same request', async () => {
    const { app, lines } = await loggedApp();
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/access_token',
      payload: { email: 'not an address', password: 'x' },
    });
    expect(res.statusCode).toBe(400);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json()).toMatchObject({ status: 400, requestId: id });
    expect(lines).toContainEqual(
      expect.objectContaining({ requestId: id, msg: 'request completed', statusCode: 400 }),
    );
    // Another request, another id.
    const next = await app.inject('/api/nothing-here');
    expect(next.json()).toMatchObject({ status: 404, requestId: next.headers['x-request-id'] });
    expect(next.headers['x-request-id']).not.toBe(id);
    await app.close();
  });

  it('keeps a sane incoming X-Request-Id and replaces one that is not', async () => {
    const { app, lines } = await loggedApp();
    const kept = await app.inject({ url: '/api/me', headers: { 'x-request-id': 'lb-7f3a.42:abc' } });
    expect(kept.statusCode).toBe(401);
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.42:abc');
    expect(kept.json()).toMatchObject({ requestId: 'lb-7f3a.42:abc' });
    expect(lines).toContainEqual(expect.objectContaining({ requestId: 'lb-7f3a.42:abc', statusCode: 401 }));
    for (const bad of ['has spaces in it', 'x'.repeat(200), '<script>', '']) {
      const res = await app.inject({ url: '/api/me', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.json()).toMatchObject({ requestId: res.headers['x-request-id'] });
    }
    await app.close();
  });

  it('an unexpected error (500) is logged at error level with the id its answer carries', async () => {
    const { app, lines } = await loggedApp({}, (a) =>
      a.get('/api/test-boom', () => {
        throw new Error('an unexpected failure');
      }),
    );
    const res = await app.inject('/api/test-boom');
    expect(res.statusCode).toBe(500);
    const id = res.headers['x-request-id'];
    expect(res.json()).toMatchObject({ status: 500, requestId: id });
    expect(lines).toContainEqual(
      expect.objectContaining({ requestId: id, level: 50, msg: 'unhandled error' }),
    );
    await app.close();
  });
});
