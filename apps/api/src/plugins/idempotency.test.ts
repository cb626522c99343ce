import { describe, expect, it } from 'vitest';
import { usersService } from '../features/users/users.service.ts';
import { apiTest } from '../test/api-test.ts';
import { bearer, type Json } from '../test/helpers.ts';
import { purgeIdempotencyKeys } from './idempotency.ts';

const setup = apiTest();
const { db, admin, staff, partyId } = setup;
type Auth = { authorization: string };

let refs = 0;
/** A dossier body with a customer reference of its own, so each test counts only its own dossiers. */
function dossier(reference: string, over: Json = {}): Json {
  return {
    type: 'export',
    mode: 'sea',
    customerId: partyId.ACME,
    incoterm: 'FOB',
    originLocode: 'NLRTM',
    destinationLocode: 'CNSHA',
    etd: '2026-12-01',
    eta: '2026-12-30',
    customerReference: reference,
    cargoDescription: 'Machine parts',
    packages: 12,
    grossWeightKg: '10450.5',
    containers: [],
    ...over,
  };
}
const newReference = () => `IDEM-${++refs}-${Date.now()}`;

async function post(url: string, auth: Auth, key: string | undefined, payload: Json) {
  const res = await setup.app.inject({
    method: 'POST',
    url: `/api${url}`,
    headers: { ...auth, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload,
  });
  return { status: res.statusCode, headers: res.headers, raw: res.body, body: res.json() as Json };
}

async function dossiersWithReference(reference: string): Promise<number> {
  const rows = await db.db
    .selectFrom('dossiers')
    .select('id')
    .where('customer_reference', '=', reference)
    .execute();
  return rows.length;
}

describe('Idempotency-Key on POST', () => {
  it('answers a retry with the first answer (status, body, headers) and creates one dossier', async () => {
    const ref = newReference();
    const first = await post('/dossiers', staff, 'retry-1', dossier(ref));
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('/dossiers', staff, 'retry-1', dossier(ref));
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.raw).toBe(first.raw);
    expect(await dossiersWithReference(ref)).toBe(1);
    // Without a key nothing changes: a second POST is a second dossier.
    expect((await post('/dossiers', staff, undefined, dossier(ref))).status).toBe(201);
    expect(await dossiersWithReference(ref)).toBe(2);
  });

  it('gives five concurrent requests with one key one dossier and the same answer', async () => {
    const ref = newReference();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post('/dossiers', staff, 'concurrent-1', dossier(ref))),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.raw)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(await dossiersWithReference(ref)).toBe(1);
  });

  it('refuses the same key with another body or on another path (422 on Idempotency-Key)', async () => {
    const ref = newReference();
    expect((await post('/dossiers', staff, 'reused-1', dossier(ref))).status).toBe(201);
    const other = await post('/dossiers', staff, 'reused-1', dossier(ref, { packages: 13 }));
    expect(other.status).toBe(422);
    expect(other.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(other.body.errors).toEqual([
      { field: 'Idempotency-Key', message: expect.stringMatching(/another request/) },
    ]);
    const elsewhere = await post(
      '/dossiers/00000000-0000-4000-8000-000000000000/transitions',
      staff,
      'reused-1',
      {
        to: 'in_transit',
        version: 1,
        atd: '2026-01-05',
      },
    );
    expect(elsewhere.status).toBe(422);
    expect(await dossiersWithReference(ref)).toBe(1);
  });

  it('keeps the keys of different users apart', async () => {
    const ref = newReference();
    const byStaff = await post('/dossiers', staff, 'shared-key', dossier(ref));
    const byAdmin = await post('/dossiers', admin, 'shared-key', dossier(ref));
    expect([byStaff.status, byAdmin.status]).toEqual([201, 201]);
    expect(byAdmin.headers['idempotent-replayed']).toBeUndefined();
    expect(byAdmin.body.id).not.toBe(byStaff.body.id);
    expect(await dossiersWithReference(ref)).toBe(2);
  });

  it('never replays an answer made under other rights: staff made a customer get no staff answer back', async () => {
    const email = `demoted-${Date.now()}@fvg.test`;
    const user = await usersService(db.db).create({ email, password: 'Harbour-Crane-7319', role: 'staff' });
    const auth = await bearer(setup.app, email, 'Harbour-Crane-7319');
    const ref = newReference();
    const first = await post('/dossiers', auth, 'demotion-key', dossier(ref));
    expect(first.status).toBe(201);
    await db.db
      .updateTable('users')
      .set({ role: 'customer', party_id: partyId.ACME })
      .where('id', '=', user.id)
      .execute();
    const retry = await post('/dossiers', auth, 'demotion-key', dossier(ref));
    expect(retry.status).toBe(422);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.raw).not.toContain(String(first.body.id));
    expect(await dossiersWithReference(ref)).toBe(1);
  });

  it('validates the key: 1 to 255 visible ASCII characters, else 400 on Idempotency-Key', async () => {
    const ref = newReference();
    for (const key of ['', 'has space', 'x'.repeat(256), 'tab\tkey', 'ümlaut']) {
      const r = await post('/dossiers', staff, key, dossier(ref));
      expect(r.status, JSON.stringify(key)).toBe(400);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
      expect((r.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['Idempotency-Key']);
    }
    expect((await post('/dossiers', staff, 'x'.repeat(255), dossier(ref))).status).toBe(201);
    expect(await dossiersWithReference(ref)).toBe(1);
  });

  it('keeps no key for a refused body, so the corrected retry runs with the same key', async () => {
    const ref = newReference();
    const bad = await post('/dossiers', staff, 'fix-and-retry', dossier(ref, { packages: -1 }));
    expect(bad.status).toBe(400);
    const good = await post('/dossiers', staff, 'fix-and-retry', dossier(ref));
    expect(good.status).toBe(201);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
    expect(await dossiersWithReference(ref)).toBe(1);
  });

  it('replays a stored client error too (same status and problem)', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const body = { to: 'in_transit', version: 1, atd: '2026-01-05' };
    const first = await post(`/dossiers/${missing}/transitions`, staff, 'error-1', body);
    expect(first.status).toBe(404);
    const again = await post(`/dossiers/${missing}/transitions`, staff, 'error-1', body);
    expect(again.status).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.raw).toBe(first.raw);
  });

  it('answers 409 when the first request with the key never finished (its server died mid-request)', async () => {
    const ref = newReference();
    expect((await post('/dossiers', staff, 'died-1', dossier(ref))).status).toBe(201);
    // What a SIGKILL between claiming the key and answering leaves: the claim without an answer.
    await db.db
      .updateTable('idempotency_keys')
      .set({ status: null, body: null, headers: null, created_at: new Date(Date.now() - 3 * 60_000) })
      .where('key', '=', 'died-1')
      .execute();
    const retry = await post('/dossiers', staff, 'died-1', dossier(ref));
    expect(retry.status).toBe(409);
    expect(retry.headers['content-type']).toMatch(/application\/problem\+json/);
    expect((retry.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['Idempotency-Key']);
    expect(await dossiersWithReference(ref)).toBe(1);
  });

  it('forgets keys after 24 hours: the purge deletes them and an old key creates anew', async () => {
    const ref = newReference();
    expect((await post('/dossiers', staff, 'old-key', dossier(ref))).status).toBe(201);
    expect((await post('/dossiers', staff, 'older-key', dossier(ref))).status).toBe(201);
    const age = async (key: string, hours: number) =>
      db.db
        .updateTable('idempotency_keys')
        .set({ created_at: new Date(Date.now() - hours * 3600_000) })
        .where('key', '=', key)
        .execute();
    await age('old-key', 25);
    await age('older-key', 23);
    // An expired key is a new key even before the purge has run.
    const reused = await post('/dossiers', staff, 'old-key', dossier(ref, { packages: 3 }));
    expect(reused.status).toBe(201);
    expect(reused.headers['idempotent-replayed']).toBeUndefined();
    expect(await dossiersWithReference(ref)).toBe(3);

    await age('old-key', 25);
    expect(await purgeIdempotencyKeys(db.db)).toBeGreaterThanOrEqual(1);
    const left = await db.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', ['old-key', 'older-key'])
      .execute();
    expect(left.map((r) => r.key)).toEqual(['older-key']);
  });

  it('keeps no answer of a route that opts out (a secret shown once)', async () => {
    const create = () => post('/integration-keys', admin, 'key-once', { name: 'Feed A' });
    const [a, b] = [await create(), await create()];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.key).not.toBe(a.body.key);
    const stored = await db.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', 'key-once')
      .execute();
    expect(stored).toEqual([]);
  });

  it('does not apply to sign-in, and documents the header on the POSTs it covers', async () => {
    const signIn = () =>
      setup.app.inject({
        method: 'POST',
        url: '/api/auth/access_token',
        headers: { 'idempotency-key': 'sign-in-key' },
        payload: { email: 'staff@fvg.local', password: 'staff-demo-2026' },
      });
    const [a, b] = [await signIn(), await signIn()];
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();

    const doc = (await setup.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const hasKey = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.parameters ?? []).some(
        (p) => p.in === 'header' && p.name === 'Idempotency-Key',
      );
    expect(hasKey('/api/dossiers', 'post')).toBe(true);
    expect(hasKey('/api/dossiers/bookings', 'post')).toBe(true);
    expect(hasKey('/api/auth/access_token', 'post')).toBe(false);
    expect(hasKey('/api/documents', 'post')).toBe(false);
    expect(hasKey('/api/integration-keys', 'post')).toBe(false);
    expect(hasKey('/api/dossiers', 'get')).toBe(false);
  });
});
