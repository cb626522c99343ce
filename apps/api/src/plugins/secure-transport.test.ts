import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestDatabase } from '../test/helpers.ts';

let db: TestDatabase;
let webDist: string;
beforeAll(async () => {
  db = await createTestDatabase();
  webDist = await mkdtemp(path.join(tmpdir(), 'fvg-web-'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>FVG</title><div id="root"></div>');
});
afterAll(() => db.drop());

/** The two HTTPS-only headers of the page and of an API answer. */
async function httpsHeaders(
  overrides: Parameters<typeof createTestApp>[1],
  headers: Record<string, string> = {},
) {
  const app = await createTestApp(db, { webDist, ...overrides });
  try {
    return await Promise.all(
      ['/', '/api/health'].map(async (url) => {
        const res = await app.inject({ url, headers });
        expect(res.statusCode, url).toBe(200);
        const csp = String(res.headers['content-security-policy']);
        // The rest of the policy stays whichever way the app is reached.
        expect(csp, url).toMatch(/script-src 'self'(;|$)/);
        return {
          url,
          upgrade: /upgrade-insecure-requests/.test(csp),
          hsts: res.headers['strict-transport-security'],
        };
      }),
    );
  } finally {
    await app.close();
  }
}

describe('HTTPS-only headers (issue 24 item 1)', () => {
  it('are not sent when the app is served over plain HTTP (an office server opened by its name)', async () => {
    for (const h of await httpsHeaders({ publicUrl: 'http://fvg-office.test:3000' }))
      expect(h, h.url).toEqual({ url: h.url, upgrade: false, hsts: undefined });
  });

  it('are sent when PUBLIC_URL is https', async () => {
    for (const h of await httpsHeaders({ publicUrl: 'https://fvg.example.com' }))
      expect(h, h.url).toEqual({ url: h.url, upgrade: true, hsts: 'max-age=31536000; includeSubDomains' });
  });

  it('are sent when a trusted proxy says the request came over https, and only then', async () => {
    const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.0.0.7' };
    for (const h of await httpsHeaders({ publicUrl: 'http://fvg-office.test', trustProxy: 1 }, proxied))
      expect(h, h.url).toEqual({ url: h.url, upgrade: true, hsts: 'max-age=31536000; includeSubDomains' });
    // Without TRUST_PROXY a client could claim https itself: the header is not believed.
    for (const h of await httpsHeaders({ publicUrl: 'http://fvg-office.test', trustProxy: false }, proxied))
      expect(h, h.url).toEqual({ url: h.url, upgrade: false, hsts: undefined });
    for (const h of await httpsHeaders({ publicUrl: 'http://fvg-office.test', trustProxy: 1 }))
      expect(h, h.url).toEqual({ url: h.url, upgrade: false, hsts: undefined });
  });
});
