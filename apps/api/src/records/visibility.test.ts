import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { type AuditEntry, containerEventFieldVisibility, dossierFieldVisibility } from '@fvg/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../test/api-test.ts';
import type { Json } from '../test/helpers.ts';
import { INVALID_CURSOR_MESSAGE } from './cursor.ts';
import { visibleHistory } from './visibility.ts';

/**
 * Field visibility over the API, for every place a hidden field could show: job costing stands for
 * every internal figure. Customers are ACME's and GLOBEX's demo users; staff see everything.
 */
const setup = apiTest();
const { db, call, tokens } = setup;
let parties: Record<string, string>;
let costed: { id: string; number: string };
let acmeIds: string[];
let globexDossier: { id: string; number: string };
const fields = (b: Json) => ((b.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);
const COSTING_VALUES = ['1800.00', '2300.00', '500.00', '1700.00', '600.00'];
beforeAll(async () => {
  parties = Object.fromEntries(
    (await db.db.selectFrom('parties').select(['code', 'id']).execute()).map((p) => [p.code, p.id]),
  );
  const mk = async (customer: string, reference: string) =>
    (
      await call('POST', '/dossiers', tokens.staff, {
        type: 'export',
        mode: 'road',
        customerId: parties[customer],
        customerReference: reference,
      })
    ).body as { id: string; number: string };
  costed = await mk('ACME', 'VIS-1');
  const others = [await mk('ACME', 'VIS-2'), await mk('ACME', 'VIS-3')];
  acmeIds = [costed.id, ...others.map((d) => d.id)];
  globexDossier = await mk('GLOBEX', 'VIS-G');
  const charges = (cost: string, revenue: string, version: number) =>
    call('PUT', `/dossiers/${costed.id}/charges`, tokens.staff, {
      version,
      charges: [
        { kind: 'cost', chargeCode: 'FREIGHT', description: 'Carrier', amount: cost, currency: 'EUR' },
        { kind: 'revenue', chargeCode: 'FREIGHT', description: 'Freight', amount: revenue, currency: 'EUR' },
      ],
    });
  expect((await charges('1800.00', '2300.00', 1)).status).toBe(200);
  expect((await charges('1700.00', '2300.00', 2)).status).toBe(200);
  // The same lines again: a "charges changed" entry with no change left in it.
  expect((await charges('1700.00', '2300.00', 3)).status).toBe(200);
  const edit = await call('PATCH', `/dossiers/${costed.id}`, tokens.staff, {
    version: 4,
    customerReference: 'VIS-1b',
  });
  expect(edit.status).toBe(200);
  const staffUser = await db.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'staff@fvg.local')
    .executeTakeFirstOrThrow();
  for (const dossierId of [costed.id, globexDossier.id])
    for (let i = 0; i < 3; i++)
      await db.db
        .insertInto('chat_messages')
        .values({ dossier_id: dossierId, author_id: staffUser.id, text: `m${i}` })
        .execute();
});

describe('histories', () => {
  it('a customer reads their dossier’s history without job costing; staff read all of it', async () => {
    const staff = await call('GET', `/dossiers/${costed.id}/history`, tokens.staff);
    const staffEntries = staff.body as unknown as AuditEntry[];
    expect(staffEntries.filter((e) => e.action === 'charges changed')).toHaveLength(3);
    expect(JSON.stringify(staffEntries)).toContain('1800.00');
    const staffFields = staffEntries.flatMap((e) => e.changes.map((c) => c.field));
    expect(staffFields).toEqual(expect.arrayContaining(['charges', 'costTotal', 'revenueTotal']));

    const customer = await call('GET', `/dossiers/${costed.id}/history`, tokens.acme);
    expect(customer.status).toBe(200);
    const entries = customer.body as unknown as AuditEntry[];
    expect(entries.map((e) => e.action)).toEqual(['updated', 'created']);
    expect(entries.flatMap((e) => e.changes.map((c) => c.field))).not.toEqual(
      expect.arrayContaining(['charges']),
    );
    for (const f of ['charges', 'costTotal', 'revenueTotal', 'profit'])
      expect(
        entries.some((e) => e.changes.some((c) => c.field === f)),
        f,
      ).toBe(false);
    const text = JSON.stringify(entries);
    for (const v of COSTING_VALUES) expect(text, v).not.toContain(v);
    expect(entries[0]?.changes).toEqual([{ field: 'customerReference', from: 'VIS-1', to: 'VIS-1b' }]);
  });

  it('leaves staff’s manual container-event links out of a customer’s history (they name other dossiers)', () => {
    const entries: AuditEntry[] = [
      {
        id: '2',
        at: '2026-11-02T00:00:00.000Z',
        action: 'linked',
        actor: null,
        changes: [{ field: 'dossier', from: 'D-2026-000001', to: 'D-2026-000002' }],
      },
      { id: '1', at: '2026-11-01T00:00:00.000Z', action: 'created', actor: null, changes: [] },
    ];
    const customer = { all: false, partyId: parties.ACME as string } as const;
    expect(visibleHistory(customer, containerEventFieldVisibility, entries).map((e) => e.id)).toEqual(['1']);
    expect(visibleHistory({ all: true }, containerEventFieldVisibility, entries)).toEqual(entries);
  });
});

describe('a dossier moved to another customer', () => {
  it('shows its new customer neither the former customer’s id nor anything from before the move', async () => {
    const booked = await call('POST', '/dossiers/bookings', tokens.acme, {
      type: 'export',
      mode: 'road',
      originLocode: 'NLRTM',
      destinationLocode: 'DEHAM',
      cargoDescription: 'Pallets of ACME parts',
      customerReference: 'ACME-SECRET-REF',
    });
    expect(booked.status).toBe(201);
    const id = booked.body.id as string;
    const acmeUser = await db.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'customer@acme.example')
      .executeTakeFirstOrThrow();
    const patch = async (version: number, body: Json) => {
      const r = await call('PATCH', `/dossiers/${id}`, tokens.staff, { version, ...body });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await patch(1, { cargoDescription: 'Pallets of ACME spare parts' });
    await patch(2, { customerId: parties.GLOBEX, customerReference: 'GLOBEX-1' });
    await patch(3, { cargoDescription: 'Pallets' });

    const staff = (await call('GET', `/dossiers/${id}/history`, tokens.staff))
      .body as unknown as AuditEntry[];
    expect(staff.map((e) => e.action)).toEqual(['updated', 'updated', 'updated', 'booking requested']);
    // Staff read the move with the parties' names (records/audit.ts names the ids of reference fields).
    expect(staff[1]?.changes).toContainEqual({
      field: 'customerId',
      from: expect.objectContaining({ id: parties.ACME, code: 'ACME' }),
      to: expect.objectContaining({ id: parties.GLOBEX, code: 'GLOBEX' }),
    });

    const globex = await call('GET', `/dossiers/${id}/history`, tokens.globex);
    expect(globex.status).toBe(200);
    const entries = globex.body as unknown as AuditEntry[];
    // Only what happened since the dossier became GLOBEX's; the move itself names ACME and goes too.
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'updated',
        changes: [{ field: 'cargoDescription', from: 'Pallets of ACME spare parts', to: 'Pallets' }],
      }),
    ]);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(parties.ACME as string);
    expect(text).not.toContain('ACME-SECRET-REF');
    expect(text).not.toContain('booking requested');
    expect(text).not.toContain(acmeUser.id);
    expect((await call('GET', `/dossiers/${id}/history`, tokens.acme)).status).toBe(404);
  });

  it('starts a customer’s history at the latest move to them, and never shows a party change', () => {
    const A = parties.ACME as string;
    const B = parties.GLOBEX as string;
    const entry = (id: string, action: string, changes: AuditEntry['changes']): AuditEntry => ({
      id,
      at: `2026-11-0${id}T00:00:00.000Z`,
      action,
      actor: null,
      changes,
    });
    // Newest first: created for A, moved to B, back to A, then edited.
    const entries = [
      entry('5', 'updated', [{ field: 'eta', from: null, to: '2026-12-01' }]),
      entry('4', 'updated', [
        { field: 'customerId', from: B, to: A },
        { field: 'customerReference', from: 'B-REF', to: 'A-REF' },
      ]),
      entry('3', 'updated', [{ field: 'customerReference', from: null, to: 'B-REF' }]),
      entry('2', 'updated', [{ field: 'customerId', from: A, to: B }]),
      entry('1', 'created', [
        { field: 'customerId', from: null, to: A },
        { field: 'type', from: null, to: 'export' },
      ]),
    ];
    const customer = { all: false, partyId: A } as const;
    expect(visibleHistory(customer, dossierFieldVisibility, entries).map((e) => e.id)).toEqual(['5']);
    // Never moved: the whole history, without the creation's customerId.
    const created = visibleHistory(customer, dossierFieldVisibility, [entries[4] as AuditEntry]);
    expect(created).toEqual([{ ...entries[4], changes: [{ field: 'type', from: null, to: 'export' }] }]);
    expect(visibleHistory({ all: true }, dossierFieldVisibility, entries)).toEqual(entries);
  });
});

describe('sorting and filtering by hidden fields', () => {
  it('refuses a customer’s sort by profit with a 400 on sort, in lists and exports alike', async () => {
    for (const url of [
      '/dossiers?sort=-profit',
      '/dossiers?sort=number,profit',
      '/dossiers?sort=profit&format=csv',
    ]) {
      const r = await call('GET', url, tokens.acme);
      expect(r.status, url).toBe(400);
      expect(r.headers['content-type'], url).toMatch(/^application\/problem\+json/);
      expect(fields(r.body), url).toEqual(['sort']);
      expect(JSON.stringify(r.body), url).not.toContain('profit,');
    }
    const staff = await call('GET', '/dossiers?sort=-profit&pageSize=1', tokens.staff);
    expect(staff.status).toBe(200);
    expect((staff.body.items as { id: string }[])[0]?.id).toBe(costed.id);
  });

  it('refuses a customer’s filter by profit with a 400 on that filter; staff filter by it', async () => {
    for (const param of ['profitMin', 'profitMax']) {
      const r = await call('GET', `/dossiers?${param}=0`, tokens.acme);
      expect(r.status, param).toBe(400);
      expect(fields(r.body), param).toEqual([param]);
    }
    const losses = await call('GET', '/dossiers?profitMax=0&pageSize=200', tokens.staff);
    const ids = (losses.body.items as { id: string }[]).map((d) => d.id);
    expect(ids).toContain(globexDossier.id);
    expect(ids).not.toContain(costed.id);
    const gains = await call('GET', '/dossiers?profitMin=600', tokens.staff);
    expect((gains.body.items as { id: string }[]).map((d) => d.id)).toEqual([costed.id]);
  });

  it('does not let a customer find a dossier by its profit through q', async () => {
    expect((await call('GET', '/dossiers?q=VIS-1', tokens.acme)).body.total).toBe(1);
    expect((await call('GET', '/dossiers?q=600.00', tokens.acme)).body.total).toBe(0);
  });
});

/** The text of one file in a zip (XLSX), by the central directory: yazl streams sizes after the data. */
function zipEntry(zip: Buffer, name: string): string {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLength = zip.readUInt16LE(p + 28);
    const skip = nameLength + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
    const offset = zip.readUInt32LE(p + 42);
    if (zip.toString('utf8', p + 46, p + 46 + nameLength) === name) {
      const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
      const data = zip.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    p += 46 + skip;
  }
  throw new Error(`${name} not in the zip`);
}

describe('exports', () => {
  it('a customer’s CSV and XLSX have no job-costing column; staff’s have it', async () => {
    const csv = await call('GET', '/dossiers?format=csv&q=VIS-1', tokens.acme);
    expect(csv.status).toBe(200);
    const [header, row] = csv.raw.replace('\uFEFF', '').split('\r\n');
    expect(header).toContain('Number');
    expect(header).not.toContain('Profit');
    expect(row).toContain(costed.number);
    const staffCsv = await call('GET', '/dossiers?format=csv&q=VIS-1', tokens.staff);
    expect(staffCsv.raw).toContain('Profit (EUR)');
    expect(staffCsv.raw).toContain(',600,');

    const xlsx = async (auth: { authorization: string }) => {
      const r = await setup.app.inject({
        method: 'GET',
        url: '/api/dossiers?format=xlsx&q=VIS-1',
        headers: auth,
      });
      expect(r.statusCode).toBe(200);
      return zipEntry(r.rawPayload, 'xl/worksheets/sheet1.xml');
    };
    const customerSheet = await xlsx(tokens.acme);
    expect(customerSheet).toContain(costed.number);
    expect(customerSheet).not.toContain('Profit');
    expect(customerSheet).not.toContain('<v>600</v>');
    const staffSheet = await xlsx(tokens.staff);
    expect(staffSheet).toContain('Profit (EUR)');
    expect(staffSheet).toContain('<v>600</v>');
  });
});

describe('cursors', () => {
  const invalidOn = (r: { status: number; body: Json; headers: Record<string, unknown> }, field: string) => {
    expect(r.status).toBe(400);
    expect(String(r.headers['content-type'])).toMatch(/^application\/problem\+json/);
    expect(r.body.errors).toEqual([{ field, message: INVALID_CURSOR_MESSAGE }]);
  };
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

  /** Every list that pages by cursor, with the parameter that carries it. */
  const lists = () => [
    { url: '/dossiers?pageSize=1', param: 'cursor' },
    { url: '/parties?pageSize=1', param: 'cursor' },
    { url: '/transports?pageSize=1', param: 'cursor' },
    { url: '/planning?from=2026-11-30&to=2026-12-06&limit=1', param: 'cursor' },
    { url: '/documents?pageSize=1', param: 'cursor' },
    { url: `/dossiers/${costed.id}/documents?pageSize=1`, param: 'cursor' },
    { url: '/containers?pageSize=1', param: 'cursor' },
    { url: '/container-events/unlinked?pageSize=1', param: 'cursor' },
    { url: `/dossiers/${costed.id}/messages?limit=1`, param: 'before' },
  ];

  it('refuses a staff cursor of a sort by profit on a customer’s list', async () => {
    const staff = await call('GET', '/dossiers?sort=-profit&pageSize=1', tokens.staff);
    const cursor = staff.body.nextCursor as string;
    expect(cursor).toBeTruthy();
    invalidOn(await call('GET', `/dossiers?cursor=${cursor}`, tokens.acme), 'cursor');
    expect(fields((await call('GET', `/dossiers?sort=-profit&cursor=${cursor}`, tokens.acme)).body)).toEqual([
      'sort',
    ]);
    // The cursor does not carry the figure in a readable form.
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain('600.00');
  });

  it('refuses forged, tampered and random cursors with a 400 on every list', async () => {
    const real = (await call('GET', '/dossiers?pageSize=1', tokens.staff)).body.nextCursor as string;
    const tampered = Buffer.from(real, 'base64url');
    tampered[20] = (tampered[20] ?? 0) ^ 0x40;
    const forged = [
      b64(['not-a-date', '0b9c3a4e-3a8e-4c56-9d0e-1f2a3b4c5d6e']),
      b64(['x', 'y']),
      b64(['2026-11-01T00:00:00.000Z', costed.id]),
      randomBytes(48).toString('base64url'),
      tampered.toString('base64url'),
    ];
    for (const { url, param } of lists()) {
      for (const value of forged) {
        const r = await call('GET', `${url}&${param}=${value}`, tokens.staff);
        expect(r.status, `${url} ${value}`).toBe(400);
        invalidOn(r, param);
      }
      // A NUL is refused by the input guard before the cursor is read, on the same field.
      const nul = await call('GET', `${url}&${param}=%00`, tokens.staff);
      expect(nul.status).toBe(400);
      expect(fields(nul.body)).toEqual([param]);
    }
  });

  it('refuses a cursor of one list on another', async () => {
    const cursors = new Map<string, string>();
    for (const { url, param } of lists()) {
      const r = await call('GET', url, tokens.staff);
      expect(r.status, url).toBe(200);
      const next = (param === 'before' ? r.body.before : r.body.nextCursor) as string | null;
      if (next) cursors.set(url, next);
    }
    // Dossiers, parties and the chat have more than one row here; their cursors must open nowhere else.
    expect(cursors.size).toBeGreaterThanOrEqual(3);
    for (const [from, cursor] of cursors) {
      for (const { url, param } of lists()) {
        if (url === from) continue;
        invalidOn(await call('GET', `${url}&${param}=${cursor}`, tokens.staff), param);
      }
    }
    // Another dossier's chat is another list.
    const chat = cursors.get(`/dossiers/${costed.id}/messages?limit=1`) as string;
    invalidOn(
      await call('GET', `/dossiers/${globexDossier.id}/messages?limit=1&before=${chat}`, tokens.staff),
      'before',
    );
  });

  it('refuses one customer’s cursor to another, and one filter’s cursor under another filter', async () => {
    const acme = (await call('GET', '/dossiers?pageSize=1', tokens.acme)).body.nextCursor as string;
    invalidOn(await call('GET', `/dossiers?pageSize=1&cursor=${acme}`, tokens.globex), 'cursor');
    invalidOn(await call('GET', `/dossiers?pageSize=1&cursor=${acme}`, tokens.staff), 'cursor');
    invalidOn(await call('GET', `/dossiers?pageSize=1&status=booked&cursor=${acme}`, tokens.acme), 'cursor');
    invalidOn(await call('GET', `/dossiers?pageSize=1&sort=number&cursor=${acme}`, tokens.acme), 'cursor');
  });

  it('still walk a customer’s whole list, each dossier once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/dossiers?pageSize=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call('GET', url, tokens.acme);
      expect(page.status).toBe(200);
      for (const d of page.body.items as { id: string; profit: unknown }[]) {
        expect(d.profit).toBeNull();
        seen.push(d.id);
      }
      cursor = page.body.nextCursor as string | null;
    } while (cursor);
    expect(seen.sort()).toEqual([...acmeIds].sort());
  });
});
