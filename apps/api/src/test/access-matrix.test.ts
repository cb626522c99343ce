/*
 * The access matrix, generated from the OpenAPI document: every operation × every kind of caller
 * (operations.ts says what each gets, once per operation), then the field-visibility rules over what
 * customers receive: records, lists, histories, exports (CSV and XLSX), cursors, and sorting or
 * filtering by a field they cannot see.
 *
 * A new endpoint needs an entry in operations.ts (see the header there); this file needs no change.
 * Every answer is checked the same way: never a 5xx, every non-2xx is problem+json, and nothing a
 * customer receives names another party's records or job costing (cost, revenue, profit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, unzip } from './helpers.ts';
import {
  type BuildContext,
  createWorld,
  OPERATIONS,
  type OpRequest,
  openApiOperations,
  ROLES,
  type Role,
  registryGaps,
  type Sent,
  type World,
} from './operations.ts';

let w: World;
beforeAll(async () => {
  w = await createWorld();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

/** Field names of job costing: null, empty or absent in anything a customer receives. */
const INTERNAL_FIELDS = new Set([
  'profit',
  'costTotal',
  'revenueTotal',
  'margin',
  'cost',
  'revenue',
  'baseAmount',
]);

/** What a customer of party A must never read: party B's ids and every party's internal figures. */
function forbiddenFor(world: World): Map<string, string> {
  const f = new Map<string, string>();
  for (const v of world.internalFigures) f.set(v, 'a job-costing figure');
  const b = world.B;
  for (const [k, v] of Object.entries({
    partyId: b.partyId,
    customerId: b.customerId,
    dossierId: b.dossierId,
    dossierNumber: b.dossierNumber,
    transportId: b.transportId,
    documentId: b.documentId,
    hiddenDocumentId: b.hiddenDocumentId,
    eventId: b.eventId,
    chatMessageId: b.chatMessageId,
  }))
    f.set(v, `party B's ${k}`);
  f.set(world.A.hiddenDocumentId, "party A's document hidden from its customer (id)");
  f.set(world.A.hiddenDocumentName, "party A's document hidden from its customer (name)");
  return f;
}

/** The readable text of an answer: JSON or CSV as is, an XLSX's parts unzipped. */
function textOf(res: Sent): string {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('spreadsheetml')) {
    return [...unzip(res.raw).values()].map((b) => b.toString('utf8')).join('\n');
  }
  if (/json|text|csv|xml/.test(type)) return res.text;
  return ''; // a file download (the document's own bytes)
}

/** Every leak in a customer's answer, described; empty when it holds. */
function leaks(world: World, res: Sent): string[] {
  const found: string[] = [];
  const text = textOf(res);
  for (const [needle, what] of forbiddenFor(world))
    if (text.includes(needle)) found.push(`${what} (${needle})`);
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${path}.${i}`);
      return;
    }
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Json)) {
      if (INTERNAL_FIELDS.has(k) && x !== null && x !== undefined)
        found.push(`${path}.${k} = ${JSON.stringify(x)}`);
      if (k === 'charges' && Array.isArray(x) && x.length)
        found.push(`${path}.charges has ${x.length} lines`);
      // An audit entry's change of an internal field (history of "charges changed").
      if (k === 'field' && typeof x === 'string' && (INTERNAL_FIELDS.has(x) || x === 'charges'))
        found.push(`${path} shows a change of ${x}`);
      walk(x, `${path}.${k}`);
    }
  };
  walk(res.json, '$');
  // Keyset cursors travel in answers: they must be sealed, not readable. A cursor that decodes to
  // text (JSON, a date, an amount) would carry its sort values to whoever holds it.
  for (const m of text.matchAll(/"nextCursor":"([^"]+)"/g)) {
    const decoded = Buffer.from(m[1] as string, 'base64url').toString('utf8');
    if (/^[\x20-\x7e]*$/.test(decoded)) found.push(`nextCursor is readable: ${decoded.slice(0, 80)}`);
    for (const [needle, what] of forbiddenFor(world))
      if (decoded.includes(needle)) found.push(`nextCursor carries ${what} (${needle})`);
  }
  return found;
}

/** The data rows of a CSV or XLSX export (the header row not counted). */
function dataRows(res: Sent): number {
  const text = textOf(res);
  if (String(res.headers['content-type']).includes('spreadsheetml'))
    return Math.max(0, (text.match(/<row /g) ?? []).length - 1);
  return Math.max(0, text.split('\r\n').filter(Boolean).length - 1);
}

/** Problems with the shape of an answer of any status; empty when it holds. */
function shapeProblems(res: Sent): string[] {
  const out: string[] = [];
  if (res.status >= 500) out.push(`answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status >= 400) {
    const type = String(res.headers['content-type'] ?? '');
    if (!type.startsWith('application/problem+json'))
      out.push(`a ${res.status} that is not problem+json (${type})`);
    const p = res.json as Json | undefined;
    if (!p || p.status !== res.status || typeof p.title !== 'string')
      out.push(`a problem without status/title: ${res.text.slice(0, 200)}`);
  }
  return out;
}

async function call(key: string, role: Role, over?: (r: OpRequest) => OpRequest) {
  const [method, path] = key.split(' ') as [string, string];
  const entry = OPERATIONS[key];
  if (!entry) throw new Error(`operation ${key} has no entry in operations.ts`);
  const ctx: BuildContext = { world: w, owner: role === 'customerOther' ? 'B' : 'A', role };
  const req = await entry.build(ctx);
  return w.send(method, path, over ? over(req) : req, w.authFor(role));
}

const isCustomer = (role: Role) => role === 'customerOwn' || role === 'customerOther';

describe('the registry', () => {
  it('has an entry for every operation of the OpenAPI document, and none for a removed one', () => {
    const { missing, stale } = registryGaps(w.app);
    expect(missing).toEqual([]);
    expect(stale).toEqual([]);
    expect(openApiOperations(w.app).length).toBe(Object.keys(OPERATIONS).length);
  });
});

describe('access matrix', () => {
  it.each(Object.keys(OPERATIONS))('%s', async (key) => {
    const entry = OPERATIONS[key] as (typeof OPERATIONS)[string];
    const failures: string[] = [];
    for (const role of ROLES) {
      const res = await call(key, role);
      const expected = entry.expect[role];
      if (res.status !== expected)
        failures.push(`${role}: expected ${expected}, got ${res.status} ${res.text.slice(0, 200)}`);
      for (const p of shapeProblems(res)) failures.push(`${role}: ${p}`);
      if (isCustomer(role) && res.status < 300)
        for (const l of leaks(w, res)) failures.push(`${role} sees ${l}`);
    }
    expect(failures).toEqual([]);
  });
});

/** List operations: a GET without path parameters whose query takes `pageSize` (or `limit`). */
function listOperations(param: string) {
  return openApiOperations(w.app)
    .filter((o) => o.method === 'GET')
    .filter((o) =>
      ((o.op.parameters as { name: string; in: string }[] | undefined) ?? []).some(
        (p) => p.in === 'query' && p.name === param,
      ),
    )
    .map((o) => o.key);
}

describe('field visibility for customers', () => {
  it('exports (CSV and XLSX) carry neither job costing nor another party’s records', async () => {
    const exporting = listOperations('format');
    expect(exporting.length).toBeGreaterThan(3);
    const failures: string[] = [];
    for (const key of exporting) {
      for (const role of ['customerOwn', 'customerOther'] as const) {
        for (const format of ['csv', 'xlsx']) {
          const res = await call(key, role, (r) => ({ ...r, query: { ...(r.query ?? {}), format } }));
          for (const p of shapeProblems(res)) failures.push(`${key} ${role} ${format}: ${p}`);
          const listStatus = OPERATIONS[key]?.expect[role];
          // An export of what the list would not find may be an empty file instead of the 404.
          if (res.status !== listStatus && !(listStatus === 404 && res.status === 200 && dataRows(res) === 0))
            failures.push(
              `${key} ${role} ${format}: status ${res.status} (${dataRows(res)} rows), the list answers ${listStatus}`,
            );
          if (res.status === 200) {
            expect(String(res.headers['content-type'])).toMatch(
              format === 'csv' ? /text\/csv/ : /spreadsheetml/,
            );
            for (const l of leaks(w, res)) failures.push(`${key} ${role} ${format} carries ${l}`);
          }
        }
      }
    }
    // The same export as staff does carry the figures: the check above can see them when they are there.
    const staffCsv = await call('GET /api/dossiers', 'staff', (r) => ({
      ...r,
      query: { ...(r.query ?? {}), format: 'csv' },
    }));
    expect(w.internalFigures.some((f) => staffCsv.text.includes(f))).toBe(true);
    expect(failures).toEqual([]);
  });

  it('refuses sorting and filtering by a field the customer cannot see (400 on that parameter)', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const [key, entry] of Object.entries(OPERATIONS)) {
      const plain: Record<string, string>[] = [
        ...(entry.hiddenSort ?? []).map((sort) => ({ sort })),
        ...Object.entries(entry.hiddenFilters ?? {}).map(([k, v]) => ({ [k]: v })),
      ];
      // The export of the list sorts and filters the same way: it must refuse the same.
      const exports = listOperationTakes(key, 'format') ? plain.map((t) => ({ ...t, format: 'csv' })) : [];
      const tries = [...plain, ...exports];
      for (const extra of tries) {
        cases++;
        const field = Object.keys(extra)[0] as string;
        const res = await call(key, 'customerOwn', (r) => ({
          ...r,
          query: { ...(r.query ?? {}), ...extra },
        }));
        const fields = ((res.json as Json | undefined)?.errors as { field: string }[] | undefined)?.map(
          (e) => e.field,
        );
        if (res.status !== 400 || !fields?.includes(field))
          failures.push(`${key} ${JSON.stringify(extra)}: ${res.status} ${res.text.slice(0, 200)}`);
        for (const p of shapeProblems(res)) failures.push(`${key}: ${p}`);
        // Staff may: the refusal is about who asks, not a broken sort.
        const staff = await call(key, 'staff', (r) => ({ ...r, query: { ...(r.query ?? {}), ...extra } }));
        if (staff.status !== 200) failures.push(`${key} ${JSON.stringify(extra)} as staff: ${staff.status}`);
      }
    }
    expect(cases).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });

  it('pages a customer through every keyset list with cursors that reveal nothing, in every sort they may use', async () => {
    const failures: string[] = [];
    let followed = 0;
    for (const key of listOperations('cursor')) {
      const [method, path] = key.split(' ') as [string, string];
      const base = await OPERATIONS[key]?.build({ world: w, owner: 'A', role: 'customerOwn' });
      const sorts = [undefined, ...(OPERATIONS[key]?.hiddenSort ?? [])];
      for (const sort of sorts) {
        const query: Record<string, string> = { ...(base?.query ?? {}), pageSize: '1', limit: '1' };
        delete query.q;
        if (!listOperationTakes(key, 'limit')) delete query.limit;
        if (!listOperationTakes(key, 'pageSize')) delete query.pageSize;
        if (sort) query.sort = sort;
        else delete query.sort;
        // Three pages: the first and the ones its cursors lead to.
        for (let page = 0; page < 3; page++) {
          const res = await w.send(method, path, { ...base, query }, w.A.customer);
          for (const p of shapeProblems(res)) failures.push(`${key} sort=${sort}: ${p}`);
          if (res.status !== 200) break;
          for (const l of leaks(w, res)) failures.push(`${key} sort=${sort} page ${page + 1}: ${l}`);
          const next = (res.json as Json).nextCursor;
          if (typeof next !== 'string') break;
          followed++;
          query.cursor = next;
        }
      }
    }
    // The customer has several dossiers, documents and legs: some list gave them a next page.
    expect(followed).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });

  it('a booking naming another party’s container captures none of its events', async () => {
    // Party A's customer books a transport naming party B's container (a request, not confirmed).
    const booking = await call('POST /api/dossiers/bookings', 'customerOther');
    expect(booking.status).toBe(201);
    const bookingId = (booking.json as Json).id as string;
    // A new carrier event for that container arrives afterwards.
    const eventId = await w.freshEvent(w.B.containerNumber);
    const asA = [
      await w.send('GET', '/api/containers', { query: { q: w.B.containerNumber } }, w.A.customer),
      await w.send(
        'GET',
        '/api/containers/{containerNumber}/events',
        { path: { containerNumber: w.B.containerNumber } },
        w.A.customer,
      ),
      await w.send('GET', '/api/dossiers/{id}/events', { path: { id: bookingId } }, w.A.customer),
      await w.send('GET', '/api/container-events/{id}', { path: { id: eventId } }, w.A.customer),
    ];
    const failures: string[] = [];
    for (const res of asA) {
      for (const p of shapeProblems(res)) failures.push(p);
      if (res.status === 200 && res.text.includes(eventId))
        failures.push(`customer A sees the event: ${res.text.slice(0, 200)}`);
      for (const l of leaks(w, res)) failures.push(`customer A sees ${l}`);
    }
    // Party B's own dossier still gets it.
    const own = await w.send(
      'GET',
      '/api/dossiers/{id}/events',
      { path: { id: w.B.dossierId } },
      w.B.customer,
    );
    expect(own.status).toBe(200);
    if (!own.text.includes(eventId)) failures.push("party B's dossier lost the new event of its container");
    expect(failures).toEqual([]);
  });
});

function listOperationTakes(key: string, param: string): boolean {
  const op = openApiOperations(w.app).find((o) => o.key === key)?.op;
  return ((op?.parameters as { name: string; in: string }[] | undefined) ?? []).some(
    (p) => p.in === 'query' && p.name === param,
  );
}
