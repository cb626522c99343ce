import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFile } from '../../../web/build/precompress.ts';
import type { App } from '../app.ts';
import { createTestApp, createTestDatabase, type TestDatabase } from '../test/helpers.ts';

/**
 * The built web app as the API serves it, on a small dist folder made the way `npm run build` makes
 * one (the same precompress step), so the test does not depend on a build being present.
 */
let db: TestDatabase;
let app: App;
let dist: string;
const text = (seed: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => `${seed} line ${i}: ${'x'.repeat(i % 40)}`).join('\n');
const files = {
  'index.html': `<!doctype html><html><head><title>FVG</title></head><body><div id="root"></div>${text('<!-- shell -->', 40)}</body></html>`,
  'sw.js': `self.addEventListener('fetch', () => {});\n${text('// worker', 40)}`,
  'assets/index-Ab12Cd34.js': `export const app = 1;\n${text('// bundle', 400)}`,
  'assets/index-Ab12Cd34.css': `body { margin: 0 }\n${text('/* style */', 200)}`,
};
const original = (name: keyof typeof files) => readFileSync(path.join(dist, name));

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'fvg-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dist, name), body);
  await Promise.all(Object.keys(files).map((name) => compressFile(path.join(dist, name))));
  db = await createTestDatabase();
  app = await createTestApp(db, { webDist: dist });
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('static web app, precompressed', () => {
  it('the build step writes .br and .gz beside the text files', () => {
    for (const name of Object.keys(files)) {
      const source = readFileSync(path.join(dist, name));
      expect(zlib.brotliDecompressSync(readFileSync(path.join(dist, `${name}.br`)))).toEqual(source);
      expect(zlib.gunzipSync(readFileSync(path.join(dist, `${name}.gz`)))).toEqual(source);
    }
  });

  it('sends brotli to a client that accepts it, with a year of caching for hashed assets', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(original('assets/index-Ab12Cd34.js').length);
    expect(zlib.brotliDecompressSync(res.rawPayload)).toEqual(original('assets/index-Ab12Cd34.js'));
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const res = await get('/assets/index-Ab12Cd34.css', 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/text\/css/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(res.rawPayload)).toEqual(original('assets/index-Ab12Cd34.css'));
  });

  it('sends the original bytes to a client that accepts no encoding, or only identity', async () => {
    for (const accept of [undefined, 'identity']) {
      const res = await get('/assets/index-Ab12Cd34.js', accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload).toEqual(original('assets/index-Ab12Cd34.js'));
    }
  });

  it('the service worker keeps its scope header and is never cached, compressed or not', async () => {
    for (const accept of ['br', undefined]) {
      const res = await get('/sw.js', accept);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['service-worker-allowed']).toBe('/');
      expect(res.headers['cache-control']).toBe('no-cache');
      const body = accept ? zlib.brotliDecompressSync(res.rawPayload) : res.rawPayload;
      expect(body).toEqual(original('sw.js'));
    }
  });

  it('client routes get index.html (compressed when accepted), never cached', async () => {
    const br = await get('/dossiers/123?tab=events', 'br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-type']).toMatch(/text\/html/);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(br.rawPayload)).toEqual(original('index.html'));

    const plain = await get('/dossiers');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload).toEqual(original('index.html'));
  });

  it('a missing asset is a 404 problem, not index.html, and API paths stay API 404s', async () => {
    const asset = await get('/assets/gone-Zz99.js', 'br');
    expect(asset.statusCode).toBe(404);
    expect(asset.headers['content-type']).toMatch(/application\/problem\+json/);
    const api = await get('/api/nope', 'br');
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});
