import { randomUUID } from 'node:crypto';
import type { ContainerEvent, RecordChanged } from '@fvg/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { seedContainerEvents } from './container-events.repository.ts';
import { annotateTimeline } from './container-events.service.ts';
import { gateIn } from './test-support.ts';

const setup = apiTest();
const { db, admin, staff, acme, globex, partyId } = setup;
type Auth = { authorization: string };
/** Changes the bus carried, for the live-refresh assertions. */
const published: (RecordChanged & { partyIds?: string[] })[] = [];
beforeAll(async () => {
  setup.app.services.events.subscribe((c) => published.push(c));
});

type Json = Record<string, unknown>;
async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string> | undefined,
  payload?: unknown,
  contentType?: string,
) {
  const res = await setup.app.inject({
    method,
    url: `/api${url}`,
    headers: { ...(headers ?? {}), ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload !== undefined ? { payload: payload as string } : {}),
  });
  const isJson = /json/.test(String(res.headers['content-type'] ?? ''));
  return {
    status: res.statusCode,
    body: isJson ? (res.json() as Json) : {},
    headers: res.headers,
    raw: res.body,
  };
}
const fields = (body: Json) => ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);

/** ISO 6346 check digit, to make valid container numbers in tests. */
function containerNumber(owner: string, serial: number): string {
  const body = `${owner}${String(serial).padStart(6, '0')}`;
  const values: Record<string, number> = {};
  let v = 10;
  for (let c = 65; c <= 90; c++) {
    if (v % 11 === 0) v++;
    values[String.fromCharCode(c)] = v++;
  }
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const ch = body[i] as string;
    sum += (/\d/.test(ch) ? Number(ch) : (values[ch] as number)) * 2 ** i;
  }
  return `${body}${(sum % 11) % 10}`;
}

function arrival(over: Json = {}): Json {
  return {
    eventID: randomUUID(),
    eventType: 'TRANSPORT',
    eventClassifierCode: 'EST',
    eventDateTime: '2026-03-20T08:00:00Z',
    eventCreatedDateTime: '2026-03-02T10:00:00Z',
    transportEventTypeCode: 'ARRI',
    transportCall: {
      modeOfTransport: 'VESSEL',
      UNLocationCode: 'CNSHA',
      carrierVoyageNumber: '2103S',
      vessel: { vesselIMONumber: '9321483', vesselName: 'King of the Seas' },
    },
    ...over,
  };
}

async function newKey(name = 'Terminal feed'): Promise<{ id: string; key: string }> {
  const r = await call('POST', '/integration-keys', admin, { name });
  expect(r.status).toBe(201);
  return { id: r.body.id as string, key: r.body.key as string };
}

async function newDossier(over: Json = {}): Promise<Json> {
  const r = await call('POST', '/dossiers', staff, {
    type: 'import',
    mode: 'sea',
    customerId: partyId.ACME,
    originLocode: 'CNSHA',
    destinationLocode: 'NLRTM',
    ...over,
  });
  expect(r.status, r.raw).toBe(201);
  return r.body;
}

let key: string;
beforeAll(async () => {
  key = (await newKey()).key;
});
const withKey = () => ({ 'x-api-key': key });

describe('integration API keys', () => {
  it('shows a new key once, stores only its SHA-256, and lists keys without secrets (admin only)', async () => {
    const created = await call('POST', '/integration-keys', admin, { name: 'ECT Delta gate feed' });
    expect(created.status).toBe(201);
    const secret = created.body.key as string;
    expect(secret).toMatch(/^fvg_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      name: 'ECT Delta gate feed',
      prefix: secret.slice(0, 12),
      createdBy: { name: 'Ada Admin' },
      revokedAt: null,
    });
    const stored = await db.db
      .selectFrom('integration_api_keys')
      .selectAll()
      .where('id', '=', created.body.id as string)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(secret.slice(4));
    const { createHash } = await import('node:crypto');
    expect(stored.key_hash).toBe(createHash('sha256').update(secret).digest('hex'));

    const list = await call('GET', '/integration-keys', admin);
    expect(list.status).toBe(200);
    expect(list.raw).not.toContain(secret.slice(4));
    expect((list.body as unknown as { name: string }[]).map((k) => k.name)).toContain('ECT Delta gate feed');
    expect((await call('GET', '/integration-keys', staff)).status).toBe(403);
    expect((await call('POST', '/integration-keys', staff, { name: 'x' })).status).toBe(403);
    expect((await call('POST', '/integration-keys', acme, { name: 'x' })).status).toBe(403);
    const bad = await call('POST', '/integration-keys', admin, { name: ' ' });
    expect(fields(bad.body)).toEqual(['name']);
  });

  it('answers 401 without a key, with a wrong or revoked key; a created key works at once, in either header', async () => {
    const event = () => gateIn(containerNumber('KEYU', 1));
    const none = await call('POST', '/container-events', undefined, event());
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toMatch(/problem\+json/);
    expect(none.headers['www-authenticate']).toMatch(/ApiKey/);
    expect((await call('POST', '/container-events', { 'x-api-key': 'nope' }, event())).status).toBe(401);
    const forged = `fvg_${'A'.repeat(43)}`;
    expect((await call('POST', '/container-events', { 'x-api-key': forged }, event())).status).toBe(401);

    const { id, key: fresh } = await newKey('Short-lived');
    expect((await call('POST', '/container-events', { 'x-api-key': fresh }, event())).status).toBe(201);
    expect(
      (await call('POST', '/container-events', { authorization: `ApiKey ${fresh}` }, event())).status,
    ).toBe(201);
    const used = (await call('GET', '/integration-keys', admin)).body as unknown as {
      id: string;
      lastUsedAt: string | null;
    }[];
    expect(used.find((k) => k.id === id)?.lastUsedAt).not.toBeNull();

    expect((await call('DELETE', `/integration-keys/${id}`, staff)).status).toBe(403);
    expect((await call('DELETE', `/integration-keys/${id}`, admin)).status).toBe(204);
    const revoked = await call('POST', '/container-events', { 'x-api-key': fresh }, event());
    expect(revoked.status).toBe(401);
    expect(revoked.body.detail).toMatch(/not valid or has been revoked/);
    expect((await call('DELETE', `/integration-keys/${id}`, admin)).status).toBe(204);
    expect((await call('DELETE', `/integration-keys/${randomUUID()}`, admin)).status).toBe(404);
    const listed = (await call('GET', '/integration-keys', admin)).body as unknown as {
      id: string;
      revokedAt: string;
    }[];
    expect(listed.find((k) => k.id === id)?.revokedAt).toBeTruthy();
    const history = await db.db
      .selectFrom('audit_log')
      .select('action')
      .where('record_kind', '=', 'integration-key')
      .where('record_id', '=', id)
      .orderBy('id')
      .execute();
    expect(history.map((h) => h.action)).toEqual(['created', 'revoked']);
  });

  it('lets staff post events by hand with their token (source manual); customers may not', async () => {
    const mine = await call('POST', '/container-events', staff, gateIn(containerNumber('MANU', 1)));
    expect(mine.status).toBe(201);
    const row = await db.db
      .selectFrom('container_events')
      .select(['source', 'created_by', 'api_key_id'])
      .where('id', '=', (mine.body.results as { id: string }[])[0]?.id as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'manual', api_key_id: null });
    expect(row.created_by).toBeTruthy();
    expect((await call('POST', '/container-events', acme, gateIn(containerNumber('MANU', 2)))).status).toBe(
      403,
    );
    expect(
      (await call('POST', '/container-events', { authorization: 'Bearer garbage' }, gateIn('MSKU6011672')))
        .status,
    ).toBe(401);
  });
});

describe('ingest', () => {
  it('is idempotent by eventID: the same batch again answers duplicates and stores nothing', async () => {
    const c = containerNumber('IDMU', 1);
    const batch = [
      gateIn(c),
      gateIn(c, { equipmentEventTypeCode: 'LOAD', eventDateTime: '2026-03-02T10:00:00Z' }),
      arrival({ references: [{ referenceType: 'EQ', referenceValue: c }] }),
    ];
    const first = await call('POST', '/container-events', withKey(), batch);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: 3, duplicates: 0, invalid: 0 });
    const count = async () =>
      Number(
        (
          await db.db
            .selectFrom('container_events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const summary = await db.db
      .selectFrom('container_summaries')
      .selectAll()
      .where('equipment_reference', '=', c)
      .execute();
    const again = await call('POST', '/container-events', withKey(), batch);
    expect(again.body).toMatchObject({ created: 0, duplicates: 3, invalid: 0 });
    expect((again.body.results as { status: string }[]).map((r) => r.status)).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await count()).toBe(before);
    // eventIDs ignore case; a single duplicate answers 200 instead of 201.
    const upper = await call('POST', '/container-events', withKey(), {
      ...batch[0],
      eventID: String(batch[0]?.eventID).toUpperCase(),
    });
    expect(upper.status).toBe(200);
    expect(upper.body).toMatchObject({ created: 0, duplicates: 1 });
    expect(
      await db.db
        .selectFrom('container_summaries')
        .selectAll()
        .where('equipment_reference', '=', c)
        .execute(),
    ).toEqual(summary);
    // The same event twice in one batch: the first is stored, the second is its duplicate.
    const twice = gateIn(c, {
      equipmentEventTypeCode: 'DISC',
      eventDateTime: '2026-03-21T10:00:00Z',
      eventCreatedDateTime: '2026-03-21T10:00:00Z',
    });
    const dup = await call('POST', '/container-events', withKey(), [twice, twice]);
    expect((dup.body.results as { status: string }[]).map((r) => r.status)).toEqual(['created', 'duplicate']);
  });

  it('stores the valid events of a batch and reports the invalid ones with their field paths', async () => {
    const c = containerNumber('MIXU', 1);
    const r = await call('POST', '/container-events', withKey(), [
      gateIn(c),
      gateIn(c, { emptyIndicatorCode: undefined }),
      arrival({ transportCall: undefined }),
      gateIn(c, { transportCall: { modeOfTransport: 'TRUCK', UNLocationCode: 'XXRTM' }, colour: 'red' }),
      'not an event',
      gateIn('MSKU6011673'),
      arrival(),
    ]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 2, duplicates: 0, invalid: 5 });
    const results = r.body.results as {
      index: number;
      status: string;
      errors?: { field: string; message: string }[];
    }[];
    expect(results.map((x) => x.status)).toEqual([
      'created',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'created',
    ]);
    expect(results[1]?.errors).toEqual([
      { field: 'emptyIndicatorCode', message: 'emptyIndicatorCode is required' },
    ]);
    expect(results[2]?.errors).toEqual([{ field: 'transportCall', message: 'transportCall is required' }]);
    expect(results[3]?.errors?.map((e) => e.field).sort()).toEqual([
      'colour',
      'transportCall.UNLocationCode',
    ]);
    expect(results[4]?.errors?.[0]?.field).toBe('body');
    // The rule's stable code and its details travel with the message, for clients to word it.
    expect(results[5]?.errors).toEqual([
      {
        field: 'equipmentReference',
        message: expect.stringMatching(/check digit: MSKU601167 needs 2/),
        code: 'container_check_digit',
        params: { expected: 2 },
      },
    ]);
  });

  it('answers a single invalid event with 400 problem+json and field paths', async () => {
    const r = await call(
      'POST',
      '/container-events',
      withKey(),
      gateIn('MSKU6011672', { emptyIndicatorCode: 'FULL', colour: 1 }),
    );
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/problem\+json/);
    expect(fields(r.body).sort()).toEqual(['colour', 'emptyIndicatorCode']);
    expect(r.body.detail).toMatch(/emptyIndicatorCode/);
    expect((await call('POST', '/container-events', withKey(), [])).status).toBe(400);
    const tooMany = await call(
      'POST',
      '/container-events',
      withKey(),
      Array.from({ length: 1001 }, () => ({})),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ field: 'body', message: expect.stringMatching(/At most 1000/) }]);
    const text = await call('POST', '/container-events', withKey(), '"just text"', 'application/json');
    expect(text.status).toBe(400);
  });

  it('stores each event once when the same batch arrives twice at the same time', async () => {
    const batch = Array.from({ length: 50 }, (_, i) => gateIn(containerNumber('RACU', i % 7)));
    const [a, b] = await Promise.all([
      call('POST', '/container-events', withKey(), batch),
      call('POST', '/container-events', withKey(), [...batch].reverse()),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((a.body.created as number) + (b.body.created as number)).toBe(50);
    expect((a.body.duplicates as number) + (b.body.duplicates as number)).toBe(50);
    const counts = await db.db
      .selectFrom('container_summaries')
      .select((eb) => eb.fn.sum<number>('event_count').as('n'))
      .where('equipment_reference', 'like', 'RACU%')
      .executeTakeFirstOrThrow();
    expect(Number(counts.n)).toBe(50);
  });

  it('accepts a batch of 500 events in one request', async () => {
    const batch = Array.from({ length: 500 }, (_, i) =>
      gateIn(containerNumber('BULU', i), {
        eventDateTime: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      }),
    );
    const t0 = performance.now();
    const r = await call('POST', '/container-events', withKey(), batch);
    const ms = performance.now() - t0;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 500, duplicates: 0, invalid: 0 });
    expect(ms).toBeLessThan(10_000);
    const summaries = await db.db
      .selectFrom('container_summaries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('equipment_reference', 'like', 'BULU%')
      .executeTakeFirstOrThrow();
    expect(Number(summaries.n)).toBe(500);
  });
});

describe('linking to dossiers', () => {
  // The old rule ("the most recently updated open dossier wins") was the defect of issue 9: several
  // equal claims now link to none, whichever dossier changed last.
  it('links by container number, by BL and by booking; a BL match before a container match; several equal claims link none', async () => {
    const c = containerNumber('LNKU', 1);
    const first = await newDossier({ containers: [{ number: c }] });
    const cancelled = await newDossier({ containers: [{ number: c }] });
    await call('POST', `/dossiers/${cancelled.id}/transitions`, staff, { to: 'cancelled', version: 1 });
    const byContainer = await call('POST', '/container-events', withKey(), gateIn(c));
    const id = (byContainer.body.results as { id: string }[])[0]?.id;
    expect((await call('GET', `/container-events/${id}`, staff)).body.dossier).toEqual({
      id: first.id,
      number: first.number,
    });
    // A second active dossier names it: neither captures, however recently either changed.
    const second = await newDossier({ containers: [{ number: c }] });
    await call('PATCH', `/dossiers/${first.id}`, staff, { version: 1, packages: 3 });
    const next = await call(
      'POST',
      '/container-events',
      withKey(),
      gateIn(c, { equipmentEventTypeCode: 'LOAD' }),
    );
    const nextId = (next.body.results as { id: string }[])[0]?.id;
    expect((await call('GET', `/container-events/${nextId}`, staff)).body.dossier).toBeNull();
    const unlinked = await call('GET', `/container-events/unlinked?q=${c}`, staff);
    expect(unlinked.body.items).toMatchObject([
      {
        id: nextId,
        reason: 'ambiguous',
        suggestedDossier: null,
        candidates: [first, second]
          .sort((a, b) => String(a.number).localeCompare(String(b.number)))
          .map((d) => ({ id: d.id, number: d.number, customer: { code: 'ACME' } })),
      },
    ]);

    const byBl = await newDossier({ masterBl: 'MAEU-LINK-42', containers: [{ number: c }] });
    await call('PATCH', `/dossiers/${second.id}`, staff, { version: 1, packages: 9 }); // updated last, but no BL
    const bl = await call(
      'POST',
      '/container-events',
      withKey(),
      gateIn(c, {
        equipmentEventTypeCode: 'DISC',
        documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'maeu-link-42' }],
      }),
    );
    const blId = (bl.body.results as { id: string }[])[0]?.id;
    expect(((await call('GET', `/container-events/${blId}`, staff)).body.dossier as Json).id).toBe(byBl.id);

    const booked = await newDossier({ bookingNumber: 'BKG-777' });
    const vessel = await call(
      'POST',
      '/container-events',
      withKey(),
      arrival({ references: [{ referenceType: 'BKG', referenceValue: 'bkg-777' }] }),
    );
    const vesselId = (vessel.body.results as { id: string }[])[0]?.id;
    expect(((await call('GET', `/container-events/${vesselId}`, staff)).body.dossier as Json).id).toBe(
      booked.id,
    );
  });

  it('lists unlinked events for staff with a suggestion, and links by hand with an audit entry', async () => {
    const c = containerNumber('UNLU', 1);
    const sent = await call('POST', '/container-events', withKey(), [
      gateIn(c),
      gateIn(c, { equipmentEventTypeCode: 'LOAD', eventDateTime: '2026-03-02T08:00:00Z' }),
    ]);
    const [first, second] = (sent.body.results as { id: string }[]).map((r) => r.id);
    const unlinked = await call('GET', `/container-events/unlinked?q=${c.slice(0, 6)}`, staff);
    expect(unlinked.status).toBe(200);
    const items = unlinked.body.items as Json[];
    expect(items.map((i) => i.id).sort()).toEqual([first, second].sort());
    for (const i of items)
      expect(i).toMatchObject({ reason: 'unmatched', suggestedDossier: null, candidates: [], dossier: null });
    expect((await call('GET', '/container-events/unlinked', acme)).status).toBe(403);

    // A dossier that lists the container now: suggested, not linked automatically.
    const d = await newDossier({ containers: [{ number: c }] });
    const suggested = await call('GET', `/container-events/unlinked?q=${c}`, staff);
    expect((suggested.body.items as Json[])[0]).toMatchObject({
      reason: 'matched',
      suggestedDossier: { id: d.id, number: d.number },
      candidates: [{ id: d.id, number: d.number, customer: { id: partyId.ACME, code: 'ACME' } }],
    });

    expect((await call('POST', `/container-events/${first}/link`, acme, { dossierId: d.id })).status).toBe(
      403,
    );
    const none = await call('POST', `/container-events/${first}/link`, staff, { dossierId: randomUUID() });
    expect(none.status).toBe(400);
    expect(fields(none.body)).toEqual(['dossierId']);
    expect(
      (await call('POST', `/container-events/${randomUUID()}/link`, staff, { dossierId: d.id })).status,
    ).toBe(404);

    const linked = await call('POST', `/container-events/${first}/link`, staff, { dossierId: d.number });
    expect(linked.status).toBe(200);
    expect((linked.body.linked as { id: string; dossier: Json }[]).map((e) => [e.id, e.dossier.id])).toEqual([
      [first, d.id],
    ]);
    expect(linked.body.leftUnlinked).toBe(1);
    const history = await call('GET', `/container-events/${first}/history`, staff);
    expect((history.body as unknown as Json[])[0]).toMatchObject({
      action: 'linked',
      actor: { name: 'Sam Staff' },
      changes: [{ field: 'dossier', from: null, to: d.number }],
    });
    const rest = await call('GET', `/container-events/unlinked?q=${c}`, staff);
    expect((rest.body.items as { id: string }[]).map((i) => i.id)).toEqual([second]);

    // The rest of the container's unlinked events in one go.
    const third = await call(
      'POST',
      '/container-events',
      withKey(),
      gateIn(containerNumber('UNLU', 1), {
        equipmentEventTypeCode: 'DISC',
        eventDateTime: '2026-03-20T08:00:00Z',
        eventCreatedDateTime: '2026-03-20T08:10:00Z',
      }),
    );
    const thirdId = (third.body.results as { id: string }[])[0]?.id;
    expect(((await call('GET', `/container-events/${thirdId}`, staff)).body.dossier as Json).id).toBe(d.id);
    const all = await call('POST', `/container-events/${second}/link`, staff, {
      dossierId: d.id,
      applyToContainer: true,
    });
    expect((all.body.linked as unknown[]).length).toBe(1);
    expect(all.body.leftUnlinked).toBe(0);
    expect((await call('GET', `/container-events/unlinked?q=${c}`, staff)).body.total).toBe(0);
    const summaries = await db.db
      .selectFrom('container_summaries')
      .select(['dossier_id', 'event_count', 'latest_type_code'])
      .where('equipment_reference', '=', c)
      .execute();
    expect(summaries).toEqual([{ dossier_id: d.id, event_count: 3, latest_type_code: 'DISC' }]);

    // Unlinking by hand moves it back.
    const un = await call('POST', `/container-events/${thirdId}/link`, staff, { dossierId: null });
    expect((un.body.linked as { dossier: unknown }[])[0]?.dossier).toBeNull();
    const after = await db.db
      .selectFrom('container_summaries')
      .select(['dossier_id', 'event_count', 'latest_type_code'])
      .where('equipment_reference', '=', c)
      .orderBy('event_count')
      .execute();
    expect(after).toEqual([
      { dossier_id: null, event_count: 1, latest_type_code: 'DISC' },
      { dossier_id: d.id, event_count: 2, latest_type_code: 'LOAD' },
    ]);
  });
});

describe('containers, timelines and the dossier tab', () => {
  const c = containerNumber('ACMU', 1);
  const other = containerNumber('GLBU', 1);
  let acmeDossier: Json;
  let globexDossier: Json;
  beforeAll(async () => {
    acmeDossier = await newDossier({ masterBl: 'ACME-MBL-1', containers: [{ number: c }] });
    globexDossier = await newDossier({ customerId: partyId.GLOBEX, containers: [{ number: other }] });
    published.length = 0;
    const r = await call('POST', '/container-events', withKey(), [
      gateIn(c, { eventDateTime: '2026-03-01T10:00:00Z', equipmentEventTypeCode: 'GTIN' }),
      gateIn(c, {
        eventDateTime: '2026-03-03T10:00:00Z',
        eventCreatedDateTime: '2026-03-03T10:05:00Z',
        equipmentEventTypeCode: 'LOAD',
        transportCall: { modeOfTransport: 'VESSEL', UNLocationCode: 'NLRTM', facilityTypeCode: 'POTE' },
      }),
      // The ETA at Shanghai, announced and then moved; found through the BL.
      arrival({
        eventDateTime: '2026-03-20T08:00:00Z',
        eventCreatedDateTime: '2026-03-04T10:00:00Z',
        documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'ACME-MBL-1' }],
      }),
      arrival({
        eventDateTime: '2026-03-22T08:00:00Z',
        eventCreatedDateTime: '2026-03-10T10:00:00Z',
        documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'ACME-MBL-1' }],
      }),
      gateIn(other),
    ]);
    expect(r.body).toMatchObject({ created: 5 });
  });

  it('announces each accepted container to staff and the dossier’s customer, and the dossier’s change', () => {
    expect(published).toContainEqual({
      kind: 'container-event',
      id: c,
      action: 'created',
      partyIds: [partyId.ACME],
    });
    expect(published).toContainEqual({
      kind: 'container-event',
      id: other,
      action: 'created',
      partyIds: [partyId.GLOBEX],
    });
    expect(published).toContainEqual({
      kind: 'dossier',
      id: acmeDossier.id,
      action: 'updated',
      partyIds: [partyId.ACME],
    });
    // The transport events (no container of their own) announce themselves by id.
    expect(
      published.filter((p) => p.kind === 'container-event' && p.id !== c && p.id !== other),
    ).toHaveLength(2);
  });

  it('lists containers with their latest actual event, location and status; filters and scopes them', async () => {
    const list = await call('GET', `/containers?q=${c.slice(0, 4).toLowerCase()}`, staff);
    expect(list.status).toBe(200);
    const item = (list.body.items as Json[])[0] as Json;
    expect(list.body.total).toBe(1);
    expect(item).toMatchObject({
      containerNumber: c,
      ISOEquipmentCode: '45G1',
      status: 'LOAD',
      emptyIndicatorCode: 'LADEN',
      location: { UNLocationCode: 'NLRTM', facilityTypeCode: 'POTE' },
      eventCount: 2,
      dossier: { id: acmeDossier.id, number: acmeDossier.number, customer: { code: 'ACME' } },
      latestEvent: { equipmentEventTypeCode: 'LOAD', eventClassifierCode: 'ACT' },
    });
    const byDossier = await call('GET', `/containers?dossierId=${acmeDossier.id}`, staff);
    expect((byDossier.body.items as Json[]).map((i) => i.containerNumber)).toEqual([c]);
    const byStatus = await call('GET', `/containers?status=load&q=${c}`, staff);
    expect(byStatus.body.total).toBe(1);
    expect((await call('GET', `/containers?status=DISC&q=${c}`, staff)).body.total).toBe(0);
    expect((await call('GET', `/containers?eventType=EQUIPMENT&q=${c}`, staff)).body.total).toBe(1);
    expect((await call('GET', '/containers?status=NOPE', staff)).status).toBe(400);
    expect((await call('GET', '/containers?sort=colour', staff)).status).toBe(400);

    const mine = await call('GET', '/containers?pageSize=200', acme);
    const numbers = (mine.body.items as Json[]).map((i) => i.containerNumber);
    expect(numbers).toContain(c);
    expect(numbers).not.toContain(other);
    expect(
      (mine.body.items as { dossier: { customer: { code: string } } }[]).every(
        (i) => i.dossier.customer.code === 'ACME',
      ),
    ).toBe(true);
    const theirs = await call('GET', '/containers?pageSize=200', globex);
    expect((theirs.body.items as Json[]).map((i) => i.containerNumber)).toEqual([other]);
    const csv = await call('GET', `/containers?format=csv&q=${c}`, staff);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.raw).toContain(c);
    expect(csv.raw).toContain(String(acmeDossier.number));
  });

  it('pages the containers list by offset and by keyset cursor without overlaps', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const total = (await call('GET', '/containers?q=BULU&pageSize=1', staff)).body.total as number;
    expect(total).toBe(500);
    do {
      const url: string = `/containers?q=BULU&sort=containerNumber&pageSize=97${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call('GET', url, staff);
      seen.push(...(page.body.items as { containerNumber: string }[]).map((i) => i.containerNumber));
      cursor = page.body.nextCursor as string | null;
    } while (cursor);
    expect(seen.length).toBe(500);
    expect(new Set(seen).size).toBe(500);
    expect([...seen].sort()).toEqual(seen);
    const second = await call('GET', '/containers?q=BULU&sort=containerNumber&pageSize=97&page=2', staff);
    expect((second.body.items as { containerNumber: string }[]).map((i) => i.containerNumber)).toEqual(
      seen.slice(97, 194),
    );
  });

  it('draws the timeline in eventDateTime order with the dossier’s ETA changes, and scopes it', async () => {
    const r = await call('GET', `/containers/${c.toLowerCase()}/events`, staff);
    expect(r.status).toBe(200);
    const items = r.body.items as {
      eventType: string;
      eventClassifierCode: string;
      eventDateTime: string;
      superseded: boolean;
      previousEventDateTime: string | null;
      dossier: Json;
    }[];
    expect(r.body).toMatchObject({ containerNumber: c, truncated: false });
    expect(items.map((i) => [i.eventType, i.eventClassifierCode, i.eventDateTime])).toEqual([
      ['EQUIPMENT', 'ACT', '2026-03-01T10:00:00Z'],
      ['EQUIPMENT', 'ACT', '2026-03-03T10:00:00Z'],
      ['TRANSPORT', 'EST', '2026-03-20T08:00:00Z'],
      ['TRANSPORT', 'EST', '2026-03-22T08:00:00Z'],
    ]);
    expect(items[2]).toMatchObject({ superseded: true, previousEventDateTime: null });
    expect(items[3]).toMatchObject({ superseded: false, previousEventDateTime: '2026-03-20T08:00:00Z' });
    expect(items.every((i) => i.dossier?.id === acmeDossier.id)).toBe(true);

    // The customer sees their container's timeline; another party's answers 404 like a missing one.
    expect((await call('GET', `/containers/${c}/events`, acme)).status).toBe(200);
    const hidden = await call('GET', `/containers/${c}/events`, globex);
    const missing = await call('GET', `/containers/${containerNumber('ZZZU', 9)}/events`, globex);
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.body.detail).toBe(missing.body.detail);
    expect((await call('GET', `/containers/${other}/events`, acme)).status).toBe(404);
    const bad = await call('GET', '/containers/MSKU6011673/events', staff);
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['containerNumber']);
    const limited = await call('GET', `/containers/${c}/events?limit=2`, staff);
    expect(limited.body.truncated).toBe(true);
    expect((limited.body.items as Json[]).map((i) => i.eventDateTime)).toEqual([
      '2026-03-20T08:00:00Z',
      '2026-03-22T08:00:00Z',
    ]);
  });

  it('marks estimates replaced by the actual event', async () => {
    await call(
      'POST',
      '/container-events',
      withKey(),
      arrival({
        eventClassifierCode: 'ACT',
        eventDateTime: '2026-03-23T06:00:00Z',
        eventCreatedDateTime: '2026-03-23T06:10:00Z',
        documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'ACME-MBL-1' }],
      }),
    );
    const items = (await call('GET', `/containers/${c}/events`, acme)).body.items as {
      eventClassifierCode: string;
      superseded: boolean;
      previousEventDateTime: string | null;
    }[];
    const arrivals = items.slice(2);
    expect(arrivals.map((a) => [a.eventClassifierCode, a.superseded, a.previousEventDateTime])).toEqual([
      ['EST', true, null],
      ['EST', true, '2026-03-20T08:00:00Z'],
      ['ACT', false, '2026-03-22T08:00:00Z'],
    ]);
  });

  it('gives the dossier its events tab, scoped through the dossier', async () => {
    const tab = await call('GET', `/dossiers/${acmeDossier.id}/events`, acme);
    expect(tab.status).toBe(200);
    expect(tab.body.dossierId).toBe(acmeDossier.id);
    expect((tab.body.items as Json[]).length).toBe(5);
    expect((await call('GET', `/dossiers/${acmeDossier.number}/events`, staff)).status).toBe(200);
    expect((await call('GET', `/dossiers/${acmeDossier.id}/events`, globex)).status).toBe(404);
    expect((await call('GET', `/dossiers/${globexDossier.id}/events`, acme)).status).toBe(404);
    expect((await call('GET', `/dossiers/${randomUUID()}/events`, staff)).status).toBe(404);
    expect((await call('GET', `/dossiers/${acmeDossier.id}/events`, undefined)).status).toBe(401);
    // An event of another party is not readable by id either.
    const theirs = (await call('GET', `/containers/${other}/events`, staff)).body.items as { id: string }[];
    expect((await call('GET', `/container-events/${theirs[0]?.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/container-events/${theirs[0]?.id}`, globex)).status).toBe(200);
  });
});

describe('CSV import', () => {
  const c1 = containerNumber('CSVU', 1);
  const c2 = containerNumber('CSVU', 2);
  const header =
    'eventType,eventClassifierCode,eventDateTime,equipmentEventTypeCode,equipmentReference,emptyIndicatorCode,UNLocationCode,modeOfTransport,transportEventTypeCode,vesselIMONumber,carrierBookingReference';
  const good1 = `EQUIPMENT,ACT,2026-03-01T10:00:00Z,GTIN,${c1},LADEN,NLRTM,TRUCK,,,`;
  const good2 = `,ACT,2026-03-02T10:00:00Z,LOAD,${c2},LADEN,NLRTM,VESSEL,,9321483,`;
  const badRows = [
    `EQUIPMENT,ACT,2026-03-01T10:00:00Z,GTIN,${c1.slice(0, 10)}${(Number(c1[10]) + 1) % 10},,NLRTM,TRUCK,,,`, // check digit, emptyIndicator
    'TRANSPORT,EST,2026-03-20T08:00:00Z,,,,XXRTM,VESSEL,ARRI,9321484,BKG-1', // locode, IMO
    'TRANSPORT,EST,2026-03-20T08:00:00Z,,,,,,ARRI,,', // no transport call
  ];
  const file = [header, good1, badRows[0], good2, badRows[1], badRows[2]].join('\r\n');
  const stored = async () =>
    Number(
      (
        await db.db
          .selectFrom('container_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('source', '=', 'csv')
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('previews every row with its errors by CSV column, storing nothing', async () => {
    const r = await call('POST', '/container-events/import?mode=preview', staff, file, 'text/csv');
    expect(r.status, r.raw).toBe(200);
    expect(r.body).toMatchObject({
      mode: 'preview',
      committed: false,
      total: 5,
      valid: 2,
      invalid: 3,
      created: 0,
    });
    const rows = r.body.rows as {
      row: number;
      status: string;
      errors?: { field: string; message: string }[];
    }[];
    expect(rows.map((x) => [x.row, x.status])).toEqual([
      [2, 'valid'],
      [3, 'invalid'],
      [4, 'valid'],
      [5, 'invalid'],
      [6, 'invalid'],
    ]);
    expect(rows[1]?.errors?.map((e) => e.field).sort()).toEqual(['emptyIndicatorCode', 'equipmentReference']);
    expect(rows[3]?.errors?.map((e) => e.field).sort()).toEqual(['UNLocationCode', 'vesselIMONumber']);
    expect(rows[4]?.errors?.map((e) => e.field)).toEqual(['modeOfTransport']);
    expect(await stored()).toBe(0);
    expect((await call('POST', '/container-events/import', acme, file, 'text/csv')).status).toBe(403);
  });

  it('refuses a commit while rows are invalid, storing nothing; imports the valid rows when asked to', async () => {
    const refused = await call('POST', '/container-events/import?mode=commit', staff, file, 'text/csv');
    expect(refused.status).toBe(400);
    expect(refused.headers['content-type']).toMatch(/problem\+json/);
    expect(refused.body.detail).toMatch(/Nothing was imported: 3 of 5 rows have errors/);
    expect(fields(refused.body)).toContain('rows.5.UNLocationCode');
    expect(await stored()).toBe(0);

    const partial = await call(
      'POST',
      '/container-events/import?mode=commit&validRowsOnly=true',
      staff,
      file,
      'text/csv',
    );
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ committed: true, created: 2, invalid: 3 });
    expect((partial.body.rows as { status: string }[]).map((r) => r.status)).toEqual([
      'created',
      'skipped',
      'created',
      'skipped',
      'skipped',
    ]);
    expect(await stored()).toBe(2);
    // Rows without eventID get one derived from their cells: the same file again stores nothing.
    const again = await call(
      'POST',
      '/container-events/import?mode=commit&validRowsOnly=true',
      staff,
      file,
      'text/csv',
    );
    expect(again.body).toMatchObject({ created: 0, duplicates: 2 });
    expect(await stored()).toBe(2);
    const preview = await call('POST', '/container-events/import', staff, file, 'text/csv');
    expect((preview.body.rows as { status: string }[])[0]?.status).toBe('duplicate');
  });

  it('commits a clean file in one go; reads semicolons, quotes and a BOM', async () => {
    const c3 = containerNumber('CSVU', 3);
    const text = `\uFEFFeventID;equipmentEventTypeCode;eventClassifierCode;eventDateTime;equipmentReference;emptyIndicatorCode;UNLocationCode;modeOfTransport;transportDocumentReference\n${randomUUID()};DISC;ACT;2026-03-21T10:00:00+08:00;"${c3}";LADEN;CNSHA;VESSEL;"MBL;42"\n`;
    const r = await call('POST', '/container-events/import?mode=commit', staff, text, 'text/csv');
    expect(r.status, r.raw).toBe(200);
    expect(r.body).toMatchObject({ committed: true, created: 1 });
    const tl = await call('GET', `/containers/${c3}/events`, staff);
    expect((tl.body.items as Json[])[0]).toMatchObject({
      source: 'csv',
      documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MBL;42' }],
      eventDateTime: '2026-03-21T10:00:00+08:00',
    });
  });

  it('rejects a file with unknown columns or without rows', async () => {
    const r = await call(
      'POST',
      '/container-events/import',
      staff,
      'eventType,colour\nEQUIPMENT,red',
      'text/csv',
    );
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { field: 'file', message: expect.stringMatching(/Unknown column "colour"/) },
    ]);
    expect((await call('POST', '/container-events/import', staff, header, 'text/csv')).status).toBe(400);
    expect((await call('POST', '/container-events/import?mode=later', staff, file, 'text/csv')).status).toBe(
      400,
    );
  });
});

/**
 * Issue 9, item 1: a customer booked a transport naming another party's container and captured its
 * events. The rule (ADR 0015): only active dossiers claim, each within its dates' window; several
 * equal claims link to none. Every path (batch ingest, CSV import) runs the same statement.
 */
describe('the linking rule', () => {
  /** An actual event at `t` (sent right after it happened). */
  const at = (t: string): Json => ({ eventDateTime: t, eventCreatedDateTime: t });
  const booking = async (who: Auth, over: Json): Promise<Json> => {
    const r = await call('POST', '/dossiers/bookings', who, {
      type: 'import',
      mode: 'sea',
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      cargoDescription: 'Bicycles',
      ...over,
    });
    expect(r.status, r.raw).toBe(201);
    expect(r.body.status).toBe('requested');
    return r.body;
  };
  const confirm = async (d: Json) => {
    const handler = await db.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'staff@fvg.local')
      .executeTakeFirstOrThrow();
    const r = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'booked',
      version: d.version,
      handlerId: handler.id,
    });
    expect(r.status, r.raw).toBe(200);
  };
  /** The dossier each posted event was linked to, in the order sent. */
  const ingest = async (events: Json[]): Promise<(string | null)[]> => {
    const r = await call('POST', '/container-events', withKey(), events);
    expect(r.body).toMatchObject({ created: events.length });
    const ids = (r.body.results as { id: string }[]).map((x) => x.id);
    const rows = await db.db
      .selectFrom('container_events')
      .select(['id', 'dossier_id'])
      .where('id', 'in', ids)
      .execute();
    return ids.map((id) => rows.find((x) => x.id === id)?.dossier_id ?? null);
  };
  const unlinkedOf = async (container: string) =>
    (await call('GET', `/container-events/unlinked?q=${container}&sort=eventDateTime`, staff)).body
      .items as Json[];

  it('keeps a customer’s booking of another party’s container from capturing its events', async () => {
    const x = containerNumber('ATKU', 1);
    const owner = await newDossier({ etd: '2026-03-01', eta: '2026-03-20', containers: [{ number: x }] });
    // Same container, same dates: the strongest claim a customer can make.
    const attack = await booking(globex, { etd: '2026-03-01', containers: [{ number: x }] });
    const linked = await ingest([
      gateIn(x, at('2026-03-01T10:00:00Z')),
      gateIn(x, { ...at('2026-03-03T10:00:00Z'), equipmentEventTypeCode: 'LOAD' }),
    ]);
    expect(linked).toEqual([owner.id, owner.id]);

    const list = await call('GET', `/containers?q=${x}`, globex);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ items: [], total: 0 });
    const timeline = await call('GET', `/containers/${x}/events`, globex);
    expect(timeline.status === 404 || (timeline.body.items as unknown[]).length === 0, timeline.raw).toBe(
      true,
    );
    const tab = await call('GET', `/dossiers/${attack.id}/events`, globex);
    expect(tab.status).toBe(200);
    expect(tab.body.items).toEqual([]);
    const event = (await call('GET', `/dossiers/${owner.id}/events`, acme)).body.items as { id: string }[];
    expect(event).toHaveLength(2);
    expect((await call('GET', `/container-events/${event[0]?.id}`, globex)).status).toBe(404);
    expect(
      ((await call('GET', `/containers?q=${x}`, acme)).body.items as Json[]).map((c) => c.dossier),
    ).toEqual([
      {
        id: owner.id,
        number: owner.number,
        customer: { id: partyId.ACME, code: 'ACME', name: expect.any(String) },
      },
    ]);
  });

  it('a requested booking captures nothing, even alone; once confirmed, only the events in its window', async () => {
    const y = containerNumber('REQU', 1);
    // ETD only: the window runs from 14 days before it to 90 days after (2026-05-18 up to 2026-08-30).
    const b = await booking(globex, { etd: '2026-06-01', containers: [{ number: y }] });
    const [early] = await ingest([gateIn(y, at('2026-06-02T10:00:00Z'))]);
    expect(early).toBeNull();
    expect(await unlinkedOf(y)).toMatchObject([
      { reason: 'unmatched', suggestedDossier: null, candidates: [] },
    ]);
    // Staff may not hand carrier data to an unconfirmed booking either.
    const earlyId = (await unlinkedOf(y))[0]?.id;
    const refused = await call('POST', `/container-events/${earlyId}/link`, staff, { dossierId: b.id });
    expect(refused.status).toBe(400);
    expect(fields(refused.body)).toEqual(['dossierId']);

    await confirm(b);
    // The earlier event stays where it was; staff now see the confirmed booking suggested for it.
    expect(await unlinkedOf(y)).toMatchObject([
      { id: earlyId, reason: 'matched', suggestedDossier: { id: b.id, number: b.number } },
    ]);
    const linked = await ingest([
      gateIn(y, at('2026-05-17T23:59:59Z')), // a second before the window
      gateIn(y, at('2026-05-18T00:00:00Z')), // its first moment
      gateIn(y, { ...at('2026-06-03T10:00:00Z'), equipmentEventTypeCode: 'LOAD' }),
      gateIn(y, { ...at('2026-08-30T23:59:59Z'), equipmentEventTypeCode: 'GTOT' }), // its last second
      gateIn(y, { ...at('2026-08-31T00:00:00Z'), equipmentEventTypeCode: 'GTOT' }), // after it
    ]);
    expect(linked).toEqual([null, b.id, b.id, b.id, null]);
    const tab = await call('GET', `/dossiers/${b.id}/events`, globex);
    expect((tab.body.items as unknown[]).length).toBe(3);
  });

  it('confirming a booking takes no event from the owner; new events both claim wait for staff', async () => {
    const z = containerNumber('CNFU', 1);
    const owner = await newDossier({ etd: '2026-04-01', eta: '2026-04-25', containers: [{ number: z }] });
    const b = await booking(globex, { etd: '2026-04-02', containers: [{ number: z }] });
    const before = await ingest([gateIn(z, at('2026-04-01T08:00:00Z'))]);
    expect(before).toEqual([owner.id]);
    await confirm(b);
    expect(((await call('GET', `/dossiers/${owner.id}/events`, acme)).body.items as unknown[]).length).toBe(
      1,
    );
    expect((await call('GET', `/dossiers/${b.id}/events`, globex)).body.items).toEqual([]);

    // Two active dossiers whose windows fit: neither gets it; staff see both, customers neither.
    const after = await ingest([
      gateIn(z, { ...at('2026-04-02T08:00:00Z'), equipmentEventTypeCode: 'LOAD' }),
    ]);
    expect(after).toEqual([null]);
    const [waiting] = await unlinkedOf(z);
    expect(waiting).toBeDefined();
    expect(waiting).toMatchObject({
      reason: 'ambiguous',
      suggestedDossier: null,
      candidates: [owner, b]
        .sort((l, r) => String(l.number).localeCompare(String(r.number)))
        .map((d) => ({ id: d.id, number: d.number })),
    });
    expect(
      ((waiting?.candidates ?? []) as { customer: { code: string } }[]).map((c) => c.customer.code).sort(),
    ).toEqual(['ACME', 'GLOBEX']);
    // The staff export says the same.
    const csv = await call('GET', `/container-events/unlinked?format=csv&q=${z}`, staff);
    expect(csv.raw.split('\r\n')[0]).toContain('Why unlinked,Claiming dossiers');
    expect(csv.raw).toContain(`,ambiguous,${[owner.number, b.number].sort().join(' ')}`);
    expect((await call('GET', `/container-events/${waiting?.id}`, globex)).status).toBe(404);
    expect((await call('GET', `/container-events/${waiting?.id}`, acme)).status).toBe(404);
    expect((await call('GET', '/container-events/unlinked', globex)).status).toBe(403);
    expect((await call('GET', `/containers/${z}/events`, globex)).body.items).toEqual([]);
  });

  it('links a reused container to the voyage whose window fits the event, and none outside every window', async () => {
    const w = containerNumber('WINU', 1);
    // Windows: March from 2026-02-15 up to 2026-04-19, June from 2026-05-18 up to 2026-07-25.
    const march = await newDossier({ etd: '2026-03-01', eta: '2026-03-20', containers: [{ number: w }] });
    const june = await newDossier({ etd: '2026-06-01', eta: '2026-06-25', containers: [{ number: w }] });
    // Arrival known only: from 60 days before it up to 30 days after.
    const arrivalOnly = await newDossier({ eta: '2026-10-31', containers: [{ number: w }] });
    const linked = await ingest([
      gateIn(w, at('2026-02-14T23:59:59Z')),
      gateIn(w, at('2026-02-15T00:00:00Z')),
      gateIn(w, { ...at('2026-04-19T23:00:00Z'), equipmentEventTypeCode: 'GTOT' }),
      gateIn(w, { ...at('2026-05-01T10:00:00Z'), equipmentEventTypeCode: 'GTOT' }),
      gateIn(w, { ...at('2026-06-20T10:00:00Z'), equipmentEventTypeCode: 'DISC' }),
      gateIn(w, { ...at('2026-09-01T10:00:00Z'), equipmentEventTypeCode: 'LOAD' }),
      gateIn(w, { ...at('2026-07-26T00:00:00Z'), equipmentEventTypeCode: 'GTOT' }),
    ]);
    expect(linked).toEqual([null, march.id, march.id, null, june.id, arrivalOnly.id, null]);
    expect((await unlinkedOf(w)).map((e) => e.reason)).toEqual(['unmatched', 'unmatched', 'unmatched']);
  });

  it('takes along only the chosen dossier’s voyage when staff link a whole container by hand', async () => {
    const v = containerNumber('VOYU', 1);
    // Sent before any dossier names the container: all of them wait unlinked.
    const [chosen, stuffed, contested, juneOut, juneIn, rivalOnly, before] = (
      await call('POST', '/container-events', withKey(), [
        gateIn(v, at('2026-03-02T08:00:00Z')),
        gateIn(v, { ...at('2026-03-10T08:00:00Z'), equipmentEventTypeCode: 'LOAD' }),
        gateIn(v, { ...at('2026-04-05T08:00:00Z'), equipmentEventTypeCode: 'GTOT' }),
        gateIn(v, { ...at('2026-06-05T08:00:00Z'), equipmentEventTypeCode: 'LOAD' }),
        gateIn(v, { ...at('2026-06-20T08:00:00Z'), equipmentEventTypeCode: 'DISC' }),
        gateIn(v, { ...at('2026-05-10T08:00:00Z'), equipmentEventTypeCode: 'GTIN' }),
        gateIn(v, { ...at('2026-01-10T08:00:00Z'), equipmentEventTypeCode: 'GTOT' }),
      ])
    ).body.results as { id: string }[];
    // Windows: March (ACME) 2026-02-15 up to 2026-04-19, June (GLOBEX) 2026-05-18 up to 2026-07-25,
    // and GLOBEX's April voyage 2026-03-27 up to 2026-05-12, which contests the 5 April event.
    const march = await newDossier({ etd: '2026-03-01', eta: '2026-03-20', containers: [{ number: v }] });
    const june = await newDossier({
      customerId: partyId.GLOBEX,
      etd: '2026-06-01',
      eta: '2026-06-25',
      containers: [{ number: v }],
    });
    const april = await newDossier({
      customerId: partyId.GLOBEX,
      etd: '2026-04-10',
      eta: '2026-04-12',
      containers: [{ number: v }],
    });
    const reasons = async () =>
      Object.fromEntries(
        (await unlinkedOf(v)).map((e) => [e.id, [e.reason, (e.suggestedDossier as Json)?.id]]),
      );
    expect((await reasons())[contested?.id as string]).toEqual(['ambiguous', undefined]);

    const r = await call('POST', `/container-events/${chosen?.id}/link`, staff, {
      dossierId: march.id,
      applyToContainer: true,
    });
    expect(r.status, r.raw).toBe(200);
    expect(
      (r.body.linked as { id: string; dossier: Json }[]).map((e) => [e.id, e.dossier.id]).sort(),
    ).toEqual(
      [
        [chosen?.id, march.id],
        [stuffed?.id, march.id],
      ].sort(),
    );
    expect(r.body.leftUnlinked).toBe(5);
    // The other voyages' events, the contested one and the one before every window still wait for staff.
    expect(await reasons()).toEqual({
      [contested?.id as string]: ['ambiguous', undefined],
      [juneOut?.id as string]: ['matched', june.id],
      [juneIn?.id as string]: ['matched', june.id],
      [rivalOnly?.id as string]: ['matched', april.id],
      [before?.id as string]: ['unmatched', undefined],
    });
    // ACME's customer sees the March voyage only.
    const acmeSees = (await call('GET', `/containers/${v}/events`, acme)).body.items as { id: string }[];
    expect(acmeSees.map((e) => e.id).sort()).toEqual([chosen?.id, stuffed?.id].sort());
    expect((await call('GET', `/container-events/${juneIn?.id}`, acme)).status).toBe(404);

    // The event staff choose goes where they say, even outside the dossier's window; nothing follows it.
    const odd = await call('POST', `/container-events/${juneIn?.id}/link`, staff, {
      dossierId: march.id,
      applyToContainer: true,
    });
    expect((odd.body.linked as { id: string }[]).map((e) => e.id)).toEqual([juneIn?.id]);
    expect(odd.body.leftUnlinked).toBe(4);
  });

  it('applies the same rule to a CSV import', async () => {
    const owned = containerNumber('CSLU', 1);
    const claimed = containerNumber('CSLU', 2);
    const shared = containerNumber('CSLU', 3);
    const owner = await newDossier({ etd: '2026-03-01', eta: '2026-03-20', containers: [{ number: owned }] });
    await booking(globex, { etd: '2026-03-01', containers: [{ number: owned }] });
    await booking(globex, { etd: '2026-03-01', containers: [{ number: claimed }] });
    const one = await newDossier({ etd: '2026-03-01', containers: [{ number: shared }] });
    const two = await newDossier({
      customerId: partyId.GLOBEX,
      etd: '2026-03-02',
      containers: [{ number: shared }],
    });
    const file = [
      'eventType,eventClassifierCode,eventDateTime,equipmentEventTypeCode,equipmentReference,emptyIndicatorCode,UNLocationCode,modeOfTransport',
      `EQUIPMENT,ACT,2026-03-02T10:00:00Z,GTIN,${owned},LADEN,NLRTM,TRUCK`,
      `EQUIPMENT,ACT,2026-03-02T10:00:00Z,GTIN,${claimed},LADEN,NLRTM,TRUCK`,
      `EQUIPMENT,ACT,2026-03-02T10:00:00Z,GTIN,${shared},LADEN,NLRTM,TRUCK`,
      `EQUIPMENT,ACT,2026-01-02T10:00:00Z,GTIN,${owned},LADEN,NLRTM,TRUCK`,
    ].join('\n');
    const r = await call('POST', '/container-events/import?mode=commit', staff, file, 'text/csv');
    expect(r.status, r.raw).toBe(200);
    expect(r.body).toMatchObject({ committed: true, created: 4 });
    const ids = (r.body.rows as { eventID: string }[]).map((x) => x.eventID);
    const rows = await db.db
      .selectFrom('container_events')
      .select(['event_id', 'dossier_id', 'source'])
      .where('event_id', 'in', ids)
      .execute();
    expect(ids.map((id) => rows.find((x) => x.event_id === id)?.dossier_id ?? null)).toEqual([
      owner.id,
      null,
      null,
      null,
    ]);
    expect(rows.every((x) => x.source === 'csv')).toBe(true);
    expect((await unlinkedOf(shared))[0]).toMatchObject({
      reason: 'ambiguous',
      candidates: [one, two]
        .sort((l, rr) => String(l.number).localeCompare(String(rr.number)))
        .map((d) => ({ id: d.id })),
    });
    expect((await unlinkedOf(claimed))[0]).toMatchObject({ reason: 'unmatched', candidates: [] });
  });
});

describe('arrival from container events (ADR 0022)', () => {
  /** A sea import to NLRTM that departed on 1 March. */
  const departed = async (container: string) => {
    const d = await newDossier({ containers: [{ number: container }], etd: '2026-03-01' });
    const r = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'in_transit',
      version: d.version,
      atd: '2026-03-01',
    });
    expect(r.status, r.raw).toBe(200);
    return r.body;
  };
  const dossierNow = async (id: unknown) => (await call('GET', `/dossiers/${id}`, staff)).body;
  const discharge = (c: string, over: Json = {}) =>
    gateIn(c, {
      equipmentEventTypeCode: 'DISC',
      eventDateTime: '2026-03-20T23:30:00-02:00',
      eventCreatedDateTime: '2026-03-21T02:00:00Z',
      ...over,
    });

  it('an actual discharge at the destination marks an in-transit dossier arrived, with the day as ATA', async () => {
    const c = containerNumber('ARVU', 1);
    const d = await departed(c);
    // Transhipment (another port), a planned discharge and an estimate change nothing.
    const elsewhere = discharge(c, {
      transportCall: { modeOfTransport: 'VESSEL', UNLocationCode: 'SGSIN' },
      eventDateTime: '2026-03-10T08:00:00Z',
      eventCreatedDateTime: '2026-03-10T09:00:00Z',
    });
    const planned = discharge(c, { eventClassifierCode: 'PLN' });
    const estimated = discharge(c, { eventClassifierCode: 'EST' });
    const first = await call('POST', '/container-events', withKey(), [elsewhere, planned, estimated]);
    expect(first.body).toMatchObject({ created: 3 });
    expect(await dossierNow(d.id)).toMatchObject({ status: 'in_transit', ata: null });

    const actual = await call('POST', '/container-events', withKey(), discharge(c));
    expect(actual.body).toMatchObject({ created: 1 });
    const arrived = await dossierNow(d.id);
    // 23:30 at UTC−2 is the 21st in UTC.
    expect(arrived).toMatchObject({ status: 'arrived', atd: '2026-03-01', ata: '2026-03-21' });
    expect(arrived.version).toBe((d.version as number) + 1);
    const history = (await call('GET', `/dossiers/${d.id}/history`, staff)).body as unknown as Json[];
    expect(history[0]).toMatchObject({
      action: `arrival recorded from the discharge of ${c} at NLRTM`,
      actor: null,
      changes: [
        { field: 'status', from: 'in_transit', to: 'arrived' },
        { field: 'ata', from: null, to: '2026-03-21' },
      ],
    });
    // The customer reads the same entry in their dossier's history.
    const customerHistory = (await call('GET', `/dossiers/${d.id}/history`, acme)).body as unknown as Json[];
    expect(customerHistory[0]).toMatchObject({ action: history[0]?.action });

    // A later discharge (the next day's re-send with another ID) does not move it again.
    await call(
      'POST',
      '/container-events',
      withKey(),
      discharge(c, { eventDateTime: '2026-03-22T08:00:00Z' }),
    );
    expect(await dossierNow(d.id)).toMatchObject({
      status: 'arrived',
      ata: '2026-03-21',
      version: arrived.version,
    });
  });

  it('leaves a dossier that has not departed alone, and an event before the recorded departure', async () => {
    const c = containerNumber('ARVU', 2);
    const booked = await newDossier({ containers: [{ number: c }], etd: '2026-03-01' });
    await call('POST', '/container-events', withKey(), discharge(c));
    expect(await dossierNow(booked.id)).toMatchObject({ status: 'booked', ata: null });

    const c2 = containerNumber('ARVU', 3);
    const d = await departed(c2);
    // The previous voyage's discharge at the same port, still inside the window's lead time.
    await call(
      'POST',
      '/container-events',
      withKey(),
      discharge(c2, { eventDateTime: '2026-02-20T08:00:00Z', eventCreatedDateTime: '2026-02-20T09:00:00Z' }),
    );
    expect(await dossierNow(d.id)).toMatchObject({ status: 'in_transit', ata: null });
  });

  it('applies to a vessel arrival staff link by hand, in the staff user’s name', async () => {
    const c = containerNumber('ARVU', 4);
    const d = await departed(c);
    const vessel = arrival({
      eventClassifierCode: 'ACT',
      eventDateTime: '2026-03-18T06:00:00Z',
      eventCreatedDateTime: '2026-03-18T06:05:00Z',
      transportCall: { modeOfTransport: 'VESSEL', UNLocationCode: 'NLRTM' },
    });
    const sent = await call('POST', '/container-events', withKey(), vessel);
    const id = (sent.body.results as { id: string }[])[0]?.id;
    expect(await dossierNow(d.id)).toMatchObject({ status: 'in_transit' });
    const linked = await call('POST', `/container-events/${id}/link`, staff, { dossierId: d.id });
    expect(linked.status, linked.raw).toBe(200);
    expect(await dossierNow(d.id)).toMatchObject({ status: 'arrived', ata: '2026-03-18' });
    const history = (await call('GET', `/dossiers/${d.id}/history`, staff)).body as unknown as Json[];
    expect(history[0]).toMatchObject({
      action: 'arrival recorded from the vessel arrival at NLRTM',
      actor: { name: 'Sam Staff' },
    });
  });
});

describe('OpenAPI', () => {
  it('documents the routes', async () => {
    const doc = (await setup.app.inject('/api/openapi.json')).json() as { paths: Record<string, unknown> };
    for (const path of [
      '/api/container-events',
      '/api/container-events/import',
      '/api/container-events/unlinked',
      '/api/container-events/{id}/link',
      '/api/containers',
      '/api/containers/{containerNumber}/events',
      '/api/dossiers/{id}/events',
      '/api/integration-keys',
      '/api/integration-keys/{id}',
    ])
      expect(doc.paths, path).toHaveProperty([path]);
  });
});

describe('volume hook', () => {
  it('seeds DCSA-shaped events for the dossiers’ containers inside PostgreSQL, once', async () => {
    const first = await seedContainerEvents(db.db, { eventsPerDossierContainer: 6 });
    const withContainers = await db.db
      .selectFrom('dossiers')
      .select((eb) => eb.fn.sum<number>(eb.fn('cardinality', ['container_numbers'])).as('n'))
      .executeTakeFirstOrThrow();
    expect(first.events).toBe(Number(withContainers.n) * 6);
    const again = await seedContainerEvents(db.db, { eventsPerDossierContainer: 6 });
    expect(again.events).toBe(0);
    const sample = await db.db
      .selectFrom('container_events')
      .select(['equipment_reference', 'dossier_id'])
      .where(sql<boolean>`event_id = md5(dossier_id::text || equipment_reference || '1')::uuid`)
      .executeTakeFirstOrThrow();
    const tl = await call(
      'GET',
      `/containers/${sample.equipment_reference}/events?dossierId=${sample.dossier_id}`,
      staff,
    );
    expect(tl.status).toBe(200);
    const items = tl.body.items as { equipmentEventTypeCode: string }[];
    expect(items.length).toBeGreaterThanOrEqual(6);
    const list = await call('GET', `/containers?dossierId=${sample.dossier_id}`, staff);
    expect((list.body.items as { eventCount: number }[])[0]?.eventCount).toBeGreaterThanOrEqual(6);
  });
});

describe('annotateTimeline', () => {
  it('leaves actual events alone when nothing planned precedes them', () => {
    const e: ContainerEvent = {
      id: '1',
      eventID: 'x',
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      eventDateTime: '2026-01-01T00:00:00Z',
      eventCreatedDateTime: '2026-01-01T00:00:00Z',
      equipmentEventTypeCode: 'GTIN',
      transportEventTypeCode: null,
      shipmentEventTypeCode: null,
      equipmentReference: 'MSKU6011672',
      ISOEquipmentCode: null,
      emptyIndicatorCode: 'LADEN',
      documentTypeCode: null,
      documentID: null,
      transportCall: null,
      eventLocation: null,
      documentReferences: [],
      references: [],
      UNLocationCode: 'NLRTM',
      dossier: null,
      source: 'api',
      receivedAt: '2026-01-01T00:00:00Z',
    };
    expect(annotateTimeline([e])).toEqual([{ ...e, superseded: false, previousEventDateTime: null }]);
  });
});
