import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as netConnect } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { minimalPdf } from '../features/documents/minimal-pdf.ts';
import { apiTest } from '../test/api-test.ts';
import { createTestApp, type Json, testConfig } from '../test/helpers.ts';

const setup = apiTest({ files: 'fvg-input-' });
const { db, call, tokens } = setup;
let parties: Record<string, string>;
let dossier: { id: string; number: string; version: number };
const fields = (b: Json) => ((b.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);
/** A raw request through inject: the test controls every byte of the body and the URL. */
async function raw(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  opts: { body?: string | Buffer; contentType?: string; auth?: { authorization: string } } = {},
) {
  const res = await setup.app.inject({
    method,
    url,
    headers: {
      ...(opts.auth ?? tokens.staff),
      ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
    },
    ...(opts.body !== undefined ? { payload: opts.body } : {}),
  });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type'] ?? ''),
    body: (/json/.test(String(res.headers['content-type'])) ? res.json() : {}) as Json,
  };
}
/** The answer of a 400 problem+json naming `field`. */
function expectFieldProblem(res: { status: number; type?: string; body: Json }, field: string, status = 400) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (res.type !== undefined) expect(res.type).toMatch(/application\/problem\+json/);
  expect(fields(res.body)).toContain(field);
}
beforeAll(async () => {
  parties = Object.fromEntries(
    (await db.db.selectFrom('parties').select(['code', 'id']).execute()).map((p) => [p.code, p.id]),
  );
  const created = await call('POST', '/dossiers', tokens.staff, {
    type: 'export',
    mode: 'road',
    customerId: parties.ACME,
  });
  expect(created.status).toBe(201);
  dossier = created.body as typeof dossier;
});

/** Every file in the document store, partial uploads included. */
async function storedFiles(): Promise<string[]> {
  const all = await readdir(path.join(setup.dataDir, 'files'), {
    recursive: true,
    withFileTypes: true,
  }).catch(() => []);
  return all.filter((e) => e.isFile()).map((e) => e.name);
}

describe('NUL bytes and lone surrogates (PostgreSQL 22021, 22P05)', () => {
  it('answer 400 naming the field in a JSON body, raw escapes included', async () => {
    const body = (over: Json) => ({ type: 'export', mode: 'road', customerId: parties.ACME, ...over });
    expectFieldProblem(
      await call('POST', '/dossiers', tokens.staff, body({ customerReference: 'a\u0000b' })),
      'customerReference',
    );
    expectFieldProblem(
      await raw('POST', '/api/dossiers', {
        body: `{"type":"export","mode":"road","customerId":"${parties.ACME}","cargoDescription":"x\\u0000y"}`,
        contentType: 'application/json',
      }),
      'cargoDescription',
    );
    expectFieldProblem(
      await raw('POST', '/api/dossiers', {
        body: `{"type":"export","mode":"road","customerId":"${parties.ACME}","masterBl":"\\ud800"}`,
        contentType: 'application/json',
      }),
      'masterBl',
    );
    // Nested: a container's seal, reported with its path.
    expectFieldProblem(
      await call(
        'POST',
        '/dossiers',
        tokens.staff,
        body({ containers: [{ number: 'MSKU6011672', seals: ['\udfff'] }] }),
      ),
      'containers.0.seals.0',
    );
    // The same on an edit and on another area (parties), without anything endpoint-specific.
    expectFieldProblem(
      await call('PATCH', `/dossiers/${dossier.id}`, tokens.staff, {
        version: dossier.version,
        houseBl: '\u0000',
      }),
      'houseBl',
    );
    expectFieldProblem(
      await call('POST', '/parties', tokens.staff, {
        name: 'N\u0000',
        kinds: ['customer'],
        countryCode: 'NL',
      }),
      'name',
    );
    // A text body (CSV import) too.
    expectFieldProblem(
      await raw('POST', '/api/container-events/import', {
        body: 'equipmentReference\nMSKU\u00006011672\n',
        contentType: 'text/csv',
      }),
      'body',
    );
    const count = await db.db
      .selectFrom('dossiers')
      .select((e) => e.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('answer 400 naming the field in a query string and a path', async () => {
    expectFieldProblem(await raw('GET', '/api/dossiers?q=a%00b'), 'q');
    expectFieldProblem(await raw('GET', '/api/container-events?q=%00'), 'q');
    expectFieldProblem(await raw('GET', '/api/parties/a%00b'), 'id');
    expectFieldProblem(await raw('GET', `/api/dossiers/${encodeURIComponent('D-2026\u0000')}/history`), 'id');
    // UTF-8 cannot encode a surrogate: a percent-encoded one decodes to U+FFFD, storable text.
    for (const url of ['/api/parties?q=%ED%A0%80', '/api/dossiers/%ED%A0%80', '/api/parties?q=%C0%80'])
      expect((await raw('GET', url)).status, url).toBeLessThan(500);
  });
});

describe('integers and money beyond their columns (22003)', () => {
  it('refuses version 2^31 on edits, status actions and charges', async () => {
    for (const [url, payload] of [
      [`/dossiers/${dossier.id}`, { version: 2 ** 31, cargoDescription: 'x' }],
      [`/dossiers/${dossier.id}/transitions`, { version: 2 ** 31, to: 'cancelled' }],
      [`/dossiers/${dossier.id}/charges`, { version: 2 ** 31, charges: [] }],
      [`/parties/${parties.ACME}`, { version: 2 ** 31, name: 'Acme' }],
    ] as const) {
      const method = url.endsWith('transitions') ? 'POST' : url.endsWith('charges') ? 'PUT' : 'PATCH';
      const res = await call(method, url, tokens.staff, payload);
      expectFieldProblem(res, 'version');
    }
  });

  it('refuses charges of 999 999 999 999.99 × rate 999 999, and totals beyond the column', async () => {
    const charge = (over: Json) => ({
      kind: 'revenue',
      chargeCode: 'FREIGHT',
      description: 'Freight',
      amount: '999999999999.99',
      currency: 'USD',
      exchangeRate: '999999',
      ...over,
    });
    const product = await call('PUT', `/dossiers/${dossier.id}/charges`, tokens.staff, {
      version: dossier.version,
      charges: [charge({})],
    });
    expectFieldProblem(product, 'charges.0.amount');
    const total = await call('PUT', `/dossiers/${dossier.id}/charges`, tokens.staff, {
      version: dossier.version,
      charges: [
        charge({ amount: '99999999999999.99', exchangeRate: '1' }),
        charge({ amount: '5', exchangeRate: '1' }),
      ],
    });
    expectFieldProblem(total, 'charges');
    const fine = await call('PUT', `/dossiers/${dossier.id}/charges`, tokens.staff, {
      version: dossier.version,
      charges: [charge({ amount: '99999999999999.99', exchangeRate: '1' })],
    });
    expect(fine.status).toBe(200);
    expect(fine.body.revenueTotal).toBe('99999999999999.99');
    dossier.version = fine.body.version as number;
  });
});

describe('dates that do not exist (22008) and loose coercion', () => {
  it('refuses 2026-02-30T08:00Z on a transport instead of storing 2 March', async () => {
    const leg = { dossierId: dossier.number, mode: 'road' };
    for (const pickupFrom of ['2026-02-30T08:00Z', '+275760-09-13T00:00:00Z', '1', '2026-02-28T08:00'])
      expectFieldProblem(
        await call('POST', '/transports', tokens.staff, { ...leg, pickupFrom }),
        'pickupFrom',
      );
    expect(await db.db.selectFrom('transports').selectAll().execute()).toEqual([]);
    const good = await call('POST', '/transports', tokens.staff, { ...leg, pickupFrom: '2026-02-28T08:00Z' });
    expect(good.status).toBe(201);
    expect(good.body.pickupFrom).toBe('2026-02-28T08:00:00.000Z');
  });

  it('refuses non-existent calendar dates in bodies and list filters', async () => {
    for (const etd of ['2026-02-30', '2025-02-29', '0000-01-01']) {
      expectFieldProblem(
        await call('PATCH', `/dossiers/${dossier.id}`, tokens.staff, { version: dossier.version, etd }),
        'etd',
      );
      expectFieldProblem(await raw('GET', `/api/dossiers?etdFrom=${etd}`), 'etdFrom');
      expectFieldProblem(await raw('GET', `/api/planning?from=${etd}&to=2026-03-01`), 'from');
    }
  });

  it('takes numbers as JSON numbers in bodies and plain digits in queries', async () => {
    for (const packages of ['0x10', true, [7], '', '16']) {
      expectFieldProblem(
        await call('PATCH', `/dossiers/${dossier.id}`, tokens.staff, {
          version: dossier.version,
          packages,
        } as Json),
        'packages',
      );
    }
    const stored = await call('PATCH', `/dossiers/${dossier.id}`, tokens.staff, {
      version: dossier.version,
      packages: 16,
    });
    expect(stored.status).toBe(200);
    expect(stored.body.packages).toBe(16);
    dossier.version = stored.body.version as number;
    for (const q of ['page=0x10', 'pageSize=', 'page=1e1', 'page=true', 'page=-1', 'pageSize=%2B5'])
      expectFieldProblem(await raw('GET', `/api/dossiers?${q}`), q.split('=')[0] as string);
    expect((await raw('GET', '/api/dossiers?page=1&pageSize=5')).status).toBe(200);
    expectFieldProblem(await raw('GET', '/api/users?page=0x10', { auth: tokens.admin }), 'page');
  });
});

describe('chat before=', () => {
  it('answers 400 on a forged or garbage cursor', async () => {
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const before of [
      'garbage!',
      enc(['not-a-date', randomUUID()]),
      enc(['x', 'y']),
      enc(['2026-02-30T00:00:00.000000Z', randomUUID()]),
      enc(['2026-01-01T00:00:00.000000Z', 'not-a-uuid']),
      enc({ a: 1 }),
      encodeURIComponent('\u0000'),
    ])
      expectFieldProblem(await raw('GET', `/api/dossiers/${dossier.id}/messages?before=${before}`), 'before');
    // A cursor the server made pages on: two messages, one a page.
    const staff = await setup.app.services.auth.authenticate(
      tokens.staff.authorization.slice('Bearer '.length),
    );
    for (const text of ['first', 'second']) await setup.app.services.chat.send(staff, dossier.id, text);
    const first = await raw('GET', `/api/dossiers/${dossier.id}/messages?limit=1`);
    const next = (first.body as { before?: string | null }).before;
    expect(next).toBeTruthy();
    const good = await raw('GET', `/api/dossiers/${dossier.id}/messages?limit=1&before=${next}`);
    expect(good.status).toBe(200);
    expectFieldProblem(await raw('GET', `/api/dossiers/${dossier.id}/messages?limit=0x10`), 'limit');
  });
});

describe('malformed multipart bodies', () => {
  const fieldsPart = (boundary: string) =>
    Object.entries({ recordType: 'dossier', recordId: dossier.id, documentType: 'other' })
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('');

  it('answers 400/415 problem+json and writes nothing', async () => {
    const boundary = 'fvgBoundary';
    const pdf = minimalPdf('x');
    const full = Buffer.concat([
      Buffer.from(
        `${fieldsPart(boundary)}--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      pdf,
      Buffer.from('\r\n'),
    ]);
    const noBoundary = await raw('POST', '/api/documents', {
      body: full,
      contentType: 'multipart/form-data',
    });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.type).toMatch(/application\/problem\+json/);
    expect(String(noBoundary.body.detail)).toMatch(/boundary/i);

    const unclosed = await raw('POST', '/api/documents', {
      body: full,
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(unclosed.status).toBe(400);
    expect(unclosed.type).toMatch(/application\/problem\+json/);
    expect(String(unclosed.body.detail)).toMatch(/end|closing|incomplete/i);

    const notMultipart = await raw('POST', '/api/documents', { body: 'hello', contentType: 'text/plain' });
    expect(notMultipart.status).toBe(415);
    expect(notMultipart.type).toMatch(/application\/problem\+json/);

    const garbage = await raw('POST', '/api/documents', {
      body: 'not a multipart body at all',
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(garbage.status).toBe(400);
    expect(garbage.type).toMatch(/application\/problem\+json/);

    // A CSV import sent as multipart is refused as the wrong media type, not a 500.
    const csv = await raw('POST', '/api/container-events/import', {
      body: full,
      contentType: 'multipart/form-data',
    });
    expect(csv.status).toBe(415);
    expect(csv.type).toMatch(/application\/problem\+json/);

    expect(await db.db.selectFrom('documents').selectAll().execute()).toEqual([]);
    expect(await storedFiles()).toEqual([]);

    const closed = await raw('POST', '/api/documents', {
      body: Buffer.concat([full, Buffer.from(`--${boundary}--\r\n`)]),
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(201);
    expect(await storedFiles()).toHaveLength(1);
  });

  it('refuses a namespaced SVG upload like a plain one', async () => {
    const boundary = 'fvgSvg';
    const svg =
      '<?xml version="1.0"?>\n<!-- logo -->\n<x:svg xmlns:x="http://www.w3.org/2000/svg"><x:script>alert(1)</x:script></x:svg>';
    const body = `${fieldsPart(boundary)}--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="invoice.xml"\r\nContent-Type: application/xml\r\n\r\n${svg}\r\n--${boundary}--\r\n`;
    const res = await raw('POST', '/api/documents', {
      body,
      contentType: `multipart/form-data; boundary=${boundary}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(415);
    expect(res.body).toMatchObject({
      errors: [{ field: 'files.0', message: 'image/svg+xml is not accepted' }],
    });
    expect(
      await db.db.selectFrom('documents').where('file_name', '=', 'invoice.xml').selectAll().execute(),
    ).toEqual([]);
  });
});

describe("Fastify's own errors as problem+json", () => {
  it('answers a path that does not decode with 400 and an over-long parameter with 414', async () => {
    const bad = await raw('GET', '/api/parties/%zz');
    expect(bad.status).toBe(400);
    expect(bad.type).toMatch(/application\/problem\+json/);
    expect(bad.body).toMatchObject({ status: 400, instance: '/api/parties/%zz' });
    for (const url of [`/api/parties/${'a'.repeat(300)}`, `/api/dossiers/${'x'.repeat(5000)}/history`]) {
      const long = await raw('GET', url);
      expect(long.status, url.slice(0, 40)).toBe(414);
      expect(long.type).toMatch(/application\/problem\+json/);
      expect(long.body).toMatchObject({ status: 414 });
    }
  });

  it('maps a PostgreSQL data exception that slips through to 400, not 500', async () => {
    const probe = await buildApp({
      config: testConfig({ dataDir: setup.dataDir }),
      db: db.db,
      logger: false,
    });
    probe.get('/api/probe-22008', async () => {
      await sql`select '2026-02-30'::date`.execute(db.db);
      return {};
    });
    probe.get('/api/probe-22003', async () => {
      await sql`select 2147483648::int4`.execute(db.db);
      return {};
    });
    await probe.ready();
    for (const url of ['/api/probe-22008', '/api/probe-22003']) {
      const res = await probe.inject(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.json()).toMatchObject({
        status: 400,
        detail: expect.stringMatching(/out of range or malformed/),
      });
    }
    await probe.close();
  });
});

describe('limits on a real listening socket', () => {
  let listening: App;
  let port: number;
  beforeAll(async () => {
    listening = await createTestApp(db, { dataDir: setup.dataDir });
    await listening.listen({ port: 0, host: '127.0.0.1' });
    port = (listening.server.address() as AddressInfo).port;
  });
  afterAll(() => listening.close());

  function get(path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path, headers, maxHeaderSize: 128 * 1024 },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            body += c;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('answers a 16 KB query string with 414 problem+json', async () => {
    const res = await get(`/api/dossiers?q=${'a'.repeat(16 * 1024)}`);
    expect(res.status).toBe(414);
    expect(res.type).toMatch(/application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ status: 414 });
  });

  it('answers oversized headers with 431 problem+json', async () => {
    // Raw bytes: Node's client would refuse to send a header this large itself.
    const res = await new Promise<string>((resolve, reject) => {
      const socket = netConnect(port, '127.0.0.1', () => {
        socket.write(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(80 * 1024)}\r\n\r\n`);
      });
      let got = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => {
        got += c;
      });
      socket.on('end', () => resolve(got));
      socket.on('close', () => resolve(got));
      socket.on('error', (e) => (got ? resolve(got) : reject(e)));
    });
    expect(res).toMatch(/^HTTP\/1\.1 431 /);
    expect(res).toMatch(/content-type: application\/problem\+json/i);
    const body = JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 431, title: 'Request header fields too large' });
  });
});
