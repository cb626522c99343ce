import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { connect } from './db/database.ts';
import { createTestApp, createTestDatabase, type TestDatabase, testConfig } from './test/helpers.ts';

let db: TestDatabase;
let webDist: string;
beforeAll(async () => {
  db = await createTestDatabase();
  webDist = await mkdtemp(path.join(tmpdir(), 'fvg-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>FVG</title><div id="root"></div>');
  await writeFile(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
});
afterAll(() => db.drop());

describe('health', () => {
  it('answers 200 with the database reachable', async () => {
    const app = await createTestApp(db);
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      version: 'v1.1.34',
      database: 'up',
      backup: { last: 'none', at: null },
    });
    await app.close();
  });

  it('answers 503 when the database is unreachable', async () => {
    const dead = connect('postgres://nobody:nothing@127.0.0.1:1/none', 1);
    const app = await buildApp({
      config: testConfig({ jwtSecret: 'a-test-secret-of-enough-length' }),
      db: dead.db,
      logger: false,
    });
    const res = await app.inject('/api/health');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'unavailable',
      database: 'down',
      backup: { last: 'unknown', at: null },
    });
    await app.close();
    await dead.close();
  });
});

describe('serving the web app and the API surface', () => {
  it('serves index.html for client routes, problem+json 404 for unknown API paths', async () => {
    const app = await createTestApp(db, { webDist });
    for (const url of ['/', '/dossiers', '/dossiers/D-2026-000001', '/no/such/page']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    const api = await app.inject('/api/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(api.json()).toMatchObject({ status: 404, instance: '/api/nothing-here' });
    expect((await app.inject('/missing.js')).statusCode).toBe(404);
    await app.close();
  });

  it('serves /sw.js uncached and allowed at scope /', async () => {
    const app = await createTestApp(db, { webDist });
    const res = await app.inject('/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['service-worker-allowed']).toBe('/');
    expect(res.headers['cache-control']).toBe('no-cache');
    await app.close();
  });

  it('publishes the OpenAPI document and the docs page', async () => {
    const app = await createTestApp(db);
    const doc = (await app.inject('/api/openapi.json')).json() as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/access_token',
        '/api/me',
        '/api/auth/pwd/link',
        '/api/auth/pwd/reset',
        '/api/health',
      ]),
    );
    const docs = await app.inject('/api/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toMatch(/swagger/i);
    await app.close();
  });

  it('serves every asset the docs page links, and points it at /api/openapi.json', async () => {
    const app = await createTestApp(db);
    for (const page of ['/api/docs', '/api/docs/']) {
      const html = await app.inject(page);
      expect(html.statusCode, page).toBe(200);
      // Served under the app's CSP: its own scripts only, none inline (the page has none).
      const csp = String(html.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(html.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      const links = [...html.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
      expect(links.length, page).toBeGreaterThanOrEqual(5);
      for (const link of links) {
        // Relative links (with the trailing slash) resolve against the page, as the browser does.
        const url = new URL(link, `http://fvg.test${page}`).pathname;
        expect(url, `${page} → ${link}`).toMatch(/^\/api\/docs\/static\//);
        expect((await app.inject(url)).statusCode, `${page} → ${link}`).toBe(200);
      }
    }
    const init = await app.inject('/api/docs/static/swagger-initializer.js');
    expect(init.body).toContain('"url":"/api/openapi.json"');
    expect((await app.inject('/docs/static/swagger-ui.css')).statusCode).toBe(404);
    await app.close();
  });
});
