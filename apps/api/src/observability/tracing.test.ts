import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../db/embedded.ts';
import { createTestDatabase, type TestDatabase } from '../test/helpers.ts';

/**
 * Tracing as an operator turns it on: the server started as `npm run serve` does, with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at a collector (here a tiny OTLP/HTTP JSON receiver in the
 * test), must export a span of a request carrying its route pattern and its request id.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const WAIT_MS = 60_000;

interface ExportedSpan {
  name: string;
  attributes: Record<string, unknown>;
}

let db: TestDatabase;
let receiver: Server;
let child: ChildProcess | undefined;
const spans: ExportedSpan[] = [];
const paths: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(req.url ?? '');
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: {
            scopeSpans: {
              spans: { name: string; attributes?: { key: string; value: Record<string, unknown> }[] }[];
            }[];
          }[];
        };
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              spans.push({
                name: s.name,
                attributes: Object.fromEntries(
                  (s.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]),
                ),
              });
      } catch {
        // not JSON: left out, the assertions below then fail with what arrived
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await new Promise((resolve) => receiver.close(resolve));
  await db.drop();
});

function until(check: () => boolean, what: string, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > WAIT_MS) {
        clearInterval(timer);
        reject(new Error(`no ${what} within ${WAIT_MS / 1000} s:\n${output()}`));
      }
    }, 100);
  });
}

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('exports the span of a request with its route pattern and request id to the collector', async () => {
    const port = await freePort();
    const collector = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    child = spawn('npm', ['run', '-s', 'serve'], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        SEED_DEMO: 'false',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        JOBS_ENABLED: 'false',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    await until(
      () => output.includes('FVG is running on'),
      'start',
      () => output,
    );
    expect(output).toContain(`tracing: exporting to ${collector}`);

    const res = await fetch(`http://127.0.0.1:${port}/api/parties/00000000-0000-4000-8000-000000000000`, {
      headers: { 'x-request-id': 'trace-test-1' },
    });
    expect(res.status).toBe(401);
    await until(
      () => spans.some((s) => s.attributes['http.route'] === '/api/parties/:id'),
      'span with the route /api/parties/:id',
      () => `${output}\nspans: ${JSON.stringify(spans.map((s) => s.name))}`,
    );
    expect(paths).toContain('/v1/traces');
    const request = spans.find(
      (s) => s.attributes['http.route'] === '/api/parties/:id' && s.attributes['fvg.request_id'],
    );
    expect(request?.attributes['fvg.request_id']).toBe('trace-test-1');
    // The probes are not traced: a load balancer's health checks would drown the requests.
    await fetch(`http://127.0.0.1:${port}/api/health/live`);
    await new Promise((r) => setTimeout(r, 500));
    expect(spans.some((s) => String(s.attributes['http.route'] ?? '').startsWith('/api/health'))).toBe(false);
  });
});
