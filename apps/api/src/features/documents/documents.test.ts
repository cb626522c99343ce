import { createHash, randomBytes } from 'node:crypto';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { RecordChanged } from '@fvg/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { type Auth, apiTest } from '../../test/api-test.ts';
import { createTestApp } from '../../test/helpers.ts';
import { documentsRepository } from './documents.repository.ts';
import { sweepOrphanFiles } from './orphans.ts';
import { minimalPdf, seedDocuments } from './seed-documents.ts';
import { LocalDiskStore, newStorageKey } from './storage.ts';

const setup = apiTest({ files: 'fvg-documents-' });
const { db, staff, acme, globex, partyId } = setup;
let store: LocalDiskStore;
let acmeDossier: { id: string; number: string };
let globexDossier: { id: string; number: string };
const changes: (RecordChanged & { partyIds?: string[] })[] = [];

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = minimalPdf('Bill of lading MSKU6011672');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

type Json = Record<string, unknown>;
type Doc = {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  duplicateOf: string | null;
  visibleToCustomer: boolean;
  version: number;
  documentType: string;
  dossier: { id: string; number: string } | null;
};
interface FilePart {
  filename: string;
  content: Buffer;
  field?: string;
}

function quoted(s: string): string {
  return s.replace(/["\\]/g, (c) => `\\${c}`);
}

/** A multipart/form-data body built by hand, so the test controls every byte (names included). */
function form(fields: Record<string, string>, files: FilePart[]) {
  const boundary = `----fvg${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'files'}"; filename="${quoted(f.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  auth: Auth | undefined,
  fields: Record<string, string>,
  files: FilePart[],
  target: App = setup.app,
) {
  const body = form(fields, files);
  const res = await target.inject({
    method: 'POST',
    url: '/api/documents',
    headers: { ...(auth ?? {}), ...body.headers },
    payload: body.payload,
  });
  return {
    status: res.statusCode,
    body: res.json() as Json,
    headers: res.headers,
    items: ((res.json() as { items?: Doc[] }).items ?? []) as Doc[],
  };
}

const onDossier = (d: { id: string }, over: Record<string, string> = {}) => ({
  recordType: 'dossier',
  recordId: d.id,
  documentType: 'bill_of_lading',
  visibleToCustomer: 'true',
  ...over,
});

async function call(method: 'GET' | 'PATCH' | 'DELETE', url: string, auth: Auth | undefined, payload?: Json) {
  const res = await setup.app.inject({
    method,
    url: `/api${url}`,
    headers: auth ?? {},
    ...(payload ? { payload } : {}),
  });
  const isJson = /json/.test(String(res.headers['content-type'] ?? ''));
  return { status: res.statusCode, body: (isJson ? res.json() : {}) as Json, headers: res.headers, res };
}
const fields = (body: Json) => ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);

async function storedFiles(): Promise<string[]> {
  const keys: string[] = [];
  for await (const f of store.list('')) keys.push(f.key);
  return keys.sort();
}

async function newDossier(customerId: string): Promise<{ id: string; number: string }> {
  const res = await setup.app.inject({
    method: 'POST',
    url: '/api/dossiers',
    headers: staff,
    payload: { type: 'import', mode: 'sea', customerId },
  });
  expect(res.statusCode).toBe(201);
  const { id, number } = res.json() as { id: string; number: string };
  return { id, number };
}

beforeAll(async () => {
  store = new LocalDiskStore(path.join(setup.dataDir, 'files'));
  setup.app.services.events.subscribe((c) => {
    changes.push(c);
  });
  acmeDossier = await newDossier(partyId.ACME);
  globexDossier = await newDossier(partyId.GLOBEX);
});

describe('uploading', () => {
  it('stores a PDF and a PNG sent in one request, with type from the bytes, size and SHA-256', async () => {
    const r = await upload(staff, onDossier(acmeDossier), [
      { filename: 'BL 4711.pdf', content: PDF },
      { filename: 'photo.png', content: PNG },
    ]);
    expect(r.status).toBe(201);
    expect(r.items).toHaveLength(2);
    expect(r.items[0]).toMatchObject({
      recordType: 'dossier',
      recordId: acmeDossier.id,
      dossier: acmeDossier,
      fileName: 'BL 4711.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
      sha256: sha(PDF),
      documentType: 'bill_of_lading',
      visibleToCustomer: true,
      duplicateOf: null,
      version: 1,
      uploadedBy: { name: expect.any(String) },
    });
    expect(r.items[1]).toMatchObject({ contentType: 'image/png', size: PNG.length, sha256: sha(PNG) });
    // The bytes are in the store under a server-made key, not the user's file name.
    const rows = await db.db
      .selectFrom('documents')
      .select(['id', 'storage_key'])
      .where(
        'id',
        'in',
        r.items.map((d) => d.id),
      )
      .execute();
    for (const row of rows) {
      expect(row.storage_key).toMatch(/^d[0-9a-f]{16}\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
      expect(await store.exists(row.storage_key)).toBe(true);
    }
    const history = await call('GET', `/documents/${r.items[0]?.id}/history`, staff);
    expect(history.body).toEqual([
      expect.objectContaining({
        action: 'uploaded',
        changes: expect.arrayContaining([{ field: 'fileName', from: null, to: 'BL 4711.pdf' }]),
      }),
    ]);
  });

  it('trusts the bytes, not the name: x.pdf that is really a PNG is stored as a PNG', async () => {
    const r = await upload(staff, onDossier(acmeDossier), [{ filename: 'x.pdf', content: PNG }]);
    expect(r.status).toBe(201);
    expect(r.items[0]).toMatchObject({ fileName: 'x.pdf', contentType: 'image/png' });
  });

  it('flags the same bytes uploaded again to the same record as a duplicate, not on another record', async () => {
    const bytes = minimalPdf('duplicate check');
    const first = await upload(staff, onDossier(acmeDossier), [{ filename: 'a.pdf', content: bytes }]);
    const again = await upload(staff, onDossier(acmeDossier), [
      { filename: 'b.pdf', content: bytes },
      { filename: 'c.pdf', content: bytes },
    ]);
    const elsewhere = await upload(staff, onDossier(globexDossier), [{ filename: 'a.pdf', content: bytes }]);
    expect(first.items[0]?.duplicateOf).toBeNull();
    expect(again.status).toBe(201);
    expect(again.items.map((d) => d.duplicateOf)).toEqual([first.items[0]?.id, first.items[0]?.id]);
    expect(again.items[0]?.sha256).toBe(sha(bytes));
    expect(elsewhere.items[0]?.duplicateOf).toBeNull();
  });

  it('answers 413 naming the limit, and leaves no file behind', async () => {
    const small = await createTestApp(db, { dataDir: setup.dataDir, documentMaxBytes: 64 * 1024 });
    try {
      const before = await storedFiles();
      const big = Buffer.concat([PDF, Buffer.alloc(64 * 1024)]);
      const r = await upload(
        staff,
        onDossier(acmeDossier),
        [
          { filename: 'ok.pdf', content: PDF },
          { filename: 'big.pdf', content: big },
        ],
        small,
      );
      expect(r.status).toBe(413);
      expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(r.body.detail).toBe('“big.pdf” is larger than the limit of 64 KB (65536 bytes) per file.');
      expect(r.body.errors).toEqual([{ field: 'files.1', message: 'Larger than 64 KB' }]);
      // Neither the partial big file nor the complete first one of the same request remains.
      expect(await storedFiles()).toEqual(before);
      const exact = await upload(
        staff,
        onDossier(acmeDossier),
        [{ filename: 'exact.pdf', content: Buffer.concat([PDF, Buffer.alloc(64 * 1024 - PDF.length)]) }],
        small,
      );
      expect(exact.status).toBe(201);
      expect(exact.items[0]?.size).toBe(64 * 1024);
      // The browser learns the same limit before it sends anything.
      const limits = await small.inject({
        method: 'GET',
        url: '/api/documents/limits',
        headers: staff,
      });
      expect(limits.statusCode).toBe(200);
      expect(limits.json()).toMatchObject({ maxBytes: 64 * 1024, maxFiles: 20 });
      expect(limits.json().contentTypes).toEqual(
        expect.arrayContaining(['application/pdf', 'image/png', 'text/csv']),
      );
      expect((await small.inject({ method: 'GET', url: '/api/documents/limits' })).statusCode).toBe(401);
    } finally {
      await small.close();
    }
  });

  it('refuses types outside the allow-list with 415 and the detected type', async () => {
    const before = await storedFiles();
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(500)]);
    const r = await upload(staff, onDossier(acmeDossier), [
      { filename: 'fine.pdf', content: PDF },
      { filename: 'invoice.pdf', content: elf },
    ]);
    expect(r.status).toBe(415);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(r.body.detail).toMatch(
      /^“invoice\.pdf” is not an accepted type: it is an ELF executable \(application\/x-executable\)/,
    );
    expect(r.body.errors).toEqual([
      { field: 'files.1', message: 'application/x-executable is not accepted' },
    ]);
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), randomBytes(200)]);
    const r2 = await upload(staff, onDossier(acmeDossier), [{ filename: 'setup.exe', content: exe }]);
    expect(r2.status).toBe(415);
    expect(r2.body.detail).toMatch(/application\/vnd\.microsoft\.portable-executable/);
    const html = await upload(staff, onDossier(acmeDossier), [
      { filename: 'x.xml', content: Buffer.from('<!doctype html><script>alert(1)</script>') },
    ]);
    expect(html.status).toBe(415);
    expect(html.body.detail).toMatch(/text\/html/);
    const text = await upload(staff, onDossier(acmeDossier), [
      {
        filename: 'notes.csv',
        content: Buffer.concat([Buffer.from('a,b\n1,2\n'), Buffer.from([0xff, 0xfe])]),
      },
    ]);
    expect(text.status).toBe(415);
    expect(await storedFiles()).toEqual(before);
  });

  it('accepts CSV, XML and e-mail (EML) by their bytes', async () => {
    const r = await upload(staff, onDossier(acmeDossier, { documentType: 'other' }), [
      { filename: 'lines.csv', content: Buffer.from('sku;qty\nA-1;5\nÄ-2;7\n') },
      { filename: 'invoice.ubl', content: Buffer.from('<?xml version="1.0"?><Invoice xmlns="urn:x"/>') },
      {
        filename: 'mail.eml',
        content: Buffer.from('From: a@b.example\r\nTo: c@d.example\r\nSubject: BL\r\n\r\nHello'),
      },
    ]);
    expect(r.status).toBe(201);
    expect(r.items.map((d) => d.contentType)).toEqual(['text/csv', 'application/xml', 'message/rfc822']);
  });

  it('answers 400 problem+json with field paths, 403 to customers, 401 without a token, 415 to non-multipart', async () => {
    const missing = await upload(staff, {}, [{ filename: 'a.pdf', content: PDF }]);
    expect(missing.status).toBe(400);
    expect(fields(missing.body).sort()).toEqual(['documentType', 'recordId', 'recordType']);
    const bad = await upload(staff, { ...onDossier(acmeDossier), documentType: 'passport', extra: 'x' }, [
      { filename: 'a.pdf', content: PDF },
    ]);
    expect(fields(bad.body).sort()).toEqual(['documentType', 'extra']);
    const noDossier = await upload(staff, onDossier({ id: '00000000-0000-4000-8000-000000000000' }), [
      { filename: 'a.pdf', content: PDF },
    ]);
    expect(noDossier.status).toBe(400);
    expect(noDossier.body.errors).toEqual([{ field: 'recordId', message: 'No such dossier' }]);
    const transport = await upload(staff, onDossier(acmeDossier, { recordType: 'transport' }), [
      { filename: 'a.pdf', content: PDF },
    ]);
    expect(transport.status).toBe(400);
    expect(transport.body.errors).toEqual([{ field: 'recordId', message: 'No such transport' }]);
    const noFiles = await upload(staff, onDossier(acmeDossier), []);
    expect(noFiles.status).toBe(400);
    expect(noFiles.body.errors).toEqual([{ field: 'files', message: 'Attach at least one file' }]);
    const empty = await upload(staff, onDossier(acmeDossier), [
      { filename: 'e.pdf', content: Buffer.alloc(0) },
    ]);
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'files.0', message: '“e.pdf” is empty' }]);
    const wrongField = await upload(staff, onDossier(acmeDossier), [
      { filename: 'a.pdf', content: PDF, field: 'attachment' },
    ]);
    expect(fields(wrongField.body)).toEqual(['attachment']);
    expect((await upload(acme, onDossier(acmeDossier), [{ filename: 'a.pdf', content: PDF }])).status).toBe(
      403,
    );
    expect(
      (await upload(undefined, onDossier(acmeDossier), [{ filename: 'a.pdf', content: PDF }])).status,
    ).toBe(401);
    const json = await setup.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: staff,
      payload: onDossier(acmeDossier),
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().detail).toMatch(/multipart\/form-data/);
  });
});

describe('on a transport', () => {
  it('attaches to a leg: listed for the leg and on its dossier’s tab, in its customer’s scope', async () => {
    const leg = await setup.app.inject({
      method: 'POST',
      url: '/api/transports',
      headers: staff,
      payload: { dossierId: acmeDossier.id, mode: 'road', truckPlate: 'DOC-1' },
    });
    expect(leg.statusCode).toBe(201);
    const legId = (leg.json() as { id: string }).id;
    const up = await upload(
      staff,
      onDossier({ id: legId }, { recordType: 'transport', documentType: 'cmr' }),
      [{ filename: 'cmr.pdf', content: minimalPdf('CMR DOC-1') }],
    );
    expect(up.status).toBe(201);
    expect(up.items[0]).toMatchObject({
      recordType: 'transport',
      recordId: legId,
      dossier: { id: acmeDossier.id, number: acmeDossier.number },
    });
    const docId = up.items[0]?.id;
    const forLeg = await call('GET', `/documents?recordType=transport&recordId=${legId}`, staff);
    expect((forLeg.body.items as Doc[]).map((d) => d.id)).toEqual([docId]);
    const tab = await call('GET', `/dossiers/${acmeDossier.id}/documents?pageSize=200`, staff);
    expect((tab.body.items as Doc[]).map((d) => d.id)).toContain(docId);
    // The /documents filter by dossier covers its legs' documents too; by the dossier as record, not.
    const ofDossier = await call('GET', `/documents?dossierId=${acmeDossier.id}&pageSize=200`, staff);
    expect((ofDossier.body.items as Doc[]).map((d) => d.id)).toContain(docId);
    const asRecord = await call(
      'GET',
      `/documents?recordType=dossier&recordId=${acmeDossier.id}&pageSize=200`,
      staff,
    );
    expect((asRecord.body.items as Doc[]).map((d) => d.id)).not.toContain(docId);
    expect((await call('GET', `/documents?dossierId=${acmeDossier.id}`, globex)).body.detail).toBe(
      'No such dossier.',
    );
    // ACME's customer sees it (visible, their dossier); GLOBEX's neither the leg nor the document.
    expect((await call('GET', `/documents/${docId}`, acme)).status).toBe(200);
    expect((await call('GET', `/documents/${docId}`, globex)).status).toBe(404);
    expect((await call('GET', `/documents?recordType=transport&recordId=${legId}`, globex)).body.detail).toBe(
      'No such transport.',
    );
  });
});

describe('downloading', () => {
  it('sends the bytes with type, length, attachment disposition and nosniff', async () => {
    const up = await upload(staff, onDossier(acmeDossier), [{ filename: 'Rechnung.pdf', content: PDF }]);
    const id = up.items[0]?.id;
    const r = await call('GET', `/documents/${id}/content`, staff);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['content-length']).toBe(String(PDF.length));
    expect(r.headers['content-disposition']).toBe(
      `attachment; filename="Rechnung.pdf"; filename*=UTF-8''Rechnung.pdf`,
    );
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.res.rawPayload.equals(PDF)).toBe(true);
  });

  it('shows PDF and images inline on request, and downloads everything else', async () => {
    const up = await upload(staff, onDossier(acmeDossier), [
      { filename: 'p.pdf', content: PDF },
      { filename: 'i.png', content: PNG },
      { filename: 'd.xml', content: Buffer.from('<?xml version="1.0"?><a/>') },
      { filename: 'l.csv', content: Buffer.from('a,b\n') },
    ]);
    const disposition = async (i: number) =>
      String(
        (await call('GET', `/documents/${up.items[i]?.id}/content?inline=1`, staff)).headers[
          'content-disposition'
        ],
      );
    expect(await disposition(0)).toMatch(/^inline; /);
    expect(await disposition(1)).toMatch(/^inline; /);
    expect(await disposition(2)).toMatch(/^attachment; /);
    expect(await disposition(3)).toMatch(/^attachment; /);
    const csv = await call('GET', `/documents/${up.items[3]?.id}/content`, staff);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it('makes hostile names harmless: no path, no quotes, no line breaks; UTF-8 names kept in filename*', async () => {
    const up = await upload(staff, onDossier(acmeDossier), [
      { filename: '../../etc/passwd".pdf', content: PDF },
      { filename: 'Überweisung №5 – 東京.pdf', content: PDF },
    ]);
    expect(up.items.map((d) => d.fileName)).toEqual(['passwd.pdf', 'Überweisung №5 – 東京.pdf']);
    const utf8 = await call('GET', `/documents/${up.items[1]?.id}/content`, staff);
    expect(utf8.headers['content-disposition']).toBe(
      `attachment; filename="Uberweisung No5 _ __.pdf"; filename*=UTF-8''${encodeURIComponent('Überweisung №5 – 東京.pdf')}`,
    );

    // Renaming goes through the same sanitising.
    const id = up.items[0]?.id as string;
    const renamed = await call('PATCH', `/documents/${id}`, staff, {
      version: 1,
      fileName: '../../etc/passwd"\r\n.pdf',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.fileName).toBe('passwd.pdf');

    // Even a name that bypassed both (written straight into the table) cannot break the header.
    await db.db
      .updateTable('documents')
      .set({ file_name: '..\\..\\evil"\r\nX-Injected: 1;.pdf' })
      .where('id', '=', id)
      .execute();
    const r = await call('GET', `/documents/${id}/content`, staff);
    expect(r.status).toBe(200);
    expect(r.headers['x-injected']).toBeUndefined();
    const header = String(r.headers['content-disposition']);
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toMatch(/^attachment; filename="[^"\\/]*"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/);
    expect(header).not.toContain('/');
  });
});

describe('scoping', () => {
  let acmeVisible: Doc;
  let acmeHidden: Doc;
  let globexVisible: Doc;
  beforeAll(async () => {
    acmeVisible = (
      await upload(staff, onDossier(acmeDossier, { documentType: 'proof_of_delivery' }), [
        { filename: 'pod-acme.pdf', content: minimalPdf('pod acme') },
      ])
    ).items[0] as Doc;
    acmeHidden = (
      await upload(staff, onDossier(acmeDossier, { visibleToCustomer: 'false', documentType: 'other' }), [
        { filename: 'internal-costing.pdf', content: minimalPdf('internal') },
      ])
    ).items[0] as Doc;
    globexVisible = (
      await upload(staff, onDossier(globexDossier), [
        { filename: 'globex.pdf', content: minimalPdf('globex') },
      ])
    ).items[0] as Doc;
  });

  it('a customer lists only visible documents of their own dossiers', async () => {
    const list = await call('GET', '/documents?pageSize=200', acme);
    const items = list.body.items as Doc[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((d) => d.visibleToCustomer && d.dossier?.id === acmeDossier.id)).toBe(true);
    expect(items.map((d) => d.id)).toContain(acmeVisible.id);
    expect(items.map((d) => d.id)).not.toContain(acmeHidden.id);
    const all = await call('GET', '/documents?pageSize=200', staff);
    expect((all.body.items as Doc[]).map((d) => d.id)).toEqual(
      expect.arrayContaining([acmeVisible.id, acmeHidden.id, globexVisible.id]),
    );
    const tab = await call('GET', `/dossiers/${acmeDossier.number}/documents?pageSize=200`, acme);
    expect((tab.body.items as Doc[]).every((d) => d.visibleToCustomer)).toBe(true);
    expect((tab.body.items as Doc[]).map((d) => d.id)).toContain(acmeVisible.id);
    const staffTab = await call('GET', `/dossiers/${acmeDossier.id}/documents?pageSize=200`, staff);
    expect((staffTab.body.items as Doc[]).map((d) => d.id)).toContain(acmeHidden.id);
  });

  it('another party’s and invisible documents answer 404 everywhere, like missing ones', async () => {
    for (const id of [acmeHidden.id, globexVisible.id, '00000000-0000-4000-8000-000000000000']) {
      for (const url of [`/documents/${id}`, `/documents/${id}/content`, `/documents/${id}/history`]) {
        const r = await call('GET', url, acme);
        expect(r.status, url).toBe(404);
        expect(r.body.detail).toBe('This document does not exist.');
      }
    }
    expect((await call('GET', `/dossiers/${globexDossier.id}/documents`, acme)).status).toBe(404);
    expect(
      (await call('GET', `/documents?recordType=dossier&recordId=${globexDossier.id}`, acme)).status,
    ).toBe(404);
    expect((await call('GET', `/documents/${globexVisible.id}`, globex)).status).toBe(200);
    expect((await call('GET', `/documents/${acmeVisible.id}/content`, acme)).status).toBe(200);
  });

  it('customers cannot change or delete documents', async () => {
    expect(
      (await call('PATCH', `/documents/${acmeVisible.id}`, acme, { version: 1, fileName: 'x' })).status,
    ).toBe(403);
    expect((await call('DELETE', `/documents/${acmeVisible.id}`, acme)).status).toBe(403);
    expect((await call('DELETE', `/documents/${globexVisible.id}`, acme)).status).toBe(404);
  });

  it('announces changes to staff, and to the customer only while the document is visible to them', async () => {
    const acmeId = (
      await db.db.selectFrom('parties').select('id').where('code', '=', 'ACME').executeTakeFirst()
    )?.id;
    const of = (id: string) => changes.filter((c) => c.id === id);
    expect(of(acmeVisible.id)).toEqual([
      { kind: 'document', id: acmeVisible.id, action: 'created', partyIds: [acmeId] },
    ]);
    expect(of(acmeHidden.id)).toEqual([
      { kind: 'document', id: acmeHidden.id, action: 'created', partyIds: [] },
    ]);
    await call('PATCH', `/documents/${acmeHidden.id}`, staff, { version: 1, visibleToCustomer: true });
    await call('PATCH', `/documents/${acmeHidden.id}`, staff, { version: 2, visibleToCustomer: false });
    await call('PATCH', `/documents/${acmeHidden.id}`, staff, { version: 3, documentType: 'packing_list' });
    expect(
      of(acmeHidden.id)
        .slice(1)
        .map((c) => c.partyIds),
    ).toEqual([[acmeId], [acmeId], []]);
  });
});

describe('listing, editing and deleting', () => {
  it('filters by type, record, date and file name, and exports', async () => {
    const up = await upload(staff, onDossier(globexDossier, { documentType: 'certificate_of_origin' }), [
      { filename: 'CoO-zebra-4711.pdf', content: minimalPdf('coo') },
    ]);
    const id = up.items[0]?.id;
    const ids = async (query: string) =>
      ((await call('GET', `/documents?pageSize=200&${query}`, staff)).body.items as Doc[]).map((d) => d.id);
    expect(await ids('type=certificate_of_origin')).toEqual([id]);
    expect(await ids('q=zebra')).toEqual([id]);
    expect(await ids(`recordType=dossier&recordId=${globexDossier.id}&q=zebra`)).toEqual([id]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids(`uploadedFrom=${today}&uploadedTo=${today}&q=zebra`)).toEqual([id]);
    expect(await ids('uploadedTo=2000-01-01')).toEqual([]);
    expect(await ids('recordType=invoice')).toEqual([]);
    const bySize = ((await call('GET', '/documents?sort=-size&pageSize=5', staff)).body.items as Doc[]).map(
      (d) => d.size,
    );
    expect(bySize).toEqual([...bySize].sort((a, b) => b - a));
    const bad = await call('GET', '/documents?type=passport&uploadedFrom=yesterday', staff);
    expect(bad.status).toBe(400);
    expect(fields(bad.body).sort()).toEqual(['type.0', 'uploadedFrom']);
    // Upload days in the browser's zone: a day that has not started yet anywhere has nothing.
    expect(await ids('uploadedFrom=2999-01-01&tz=Pacific/Kiritimati')).toEqual([]);
    expect(
      fields((await call('GET', '/documents?uploadedFrom=2026-01-01&tz=Mars/Olympus', staff)).body),
    ).toEqual(['tz']);
    const csv = await call('GET', '/documents?format=csv&q=zebra', staff);
    expect(csv.res.body).toContain('CoO-zebra-4711.pdf');
    expect(
      (await call('GET', `/documents?recordType=transport&recordId=${globexDossier.id}`, staff)).body.detail,
    ).toBe('No such transport.');
  });

  it('edits with the version read, audits the change and refuses a stale version', async () => {
    const up = await upload(staff, onDossier(acmeDossier), [
      { filename: 'draft.pdf', content: minimalPdf('edit') },
    ]);
    const id = up.items[0]?.id as string;
    const ok = await call('PATCH', `/documents/${id}`, staff, {
      version: 1,
      documentType: 'commercial_invoice',
      visibleToCustomer: false,
      fileName: 'Invoice 17.pdf',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      version: 2,
      documentType: 'commercial_invoice',
      fileName: 'Invoice 17.pdf',
    });
    const stale = await call('PATCH', `/documents/${id}`, staff, { version: 1, fileName: 'lost.pdf' });
    expect(stale.status).toBe(409);
    expect(fields(stale.body)).toEqual(['version']);
    const unknown = await call('PATCH', `/documents/${id}`, staff, { version: 2, sha256: 'x' });
    expect(unknown.status).toBe(400);
    expect(fields(unknown.body)).toEqual(['sha256']);
    const history = (await call('GET', `/documents/${id}/history`, staff)).body as unknown as {
      action: string;
      changes: unknown[];
    }[];
    expect(history[0]).toMatchObject({
      action: 'updated',
      changes: [
        { field: 'documentType', from: 'bill_of_lading', to: 'commercial_invoice' },
        { field: 'visibleToCustomer', from: true, to: false },
        { field: 'fileName', from: 'draft.pdf', to: 'Invoice 17.pdf' },
      ],
    });
  });

  it('deletes the row, then the file, with an audit entry', async () => {
    const up = await upload(staff, onDossier(acmeDossier), [
      { filename: 'gone.pdf', content: minimalPdf('gone') },
    ]);
    const id = up.items[0]?.id as string;
    const { storage_key } = await db.db
      .selectFrom('documents')
      .select('storage_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect((await call('DELETE', `/documents/${id}`, staff)).status).toBe(204);
    expect(await store.exists(storage_key)).toBe(false);
    expect((await call('GET', `/documents/${id}`, staff)).status).toBe(404);
    const audit = await db.db
      .selectFrom('audit_log')
      .select('action')
      .where('record_id', '=', id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['uploaded', 'deleted']);
  });
});

describe('crash safety', () => {
  it('sweeps files without a row (a crash between file and row, a .partial leftover), keeps the rest', async () => {
    const ns = await documentsRepository(db.db).namespace();
    const orphan = newStorageKey(ns);
    await store.put(orphan, [Buffer.from('%PDF-1.4 orphan')], { maxBytes: 1000 });
    // What a crash in the middle of writing leaves: a temporary file next to where the file would go.
    const partial = `${ns}/2020/01/.0b6c1d2e-aaaa-4bbb-8ccc-123456789abc.1234.partial`;
    await mkdir(path.dirname(store.pathOf(partial)), { recursive: true });
    await writeFile(store.pathOf(partial), 'half a file');
    const withRows = (await db.db.selectFrom('documents').select('storage_key').execute()).map(
      (r) => r.storage_key,
    );

    // Young orphans are left alone: an upload may still be about to insert their rows.
    const young = await sweepOrphanFiles(db.db, store, { olderThanMs: 60 * 60 * 1000 });
    expect(young.deleted).toEqual([]);
    const swept = await sweepOrphanFiles(db.db, store, { olderThanMs: 0 });
    expect(swept.deleted.sort()).toEqual([orphan, partial].sort());
    for (const key of withRows) expect(await store.exists(key), key).toBe(true);
    expect(await store.exists(orphan)).toBe(false);
  });

  it('runs the sweep when the server starts, for old orphans', async () => {
    const ns = await documentsRepository(db.db).namespace();
    const old = newStorageKey(ns, new Date('2020-05-01'));
    await store.put(old, [Buffer.from('%PDF old')], { maxBytes: 100 });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(store.pathOf(old), twoDaysAgo, twoDaysAgo);
    const other = await createTestApp(db, { dataDir: setup.dataDir });
    try {
      for (let i = 0; i < 100 && (await store.exists(old)); i++) await new Promise((r) => setTimeout(r, 50));
      expect(await store.exists(old)).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('answers 410 Gone for a row whose file is missing', async () => {
    const up = await upload(staff, onDossier(acmeDossier), [
      { filename: 'lost.pdf', content: minimalPdf('lost') },
    ]);
    const id = up.items[0]?.id as string;
    const { storage_key } = await db.db
      .selectFrom('documents')
      .select('storage_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await store.delete(storage_key);
    const r = await call('GET', `/documents/${id}/content`, staff);
    expect(r.status).toBe(410);
    expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(r.body.detail).toBe(
      'The file of “lost.pdf” is missing from storage. The document record remains: upload the file again, or delete the record.',
    );
    // The row itself is still there and can be deleted.
    expect((await call('GET', `/documents/${id}`, staff)).status).toBe(200);
    expect((await call('DELETE', `/documents/${id}`, staff)).status).toBe(204);
  });
});

describe('streaming', () => {
  it('streams a 20 MB upload to storage while it arrives (never held whole in memory)', async () => {
    const size = 20 * 1024 * 1024;
    const boundary = '----fvgstream';
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const hash = createHash('sha256');
    let sent = 0;
    let partialSeenAt = -1;
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    async function* body() {
      for (const [name, value] of Object.entries(onDossier(acmeDossier))) {
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        );
      }
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      const head = Buffer.from('%PDF-1.4\n');
      hash.update(head);
      sent += head.length;
      yield head;
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        hash.update(part);
        sent += part.length;
        yield part;
        // Half way through the request, the store already holds a growing partial file.
        if (partialSeenAt < 0 && sent > size / 2) {
          for await (const f of store.list(''))
            if (f.key.endsWith('.partial') && f.size > 0) partialSeenAt = sent;
        }
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const res = await setup.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...staff, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Readable.from(body()),
    });
    expect(res.statusCode).toBe(201);
    const doc = (res.json() as { items: Doc[] }).items[0];
    expect(doc).toMatchObject({ size, sha256: hash.digest('hex'), contentType: 'application/pdf' });
    expect(partialSeenAt).toBeGreaterThan(0);
    expect(partialSeenAt).toBeLessThan(size);
    // Memory grew by far less than the file (chunks come and go).
    expect(rssPeak - rssBefore).toBeLessThan(size / 2);
  });
});

describe('over a real connection', () => {
  it('reads a refused upload to its end, so the client still sending receives the 413 or 415', async () => {
    const small = await createTestApp(db, { dataDir: setup.dataDir, documentMaxBytes: 1024 * 1024 });
    const address = await small.listen({ port: 0, host: '127.0.0.1' });
    try {
      const send = async (content: Buffer) => {
        const body = form(onDossier(acmeDossier), [
          { filename: 'a.pdf', content },
          { filename: 'b.pdf', content: PDF },
        ]);
        const res = await fetch(`${address}/api/documents`, {
          method: 'POST',
          headers: { ...staff, ...body.headers },
          body: body.payload,
        });
        return { status: res.status, body: (await res.json()) as Json };
      };
      const tooBig = await send(Buffer.concat([PDF, Buffer.alloc(8 * 1024 * 1024)]));
      expect(tooBig.status).toBe(413);
      expect(tooBig.body.detail).toMatch(/limit of 1 MB/);
      const refused = await send(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(8 * 1024 * 1024)]));
      expect(refused.status).toBe(415);
      // The same server keeps answering normally afterwards.
      const ok = await send(PDF);
      expect(ok.status).toBe(201);
      // On one kept-alive connection, the request after a refused upload is still answered.
      const { port } = new URL(address);
      const bad = form(onDossier(acmeDossier), [
        { filename: 'x.exe', content: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4 * 1024 * 1024)]) },
      ]);
      const request = (body: { payload: Buffer; headers: Record<string, string> }) =>
        Buffer.concat([
          Buffer.from(
            `POST /api/documents HTTP/1.1\r\nHost: x\r\nAuthorization: ${staff.authorization}\r\nContent-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
          ),
          body.payload,
        ]);
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (d) => {
        received += d.toString('latin1');
      });
      socket.write(request(bad));
      socket.write(request(form(onDossier(acmeDossier), [{ filename: 'ok.pdf', content: PDF }])));
      for (let i = 0; i < 200 && !/HTTP\/1\.1 201[\s\S]*\}$/.test(received); i++)
        await new Promise((r) => setTimeout(r, 25));
      socket.destroy();
      expect(received.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 415', 'HTTP/1.1 201']);
    } finally {
      await small.close();
    }
  });
});

describe('volume seed', () => {
  it('creates documents with real small files for every dossier, or rows only', async () => {
    const before = Number(
      (
        await db.db
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const dossiers = Number(
      (
        await db.db
          .selectFrom('dossiers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const r = await seedDocuments(db.db, store, { perDossier: 3 });
    expect(r).toMatchObject({ rows: dossiers * 3, files: dossiers * 3 });
    const list = await call('GET', `/dossiers/${acmeDossier.id}/documents?q=bill-of-lading-1`, staff);
    const seeded = (list.body.items as Doc[])[0] as Doc;
    const content = await call('GET', `/documents/${seeded.id}/content`, staff);
    expect(content.status).toBe(200);
    expect(sha(content.res.rawPayload)).toBe(seeded.sha256);
    const refs = await seedDocuments(db.db, store, { perDossier: 1, files: 'none' });
    expect(refs).toMatchObject({ rows: dossiers, files: 0 });
    // Rows without files: listed like any other, their downloads answer 410.
    const rowOnly = await db.db
      .selectFrom('documents')
      .select('id')
      .where('storage_key', 'like', '%/seed/%')
      .executeTakeFirstOrThrow();
    expect((await call('GET', `/documents/${rowOnly.id}/content`, staff)).status).toBe(410);
    const total = (await call('GET', '/documents?pageSize=1', staff)).body.total;
    expect(total).toBe(before + dossiers * 4);
  });
});
