import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { apiCaller, createTestApp, demoTokens, type Json, multipartForm } from '../../test/helpers.ts';
import { minimalPdf } from '../documents/minimal-pdf.ts';
import { LATER, sandbox } from './sandbox/test-support.ts';
import { completeImport, declarantCompany, importItem, recordingGateway } from './test-support.ts';

/** Defects found in the review of issue 12 (access, odd input, integrity), each pinned by a test. */

const recorder = recordingGateway();
const setup = apiTest({
  prepare: declarantCompany,
  files: 'fvg-declarations-review-',
  deps: { customsGateway: recorder.gateway },
});
const { db, admin, staff, acme, partyId, call } = setup;

const fields = (body: Json) =>
  ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field).sort();

async function create(body: Json) {
  const r = await call('POST', '/declarations', staff, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Json & { id: string; version: number; lrn: string };
}

function upload(recordId: string, visibleToCustomer: 'true' | 'false') {
  const form = multipartForm(
    { recordType: 'declaration', recordId, documentType: 'commercial_invoice', visibleToCustomer },
    [{ filename: 'invoice.pdf', content: minimalPdf('Invoice'), contentType: 'application/pdf' }],
  );
  return setup.app.inject({
    method: 'POST',
    url: '/api/documents',
    headers: { ...staff, 'content-type': form.contentType },
    payload: form.payload,
  });
}

describe('access', () => {
  it("a customer never sees a draft declaration's documents, even ones marked visible", async () => {
    const draft = await create({ type: 'import', customerId: partyId.ACME });
    const res = await upload(draft.id, 'true');
    expect(res.statusCode, res.body).toBe(201);
    const docId = (res.json() as { items: Json[] }).items[0]?.id as string;

    const all = await call('GET', '/documents?pageSize=200', acme);
    expect(all.status).toBe(200);
    expect((all.body.items as Json[]).map((d) => d.id)).not.toContain(docId);
    const byRecord = await call('GET', `/documents?recordId=${draft.id}`, acme);
    expect((byRecord.body.items as Json[] | undefined)?.map((d) => d.id) ?? []).not.toContain(docId);
    expect((await call('GET', `/documents/${docId}`, acme)).status).toBe(404);
    expect((await call('GET', `/documents/${docId}/content`, acme)).status).toBe(404);

    // Once lodged, the same document is theirs.
    const l = await call('POST', `/declarations/${draft.id}/lodge`, staff, { version: draft.version });
    if (l.status !== 200) {
      await db.db.updateTable('declarations').set({ status: 'lodged' }).where('id', '=', draft.id).execute();
    }
    expect((await call('GET', `/documents/${docId}`, acme)).status).toBe(200);
  });

  it('the hub does not tell a customer of the documents of a draft declaration', async () => {
    const heard: { kind: string; id: string; partyIds?: string[] }[] = [];
    setup.app.services.events.subscribe((c) => {
      heard.push(c);
    });
    const draft = await create({ type: 'import', customerId: partyId.ACME });
    const res = await upload(draft.id, 'true');
    expect(res.statusCode, res.body).toBe(201);
    const docId = (res.json() as { items: Json[] }).items[0]?.id as string;
    expect(heard.filter((c) => c.id === docId)).toEqual([
      { kind: 'document', id: docId, action: 'created', partyIds: [] },
    ]);
  });

  it("a copy stays its source's customer's: a dossier or customer of another party is refused", async () => {
    const source = await create(completeImport(partyId.ACME));
    const dossier = await call('POST', '/dossiers', staff, {
      type: 'import',
      mode: 'sea',
      customerId: partyId.GLOBEX,
    });
    expect(dossier.status, JSON.stringify(dossier.body)).toBe(201);
    const r = await call('POST', '/declarations', staff, {
      type: 'import',
      copyOf: source.id,
      dossierId: dossier.body.id,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(fields(r.body)).toEqual(['dossierId']);
    const r2 = await call('POST', '/declarations', staff, {
      type: 'import',
      copyOf: source.id,
      customerId: partyId.GLOBEX,
    });
    expect(r2.status, JSON.stringify(r2.body)).toBe(422);
    expect(fields(r2.body)).toEqual(['customerId']);
  });
});

describe('what goes to the authority', () => {
  it('never carries the internal notes (lodgement and amendment)', async () => {
    const real = await createTestApp(db, { sandbox: sandbox({ delays: { accept: LATER } }) });
    try {
      const { staff: auth } = await demoTokens(real);
      const send = apiCaller(() => real);
      const made = await send(
        'POST',
        '/declarations',
        auth,
        completeImport(partyId.ACME, { notes: 'Broker fee 45' }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body.id as string;
      const l = await send('POST', `/declarations/${id}/lodge`, auth, { version: made.body.version });
      expect(l.status, JSON.stringify(l.body)).toBe(200);
      const row = await db.db
        .updateTable('declarations')
        .set((eb) => ({ status: 'accepted', mrn: '26NL00039600000G17', version: eb('version', '+', 1) }))
        .where('id', '=', id)
        .returning('version')
        .executeTakeFirstOrThrow();
      const a = await send('POST', `/declarations/${id}/amend`, auth, {
        version: row.version,
        reason: 'Location corrected',
        changes: { locationOfGoods: 'NLRTMAPMT', notes: 'Broker fee 50' },
      });
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      const sent = await db.db
        .selectFrom('declaration_messages')
        .select(['kind', 'payload'])
        .where('declaration_id', '=', id)
        .where('direction', '=', 'sent')
        .execute();
      expect(sent.map((m) => m.kind).sort()).toEqual(['amendment_request', 'lodge']);
      expect(JSON.stringify(sent)).not.toMatch(/Broker fee|"notes"/);
    } finally {
      await real.close();
    }
  });
});

describe('values that fit their own column but not the computed ones answer 400, never 500', () => {
  const MAX_MONEY = '99999999999999.99';

  it('an item whose duty or VAT base overflows', async () => {
    const r = await call(
      'POST',
      '/declarations',
      staff,
      completeImport(partyId.ACME, {
        items: [importItem({ customsValue: MAX_MONEY, dutyRate: '9999.999', vatRate: '21' })],
      }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(fields(r.body)).toEqual(['items.0.customsValue']);
  });

  it('items whose totals overflow the header (customs value, packages, gross mass)', async () => {
    const d = await create({ type: 'import', customerId: partyId.ACME });
    const value = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      items: [1, 2].map(() => importItem({ customsValue: MAX_MONEY, dutyRate: null, vatRate: null })),
    });
    expect(value.status, JSON.stringify(value.body)).toBe(400);
    expect(fields(value.body)).toEqual(['items']);

    const packages = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      items: Array.from({ length: 22 }, () => importItem({ packages: 99_999_999 })),
    });
    expect(packages.status, JSON.stringify(packages.body)).toBe(400);
    expect(fields(packages.body)).toEqual(['items']);

    const mass = await call('PATCH', `/declarations/${d.id}`, staff, {
      version: d.version,
      items: Array.from({ length: 101 }, () =>
        importItem({ grossMassKg: '99999999999.999', netMassKg: '1', containers: [] }),
      ),
    });
    expect(mass.status, JSON.stringify(mass.body)).toBe(400);
    expect(fields(mass.body)).toEqual(['items']);

    const after = await call('GET', `/declarations/${d.id}`, staff);
    expect(after.body).toMatchObject({ version: d.version, items: [] });
  });

  it('an amendment whose content would overflow is refused before it reaches the authority', async () => {
    const d = await create(completeImport(partyId.ACME));
    const l = await call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version });
    expect(l.status, JSON.stringify(l.body)).toBe(200);
    const row = await db.db
      .updateTable('declarations')
      .set((eb) => ({ status: 'accepted', mrn: '26NL00039600000F11', version: eb('version', '+', 1) }))
      .where('id', '=', d.id)
      .returning('version')
      .executeTakeFirstOrThrow();
    const calls = recorder.calls.length;
    const r = await call('POST', `/declarations/${d.id}/amend`, staff, {
      version: row.version,
      reason: 'Values corrected',
      // A duty rate lodging accepts; the VAT base (value + duty) is twice what its column holds.
      changes: { items: [importItem({ customsValue: MAX_MONEY, dutyRate: '100' })] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(fields(r.body)).toEqual(['changes.items.0.customsValue']);
    expect(recorder.calls.length).toBe(calls);
  });
});

describe('odd input never answers 5xx', () => {
  it('on every declarations endpoint, for staff and customers', async () => {
    const d = await create({ type: 'import', customerId: partyId.ACME });
    const probes: [Parameters<typeof call>[0], string, Json | undefined][] = [
      ['GET', '/declarations?sort=-notes', undefined],
      ['GET', '/declarations?sort=lrn,,-mrn', undefined],
      ['GET', '/declarations?sort=__proto__', undefined],
      ['GET', '/declarations?from=2026-02-30', undefined],
      ['GET', '/declarations?reference=%25_%5C', undefined],
      ['GET', `/declarations?reference=${'x'.repeat(41)}`, undefined],
      ['GET', '/declarations?q=%25%27%22', undefined],
      ['GET', '/declarations?customerId=not-a-uuid', undefined],
      ['GET', '/declarations?type=import,customs', undefined],
      ['GET', '/declarations?cursor=abc', undefined],
      ['GET', '/declarations?pageSize=100000', undefined],
      ['GET', '/declarations?pendingRequest=maybe', undefined],
      ['GET', '/declarations/export?format=pdf', undefined],
      ['GET', '/declarations?type=&status=,&from=&reference=', undefined],
      ['GET', '/declarations?page=99999999999999&pageSize=200', undefined],
      ['GET', '/declarations?page=1e3', undefined],
      ['GET', '/declarations?from=0001-01-01&to=9999-12-31', undefined],
      ['GET', '/declarations?sort=-customsValue,mrn,lrn,status,createdAt', undefined],
      ['GET', '/declarations/export?format=xlsx&reference=%F0%9F%98%80', undefined],
      ['GET', `/declarations/${'A'.repeat(65)}`, undefined],
      ['GET', '/declarations/00000000-0000-0000-0000-00000000000g', undefined],
      ['GET', '/declarations/ffffffff-ffff-ffff-ffff-ffffffffffff', undefined],
      ['GET', `/declarations/${d.lrn.toLowerCase()}`, undefined],
      ['GET', '/declarations/%20/messages', undefined],
      ['PATCH', `/declarations/${d.id}`, { version: 2 ** 40 }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, invoiceTotal: 1e300 }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, exchangeRate: '1e5' }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, notes: 'x'.repeat(100_000) }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, lrn: null }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, items: null }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, declarant: {} }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, officesOfTransit: [''] }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, items: [{ packages: 1e10 }] }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, items: [{ dutyRate: '99999' }] }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, items: [{ grossMassKg: 1e12 }] }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, items: [{ previousDocuments: [{}] }] }],
      ['PATCH', `/declarations/${d.id}`, { version: d.version, items: [{ packageKind: 5 }] }],
      ['POST', '/declarations', { type: 'import', customerId: partyId.ACME, lrn: 'lrn-lower-1' }],
      ['POST', '/declarations', { type: 'import', dossierId: null, customerId: partyId.ACME }],
      ['POST', '/declarations', { type: 'import', customerId: '00000000-0000-0000-0000-000000000000' }],
      ['POST', '/declarations', { type: 'import', dossierId: '00000000-0000-0000-0000-000000000000' }],
      ['POST', '/declarations', { type: 'import', copyOf: '00000000-0000-0000-0000-000000000000' }],
      ['POST', '/declarations', { type: 'transit', customerId: partyId.ACME, category: 'H1' }],
      ['POST', `/declarations/${d.id}/lodge`, { version: 'one' }],
      ['POST', `/declarations/${d.id}/lodge`, {}],
      ['POST', `/declarations/${d.id}/amend`, { version: d.version, reason: 'x', changes: {} }],
      ['POST', `/declarations/${d.id}/amend`, { version: d.version, reason: '', changes: { notes: 'x' } }],
      ['POST', `/declarations/${d.id}/cancel`, { version: d.version, reason: 'x'.repeat(501) }],
      ['DELETE', '/declarations/NO-SUCH-LRN', undefined],
    ];
    const fives: string[] = [];
    for (const [method, url, body] of probes)
      for (const auth of [staff, acme]) {
        const r = await call(method, url, auth, body);
        if (r.status >= 500)
          fives.push(`${method} ${url} ${JSON.stringify(body)?.slice(0, 80)} → ${r.status}`);
      }
    expect(fives).toEqual([]);
  });
});

describe('integrity', () => {
  it('an upload racing the deletion of its draft leaves no document on a missing declaration', async () => {
    const draft = await create({ type: 'import', customerId: partyId.ACME });
    // The deletion holds the row lock (as DELETE does between its document check and its delete).
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked: () => void = () => {};
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const deletion = db.db.transaction().execute(async (trx) => {
      await sql`select id from declarations where id = ${draft.id} for update`.execute(trx);
      locked();
      await held;
      await trx.deleteFrom('declarations').where('id', '=', draft.id).execute();
    });
    await isLocked;
    const pending = upload(draft.id, 'false');
    await new Promise((r) => setTimeout(r, 300));
    release();
    await deletion;
    const res = await pending;
    expect(res.statusCode, res.body).toBe(400);
    const orphans = await db.db
      .selectFrom('documents')
      .select('id')
      .where('record_type', '=', 'declaration')
      .where('record_id', '=', draft.id)
      .execute();
    expect(orphans).toEqual([]);
  });

  it('the series skips an LRN that was entered by hand, rather than refusing every new declaration', async () => {
    const first = await create({ type: 'import', customerId: partyId.ACME });
    const m = /^(.*?)(\d+)$/.exec(first.lrn) as RegExpExecArray;
    const next = `${m[1]}${String(Number(m[2]) + 1).padStart((m[2] as string).length, '0')}`;
    const manual = await create({ type: 'import', customerId: partyId.ACME, lrn: next });
    expect(manual.lrn).toBe(next);
    const after = await call('POST', '/declarations', staff, { type: 'import', customerId: partyId.ACME });
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    expect(after.body.lrn).not.toBe(next);
  });

  it('a party or dossier a declaration names is not deleted under it: 409, not 500', async () => {
    const made = await call('POST', '/parties', staff, {
      code: 'DECLONLY',
      name: 'Declaration Only B.V.',
      kinds: ['customer'],
      countryCode: 'NL',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const declOnlyId = made.body.id as string;
    await create({ type: 'import', customerId: declOnlyId });
    const p = await call('DELETE', `/parties/${declOnlyId}`, admin);
    expect(p.status, JSON.stringify(p.body)).toBe(409);

    const dossier = await call('POST', '/dossiers', staff, {
      type: 'import',
      mode: 'sea',
      customerId: partyId.ACME,
    });
    expect(dossier.status, JSON.stringify(dossier.body)).toBe(201);
    await create({ type: 'import', dossierId: dossier.body.id as string });
    const d = await call('DELETE', `/dossiers/${dossier.body.id}`, admin);
    expect(d.status, JSON.stringify(d.body)).toBe(409);
  });

  it('lodging twice at once lodges once', async () => {
    const d = await create(completeImport(partyId.ACME));
    const before = recorder.calls.length;
    const [a, b] = await Promise.all([
      call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version }),
      call('POST', `/declarations/${d.id}/lodge`, staff, { version: d.version }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(recorder.calls.slice(before).filter((c) => c.declarationId === d.id)).toHaveLength(1);
  });
});
