import { DOSSIER_MODE_LABELS, DOSSIER_STATUS_LABELS, DOSSIER_TYPE_LABELS } from '@fvg/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatPartyBackfill } from '../../db/migrations/0031-party-of-what-was-said.ts';
import { apiTest } from '../../test/api-test.ts';
import { demoTokens, type Json } from '../../test/helpers.ts';

const setup = apiTest();
const { db, admin, staff, acme, partyId, call } = setup;

const fields = (body: Json) => ((body.errors as { field: string }[] | undefined) ?? []).map((e) => e.field);

function newDossier(over: Json = {}): Json {
  return {
    type: 'export',
    mode: 'sea',
    customerId: partyId.ACME,
    incoterm: 'FOB',
    originLocode: 'NLRTM',
    destinationLocode: 'CNSHA',
    etd: '2026-12-01',
    eta: '2026-12-30',
    customerReference: 'PO-4711',
    cargoDescription: 'Machine parts',
    packages: 12,
    grossWeightKg: '10450.5',
    containers: [{ number: 'MSKU6011672', sizeType: '22G1', seals: ['SL123'] }],
    ...over,
  };
}

/** One CSV line's cells, quoted ones ("30/11/2026, 10:05 AM") included. */
function csvCells(line: string): string[] {
  return [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
    .map((m) => m[1] ?? '')
    .slice(0, -1)
    .map((c) => (c.startsWith('"') ? c.slice(1, -1).replaceAll('""', '"') : c));
}

describe('creating dossiers', () => {
  it('assigns D-YYYY-NNNNNN numbers and answers the full record', async () => {
    const r = await call('POST', '/dossiers', staff, newDossier());
    expect(r.status).toBe(201);
    expect(r.body.number).toMatch(new RegExp(`^D-${new Date().getUTCFullYear()}-\\d{6}$`));
    expect(r.body).toMatchObject({
      status: 'booked',
      customer: { code: 'ACME' },
      grossWeightKg: '10450.500',
      containers: [{ number: 'MSKU6011672', sizeType: '22G1', seals: ['SL123'] }],
      version: 1,
      profit: '0.00',
    });
    expect(r.body.allowedTransitions).toEqual(['in_transit', 'cancelled']);
  });

  it('numbers 50 parallel creates 50 distinct consecutive numbers', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call('POST', '/dossiers', staff, newDossier({ containers: [] }))),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const seqs = results.map((r) => Number(String(r.body.number).slice(-6))).sort((a, b) => a - b);
    expect(new Set(seqs).size).toBe(50);
    expect((seqs.at(-1) as number) - (seqs[0] as number)).toBe(49);
  });

  it('leaves no gap when a create fails after taking a number', async () => {
    const before = await db.db.selectFrom('number_series').select('last_value').executeTakeFirstOrThrow();
    const bad = await call(
      'POST',
      '/dossiers',
      staff,
      newDossier({ consignorId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(bad.status).toBe(400);
    expect(fields(bad.body)).toEqual(['consignorId']);
    const after = await db.db.selectFrom('number_series').select('last_value').executeTakeFirstOrThrow();
    expect(after.last_value).toBe(before.last_value);
  });

  it('validates every rule with the failing field', async () => {
    const cases: [Json, string, RegExp][] = [
      [{ containers: [{ number: 'MSKU6011673' }] }, 'containers.0.number', /needs 2/],
      [{ containers: [{ number: 'MSK6011672' }] }, 'containers.0.number', /4 letters/],
      [
        { containers: [{ number: 'MSKU6011672' }, { number: 'msku 601167-2' }] },
        'containers.1.number',
        /twice/,
      ],
      [{ containers: [{ number: 'MSKU6011672', sizeType: '22G' }] }, 'containers.0.sizeType', /4 characters/],
      [{ incoterm: 'DDU' }, 'incoterm', /retired/],
      [{ incoterm: 'FOB', mode: 'air' }, 'incoterm', /sea and inland waterway/],
      [{ etd: '2026-12-10', eta: '2026-12-01' }, 'eta', /before ETD/],
      [{ originLocode: 'XXRTM' }, 'originLocode', /UN\/LOCODE/],
      [{ etd: '2026-13-01' }, 'etd', /YYYY-MM-DD/],
      [{ grossWeightKg: '-1' }, 'grossWeightKg', /at least 0/],
      [{ grossWeightKg: '1.23456' }, 'grossWeightKg', /3 decimals/],
      [{ type: 'holiday' }, 'type', /./],
      [{ customerId: 'nope' }, 'customerId', /valid id/],
      [{ unknownField: 1 }, 'unknownField', /Unknown field/],
    ];
    for (const [over, field, message] of cases) {
      const r = await call('POST', '/dossiers', staff, newDossier(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.headers['content-type']).toMatch(/problem\+json/);
      const errors = r.body.errors as { field: string; message: string }[];
      const hit = errors.find((e) => e.field === field);
      expect(hit, `${JSON.stringify(over)} → ${JSON.stringify(errors)}`).toBeDefined();
      expect(hit?.message).toMatch(message);
    }
  });

  it('refuses creates by customers (they book instead) and without a token', async () => {
    expect((await call('POST', '/dossiers', acme, newDossier())).status).toBe(403);
    expect((await call('POST', '/dossiers', undefined, newDossier())).status).toBe(401);
  });
});

describe('scoping', () => {
  let globexDossier: Json;
  beforeAll(async () => {
    globexDossier = (
      await call(
        'POST',
        '/dossiers',
        staff,
        newDossier({ customerId: partyId.GLOBEX, customerReference: 'GLOBEX-SECRET' }),
      )
    ).body;
  });

  it('a customer never sees another party’s dossier: list, detail by id and number, history, search, export', async () => {
    const list = await call('GET', '/dossiers?pageSize=200', acme);
    const items = list.body.items as { customer: { code: string } }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((d) => d.customer.code === 'ACME')).toBe(true);
    expect((await call('GET', `/dossiers/${globexDossier.id}`, acme)).status).toBe(404);
    expect((await call('GET', `/dossiers/${globexDossier.number}`, acme)).status).toBe(404);
    expect((await call('GET', `/dossiers/${globexDossier.id}/history`, acme)).status).toBe(404);
    expect(
      (await call('PATCH', `/dossiers/${globexDossier.id}`, acme, { version: 1, cargoDescription: 'x' }))
        .status,
    ).toBe(404);
    expect((await call('GET', '/dossiers?q=GLOBEX-SECRET', acme)).body.total).toBe(0);
    expect((await call('GET', '/dossiers?q=GLOBEX-SECRET', staff)).body.total).toBe(1);
    const csv = await call('GET', '/dossiers?format=csv', acme);
    expect(csv.status).toBe(200);
    expect(csv.raw).not.toContain(String(globexDossier.number));
    expect(csv.raw).toContain('ACME');
  });

  it('the same 404 for a missing dossier and another party’s', async () => {
    const missing = await call('GET', '/dossiers/00000000-0000-4000-8000-000000000000', acme);
    const hidden = await call('GET', `/dossiers/${globexDossier.id}`, acme);
    expect(missing.status).toBe(404);
    expect(hidden.body.detail).toBe(missing.body.detail);
  });
});

describe('editing', () => {
  it('applies a change with the current version, records who changed what, and refuses a stale version with 409', async () => {
    const created = (await call('POST', '/dossiers', staff, newDossier())).body;
    const ok = await call('PATCH', `/dossiers/${created.id}`, staff, {
      version: 1,
      customerReference: 'PO-4712',
      packages: 13,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ customerReference: 'PO-4712', packages: 13, version: 2 });

    const stale = await call('PATCH', `/dossiers/${created.id}`, admin, {
      version: 1,
      customerReference: 'LOST',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/changed by someone else.*version 1.*now 2/);
    expect((await call('GET', `/dossiers/${created.id}`, staff)).body.customerReference).toBe('PO-4712');

    const history = (await call('GET', `/dossiers/${created.id}/history`, staff)).body as unknown as {
      action: string;
      actor: { name: string };
      changes: { field: string; from: unknown; to: unknown }[];
    }[];
    expect(history[0]).toMatchObject({
      action: 'updated',
      actor: { name: 'Sam Staff' },
      changes: [
        { field: 'customerReference', from: 'PO-4711', to: 'PO-4712' },
        { field: 'packages', from: 12, to: 13 },
      ],
    });
    expect(history.at(-1)?.action).toBe('created');
  });

  it('names the parties and the handler of a history (ids of other records read as names), for staff and the customer', async () => {
    const users = await db.db.selectFrom('users').select(['id', 'name', 'email']).execute();
    const sam = users.find((u) => u.email === 'staff@fvg.local');
    const created = (await call('POST', '/dossiers', staff, newDossier({ consigneeId: partyId.ACME }))).body;
    const ok = await call('PATCH', `/dossiers/${created.id}`, staff, {
      version: 1,
      consigneeId: partyId.GLOBEX,
      handlerId: sam?.id,
    });
    expect(ok.status).toBe(200);
    type Entry = { changes: { field: string; from: unknown; to: unknown }[] };
    const staffHistory = (await call('GET', `/dossiers/${created.id}/history`, staff))
      .body as unknown as Entry[];
    expect(staffHistory[0]?.changes).toEqual([
      {
        field: 'consigneeId',
        from: { id: partyId.ACME, code: 'ACME', name: expect.stringMatching(/Acme/) },
        to: { id: partyId.GLOBEX, code: 'GLOBEX', name: expect.stringMatching(/Globex/) },
      },
      { field: 'handlerId', from: null, to: { id: sam?.id, name: 'Sam Staff' } },
    ]);
    // The creation names its customer for staff.
    expect(staffHistory.at(-1)?.changes).toContainEqual({
      field: 'customerId',
      from: null,
      to: { id: partyId.ACME, code: 'ACME', name: expect.stringMatching(/Acme/) },
    });

    // The customer reads the same names (the dossier shows them its consignee and handler), and
    // never the party field: its changes are not in their history, so nothing there is named.
    const acmeHistory = (await call('GET', `/dossiers/${created.id}/history`, acme))
      .body as unknown as Entry[];
    expect(acmeHistory[0]?.changes).toEqual(staffHistory[0]?.changes);
    expect(acmeHistory.flatMap((e) => e.changes.map((c) => c.field))).not.toContain('customerId');
  });

  it('checks cross-field rules against the merged record', async () => {
    const created = (await call('POST', '/dossiers', staff, newDossier())).body;
    const r = await call('PATCH', `/dossiers/${created.id}`, staff, { version: 1, eta: '2026-11-01' });
    expect(r.status).toBe(400);
    expect(fields(r.body)).toEqual(['eta']);
    const air = await call('PATCH', `/dossiers/${created.id}`, staff, { version: 1, mode: 'air' });
    expect(fields(air.body)).toEqual(['incoterm']);
  });

  it('keeps containers when an edit does not mention them', async () => {
    const created = (await call('POST', '/dossiers', staff, newDossier())).body;
    const r = await call('PATCH', `/dossiers/${created.id}`, staff, { version: 1, packages: 1 });
    expect(r.body.containers).toEqual(created.containers);
  });
});

/** Calendar date `days` from today (UTC). */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('status transitions', () => {
  it('walks the allowed path with its facts and refuses jumps', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier({ etd: null, eta: null }))).body;
    const jump = await call('POST', `/dossiers/${d.id}/transitions`, staff, { to: 'delivered', version: 1 });
    expect(jump.status).toBe(409);
    expect(jump.body.detail).toMatch(/booked cannot move to delivered; allowed: in_transit, cancelled/);
    let version = 1;
    const facts: Record<string, Json> = {
      in_transit: { atd: dayFromToday(-3) },
      arrived: { ata: dayFromToday(-1) },
    };
    for (const to of ['in_transit', 'arrived', 'cleared', 'delivered', 'closed']) {
      const r = await call('POST', `/dossiers/${d.id}/transitions`, staff, { to, version, ...facts[to] });
      expect(r.status, to).toBe(200);
      expect(r.body.status).toBe(to);
      expect(r.body.warnings).toEqual([]);
      version = r.body.version as number;
    }
    const done = (await call('GET', `/dossiers/${d.id}`, staff)).body;
    expect(done).toMatchObject({ atd: dayFromToday(-3), ata: dayFromToday(-1) });
    expect(
      (await call('POST', `/dossiers/${d.id}/transitions`, staff, { to: 'cancelled', version })).status,
    ).toBe(409);
    expect((await call('PATCH', `/dossiers/${d.id}`, staff, { version, packages: 2 })).status).toBe(409);
  });

  it('asks the fact a move states, and only that one', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier())).body;
    const bare = await call('POST', `/dossiers/${d.id}/transitions`, staff, { to: 'in_transit', version: 1 });
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual([{ field: 'atd', message: 'Enter the date it departed' }]);
    const wrong = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'cancelled',
      version: 1,
      ata: dayFromToday(0),
    });
    expect(wrong.status).toBe(400);
    expect(fields(wrong.body)).toEqual(['ata']);
    const badDate = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'in_transit',
      version: 1,
      atd: '2026-02-30',
    });
    expect(badDate.status).toBe(400);
    expect(fields(badDate.body)).toEqual(['atd']);
    // Nothing of the refused moves was stored.
    expect((await call('GET', `/dossiers/${d.id}`, staff)).body).toMatchObject({
      status: 'booked',
      atd: null,
      version: 1,
    });
  });

  it('refuses a departure or arrival in the future, and an arrival before the departure', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier({ etd: null, eta: null }))).body;
    const future = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'in_transit',
      version: 1,
      atd: dayFromToday(3),
    });
    expect(future.status).toBe(400);
    expect(future.body.errors).toEqual([{ field: 'atd', message: 'The departure cannot be in the future' }]);
    // Today is today in every time zone (the allowance of UTC+14): not refused.
    const departed = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'in_transit',
      version: 1,
      atd: dayFromToday(0),
    });
    expect(departed.status).toBe(200);
    const before = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'arrived',
      version: 2,
      ata: dayFromToday(-2),
    });
    expect(before.status).toBe(400);
    expect(before.body.errors).toEqual([
      { field: 'ata', message: 'The arrival cannot be before the recorded departure' },
    ]);
    const arrivingLater = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'arrived',
      version: 2,
      ata: dayFromToday(2),
    });
    expect(arrivingLater.body.errors).toEqual([
      { field: 'ata', message: 'The arrival cannot be in the future' },
    ]);
    // A free edit cannot put a fact in the future either.
    const edit = await call('PATCH', `/dossiers/${d.id}`, staff, { version: 2, atd: dayFromToday(5) });
    expect(edit.status).toBe(400);
    expect(fields(edit.body)).toContain('atd');
  });

  it('accepts a departure long before the plan, with a warning, and records it in the history', async () => {
    const d = (
      await call('POST', '/dossiers', staff, newDossier({ etd: dayFromToday(17), eta: dayFromToday(40) }))
    ).body;
    const r = await call('POST', `/dossiers/${d.id}/transitions`, staff, {
      to: 'in_transit',
      version: 1,
      atd: dayFromToday(0),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'in_transit', atd: dayFromToday(0), version: 2 });
    expect(r.body.warnings).toEqual([
      {
        field: 'atd',
        message: 'This departure is 17 days before the planned departure (ETD). Check the date.',
      },
    ]);
    const history = (await call('GET', `/dossiers/${d.id}/history`, staff)).body as unknown as Json[];
    expect(history[0]).toMatchObject({
      action: 'status changed',
      changes: [
        { field: 'status', from: 'booked', to: 'in_transit' },
        { field: 'atd', from: null, to: dayFromToday(0) },
      ],
    });
    // Within the plan: no warning.
    const onTime = (await call('POST', '/dossiers', staff, newDossier({ etd: dayFromToday(1) }))).body;
    const ok = await call('POST', `/dossiers/${onTime.id}/transitions`, staff, {
      to: 'in_transit',
      version: 1,
      atd: dayFromToday(0),
    });
    expect(ok.body.warnings).toEqual([]);
  });
});

describe('booking requests', () => {
  it('a customer books for their own party; staff confirm; the customer can cancel only while requested', async () => {
    const booking = await call('POST', '/dossiers/bookings', acme, {
      type: 'import',
      mode: 'sea',
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      cargoDescription: 'Bicycles',
      packages: 40,
      customerId: partyId.GLOBEX, // not a booking field: rejected, a customer cannot book for another party
    });
    expect(booking.status).toBe(400);
    expect(booking.body.errors).toEqual([{ field: 'customerId', message: 'Unknown field' }]);

    const ok = await call('POST', '/dossiers/bookings', acme, {
      type: 'import',
      mode: 'sea',
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      cargoDescription: 'Bicycles',
      packages: 40,
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      status: 'requested',
      customer: { code: 'ACME' },
      allowedTransitions: ['cancelled'],
    });
    expect((await call('POST', '/dossiers/bookings', acme, { type: 'import', mode: 'sea' })).status).toBe(
      400,
    );
    expect(
      (
        await call('POST', '/dossiers/bookings', staff, {
          type: 'import',
          mode: 'sea',
          originLocode: 'CNSHA',
          destinationLocode: 'NLRTM',
          cargoDescription: 'x',
        })
      ).status,
    ).toBe(403);

    const noHandler = await call('POST', `/dossiers/${ok.body.id}/transitions`, staff, {
      to: 'booked',
      version: 1,
    });
    expect(noHandler.status).toBe(400);
    expect(noHandler.body.errors).toEqual([
      { field: 'handlerId', message: 'Choose who handles this dossier' },
    ]);
    const customerUser = await db.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'customer@acme.example')
      .executeTakeFirstOrThrow();
    const notStaff = await call('POST', `/dossiers/${ok.body.id}/transitions`, staff, {
      to: 'booked',
      version: 1,
      handlerId: customerUser.id,
    });
    expect(notStaff.status).toBe(400);
    expect(fields(notStaff.body)).toEqual(['handlerId']);
    const staffUser = await db.db
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('email', '=', 'staff@fvg.local')
      .executeTakeFirstOrThrow();
    const confirmed = await call('POST', `/dossiers/${ok.body.id}/transitions`, staff, {
      to: 'booked',
      version: 1,
      handlerId: staffUser.id,
    });
    expect(confirmed.body).toMatchObject({
      status: 'booked',
      handler: { id: staffUser.id, name: staffUser.name },
    });
    // The customer learns who handles their booking, by name: nothing else of the staff user.
    const seen = await call('GET', `/dossiers/${ok.body.id}`, acme);
    expect(seen.body.handler).toEqual({ id: staffUser.id, name: staffUser.name });
    expect(JSON.stringify(seen.body)).not.toContain(staffUser.email);
    const customerHistory = (await call('GET', `/dossiers/${ok.body.id}/history`, acme))
      .body as unknown as Json[];
    expect(customerHistory[0]).toMatchObject({
      action: 'status changed',
      changes: [
        { field: 'status', from: 'requested', to: 'booked' },
        { field: 'handlerId', from: null, to: { id: staffUser.id, name: staffUser.name } },
      ],
    });
    expect(JSON.stringify(customerHistory)).not.toContain(staffUser.email);
    expect(
      (await call('POST', `/dossiers/${ok.body.id}/transitions`, acme, { to: 'cancelled', version: 2 }))
        .status,
    ).toBe(409);
  });
});

describe('job costing', () => {
  it('replaces charges, converts to EUR exactly and shows the profit in detail and list', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier({ customerReference: 'COSTING-1' }))).body;
    const r = await call('PUT', `/dossiers/${d.id}/charges`, staff, {
      version: 1,
      charges: [
        {
          kind: 'revenue',
          chargeCode: 'FREIGHT',
          description: 'Ocean freight',
          amount: '2500.00',
          currency: 'USD',
          exchangeRate: '0.921234',
        },
        {
          kind: 'cost',
          chargeCode: 'FREIGHT',
          description: 'Carrier freight',
          amount: '1800',
          currency: 'EUR',
        },
        {
          kind: 'cost',
          chargeCode: 'THC',
          description: 'Terminal handling',
          amount: '0.05',
          currency: 'EUR',
          exchangeRate: '0.5',
        },
      ],
    });
    expect(r.status).toBe(200);
    expect((r.body.charges as { baseAmount: string }[]).map((c) => c.baseAmount)).toEqual([
      '2303.09',
      '1800.00',
      '0.03',
    ]);
    expect(r.body).toMatchObject({
      revenueTotal: '2303.09',
      costTotal: '1800.03',
      profit: '503.06',
      version: 2,
    });
    const list = await call('GET', '/dossiers?q=COSTING-1', staff);
    expect((list.body.items as { profit: string }[])[0]?.profit).toBe('503.06');
    // Job costing is internal: the customer sees the dossier, not the margin.
    const asCustomer = await call('GET', `/dossiers/${d.id}`, acme);
    expect(asCustomer.body).toMatchObject({ charges: [], costTotal: null, revenueTotal: null, profit: null });
    const customerList = await call('GET', '/dossiers?q=COSTING-1', acme);
    expect((customerList.body.items as { profit: unknown }[])[0]?.profit).toBeNull();
    const customerCsv = await call('GET', '/dossiers?format=csv&q=COSTING-1', acme);
    expect(customerCsv.raw).not.toMatch(/Profit|503\.06/);
    const bad = await call('PUT', `/dossiers/${d.id}/charges`, staff, {
      version: 2,
      charges: [{ kind: 'cost', chargeCode: 'X', description: 'x', amount: '1.234', currency: 'EURO' }],
    });
    expect(bad.status).toBe(400);
    // A free code is no charge of the shared vocabulary (issue 27 item 4).
    expect(fields(bad.body).sort()).toEqual([
      'charges.0.amount',
      'charges.0.chargeCode',
      'charges.0.currency',
    ]);
    // The currency's own decimals (ISO 4217): no cents on yen, trailing zeros aside.
    const yen = (amount: string) =>
      call('PUT', `/dossiers/${d.id}/charges`, staff, {
        version: 2,
        charges: [{ kind: 'cost', chargeCode: 'THC', description: 'Terminal', amount, currency: 'jpy' }],
      });
    const cents = await yen('1200.50');
    expect(cents.status).toBe(400);
    expect(cents.body.errors).toEqual([
      { field: 'charges.0.amount', message: 'JPY amounts have no decimals' },
    ]);
    const whole = await yen('1200.00');
    expect(whole.status).toBe(200);
    expect((whole.body.charges as { amount: string; currency: string }[])[0]).toMatchObject({
      amount: '1200.00',
      currency: 'JPY',
    });
  });
});

describe('lists', () => {
  it('filters, sorts on several fields, pages with offset and with a keyset cursor without overlaps', async () => {
    const all = await call('GET', '/dossiers?sort=etd,-number&pageSize=10', staff);
    expect(all.status).toBe(200);
    const total = all.body.total as number;
    expect(total).toBeGreaterThan(50);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/dossiers?sort=etd,-number&pageSize=7${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call('GET', url, staff);
      seen.push(...(page.body.items as { id: string }[]).map((i) => i.id));
      cursor = page.body.nextCursor as string | null;
    } while (cursor);
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);

    const byOffset = await call('GET', '/dossiers?sort=etd,-number&pageSize=7&page=2', staff);
    expect((byOffset.body.items as { id: string }[]).map((i) => i.id)).toEqual(seen.slice(7, 14));

    const filtered = await call(
      'GET',
      '/dossiers?status=booked,requested&mode=sea&container=MSKU6011672',
      staff,
    );
    expect(
      (filtered.body.items as { status: string }[]).every((d) => ['booked', 'requested'].includes(d.status)),
    ).toBe(true);
    expect(filtered.body.total).toBeGreaterThan(0);
    expect((await call('GET', '/dossiers?sort=color', staff)).body.errors).toEqual([
      { field: 'sort', message: expect.stringMatching(/Cannot sort by "color"/) },
    ]);
    expect((await call('GET', '/dossiers?status=lost', staff)).status).toBe(400);
    expect((await call('GET', '/dossiers?cursor=garbage', staff)).status).toBe(400);
  });

  it('finds by identifier prefix first and falls back to a substring anywhere in the references', async () => {
    const byPrefix = await call('GET', '/dossiers?q=po-47', staff);
    const refs = (byPrefix.body.items as { customerReference: string }[]).map((d) => d.customerReference);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.every((r) => r.startsWith('PO-47'))).toBe(true);
    const number = ((await call('GET', '/dossiers?pageSize=1', staff)).body.items as { number: string }[])[0]
      ?.number as string;
    expect(
      ((await call('GET', `/dossiers?q=${number}`, staff)).body.items as { number: string }[]).map(
        (d) => d.number,
      ),
    ).toEqual([number]);
    const bySubstring = await call('GET', '/dossiers?q=4712', staff); // only inside "PO-4712"
    expect(
      (bySubstring.body.items as { customerReference: string }[]).map((d) => d.customerReference),
    ).toContain('PO-4712');
    expect((await call('GET', '/dossiers?q=no-such-reference', staff)).body.total).toBe(0);
  });

  it('exports CSV and XLSX of the filtered list', async () => {
    const csv = await call('GET', '/dossiers?format=csv&q=PO-4711', staff);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(
      /attachment; filename="dossiers-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = csv.raw
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Number,Status,Type,Mode,/);
    expect(lines.length).toBeGreaterThan(1);
    // Values in the screen's words, not the API's codes (issue 27 item 7).
    const [, status, type, mode] = (lines[1] ?? '').split(',');
    expect(Object.values(DOSSIER_STATUS_LABELS)).toContain(status);
    expect(Object.values(DOSSIER_TYPE_LABELS)).toContain(type);
    expect(Object.values(DOSSIER_MODE_LABELS)).toContain(mode);
    expect(lines.slice(1).every((l) => l.includes('PO-4711'))).toBe(true);

    // Dates and times as the reader sees them, then ISO 8601 for a machine (issue 27 item 7).
    const local = await call(
      'GET',
      '/dossiers?format=csv&q=PO-4711&tz=Asia/Tokyo&dateFormat=DD/MM/YYYY&timeFormat=h:mm%20A',
      staff,
    );
    const rows = local.raw
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .map(csvCells);
    const head = rows[0] ?? [];
    const updated = head.indexOf('Updated');
    expect(head[updated + 1]).toBe('Updated (ISO 8601)');
    expect(head.slice(head.indexOf('ETD'), head.indexOf('ETD') + 2)).toEqual(['ETD', 'ETD (ISO 8601)']);
    const cells = rows[1] ?? [];
    const iso = cells[updated + 1] as string;
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    // The same instant on a Tokyo clock (UTC+9, no summer time), laid out in the formats asked for.
    const tokyo = new Date(Date.parse(iso) + 9 * 3_600_000);
    const hour = tokyo.getUTCHours();
    const p2 = (n: number) => String(n).padStart(2, '0');
    const date = `${p2(tokyo.getUTCDate())}/${p2(tokyo.getUTCMonth() + 1)}/${tokyo.getUTCFullYear()}`;
    const time = `${((hour + 11) % 12) + 1}:${p2(tokyo.getUTCMinutes())} ${hour < 12 ? 'AM' : 'PM'}`;
    expect(cells[updated]).toBe(`${date}, ${time}`);
    const badFormat = await call('GET', '/dossiers?format=csv&dateFormat=YYYYMMDD', staff);
    expect(badFormat.status).toBe(400);
    expect(fields(badFormat.body)).toEqual(['dateFormat']);

    const xlsx = await setup.app.inject({ method: 'GET', url: '/api/dossiers?format=xlsx', headers: staff });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('deleting', () => {
  it('lets an admin delete a booking request only', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier())).body;
    expect((await call('DELETE', `/dossiers/${d.id}`, staff)).status).toBe(403);
    expect((await call('DELETE', `/dossiers/${d.id}`, admin)).status).toBe(409);
    const b = (
      await call('POST', '/dossiers/bookings', acme, {
        type: 'import',
        mode: 'air',
        originLocode: 'CNSHA',
        destinationLocode: 'NLAMS',
        cargoDescription: 'x',
      })
    ).body;
    expect((await call('DELETE', `/dossiers/${b.id}`, admin)).status).toBe(204);
    expect((await call('GET', `/dossiers/${b.id}`, admin)).status).toBe(404);
  });

  it('answers 409, not the foreign key’s 500, for a booking request an invoice names', async () => {
    const b = (
      await call('POST', '/dossiers/bookings', acme, {
        type: 'import',
        mode: 'air',
        originLocode: 'CNSHA',
        destinationLocode: 'NLAMS',
        cargoDescription: 'x',
      })
    ).body;
    const invoice = await call('POST', '/sales-invoices', staff, {
      customerId: partyId.ACME,
      dossierId: b.id,
      currency: 'EUR',
      lines: [],
    });
    expect(invoice.status).toBe(201);
    const r = await call('DELETE', `/dossiers/${b.id}`, admin);
    expect(r.status).toBe(409);
    expect(r.body.detail).toBe(
      `Other records refer to dossier ${b.number} (an offer, an invoice or a declaration): it is not deleted.`,
    );
    expect((await call('GET', `/dossiers/${b.id}`, admin)).status).toBe(200);
  });
});

describe('the chat of a dossier that changes customer (issue 23 item 8, ADR 0044)', () => {
  it('stamps every message with the party the dossier is for, on any path, and refuses a customer of another party', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier())).body as { id: string; version: number };
    const users = await db.db.selectFrom('users').select(['id', 'email']).execute();
    const userId = (email: string) => users.find((u) => u.email === email)?.id as string;
    // A row written without the party (a seed, a script) gets the dossier's customer.
    const stamped = await db.db
      .insertInto('chat_messages')
      .values({ dossier_id: d.id, author_id: userId('staff@fvg.local'), text: 'Direct' })
      .returning('party_id')
      .executeTakeFirstOrThrow();
    expect(stamped.party_id).toBe(partyId.ACME);
    // Naming another party than the dossier's, or written by a customer of another party: refused.
    await expect(
      db.db
        .insertInto('chat_messages')
        .values({
          dossier_id: d.id,
          author_id: userId('staff@fvg.local'),
          party_id: partyId.GLOBEX,
          text: 'x',
        })
        .execute(),
    ).rejects.toThrow(/party/);
    await expect(
      db.db
        .insertInto('chat_messages')
        .values({ dossier_id: d.id, author_id: userId('customer@globex.example'), text: 'x' })
        .execute(),
    ).rejects.toThrow(/another party/);
    // After the move, new messages are the new party's; the earlier one stays Acme's.
    expect(
      (await call('PATCH', `/dossiers/${d.id}`, staff, { customerId: partyId.GLOBEX, version: d.version }))
        .status,
    ).toBe(200);
    const after = await db.db
      .insertInto('chat_messages')
      .values({ dossier_id: d.id, author_id: userId('customer@globex.example'), text: 'Mine now' })
      .returning('party_id')
      .executeTakeFirstOrThrow();
    expect(after.party_id).toBe(partyId.GLOBEX);
    const parties = await db.db
      .selectFrom('chat_messages')
      .select(['text', 'party_id'])
      .where('dossier_id', '=', d.id)
      .orderBy('sent_at')
      .execute();
    expect(parties).toEqual([
      { text: 'Direct', party_id: partyId.ACME },
      { text: 'Mine now', party_id: partyId.GLOBEX },
    ]);
  });

  it('migration 0031 gives each earlier message the customer of its time, from the audit log', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier())).body as { id: string; version: number };
    const users = await db.db.selectFrom('users').select(['id', 'email']).execute();
    const userId = (email: string) => users.find((u) => u.email === email)?.id as string;
    const say = (author: string, text: string, sentAt: string) =>
      db.db
        .insertInto('chat_messages')
        .values({ dossier_id: d.id, author_id: userId(author), text, sent_at: new Date(sentAt) })
        .execute();
    await say('staff@fvg.local', 'Before the move', '2026-01-01T10:00:00Z');
    await say('customer@acme.example', 'Acme asks', '2026-01-01T11:00:00Z');
    expect(
      (await call('PATCH', `/dossiers/${d.id}`, staff, { customerId: partyId.GLOBEX, version: d.version }))
        .status,
    ).toBe(200);
    await sql`update audit_log set at = '2026-02-01T00:00:00Z'
      where record_kind = 'dossier' and record_id = ${d.id} and changes::text like '%customerId%'`.execute(
      db.db,
    );
    await say('staff@fvg.local', 'After the move', '2026-03-01T10:00:00Z');
    const rollback = new Error('rollback');
    const result = await db.db
      .transaction()
      .execute(async (trx) => {
        // The state the first backfill left: the whole chat stamped with the dossier's customer now.
        await sql`alter table chat_messages disable trigger chat_messages_party`.execute(trx);
        await sql`update chat_messages set party_id = ${partyId.GLOBEX} where dossier_id = ${d.id}`.execute(
          trx,
        );
        await chatPartyBackfill(trx as never);
        const rows = await trx
          .selectFrom('chat_messages')
          .select(['text', 'party_id'])
          .where('dossier_id', '=', d.id)
          .orderBy('sent_at')
          .execute();
        throw Object.assign(rollback, { rows });
      })
      .catch((e) => (e === rollback ? (rollback as Error & { rows: unknown }).rows : Promise.reject(e)));
    expect(result).toEqual([
      { text: 'Before the move', party_id: partyId.ACME },
      { text: 'Acme asks', party_id: partyId.ACME },
      { text: 'After the move', party_id: partyId.GLOBEX },
    ]);
  });
});

describe('the customer reference is the customer’s own: it does not follow a move', () => {
  it('clears the reference when the dossier moves to another customer, audited; the new customer never reads it', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier({ customerReference: 'ACME-PO-7781' })))
      .body as { id: string; version: number };
    const moved = await call('PATCH', `/dossiers/${d.id}`, staff, {
      customerId: partyId.GLOBEX,
      version: d.version,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.customerReference).toBeNull();
    const globex = (await demoTokens(setup.app)).globex;
    const read = await call('GET', `/dossiers/${d.id}`, globex);
    expect(read.status).toBe(200);
    expect(read.body.customerReference).toBeNull();
    expect(JSON.stringify(read.body)).not.toContain('ACME-PO-7781');
    expect((await call('GET', `/dossiers/${d.id}/history`, globex)).raw).not.toContain('ACME-PO-7781');
    const found = await call('GET', '/dossiers?q=ACME-PO-7781', globex);
    expect(found.body.items).toEqual([]);
    // Staff read in the history that the move cleared it.
    const history = (await call('GET', `/dossiers/${d.id}/history`, staff)).body as unknown as {
      changes: { field: string; from: unknown; to: unknown }[];
    }[];
    expect(history[0]?.changes).toEqual(
      expect.arrayContaining([{ field: 'customerReference', from: 'ACME-PO-7781', to: null }]),
    );
  });

  it('keeps a new reference given with the move, and the database clears an old one whoever moves the dossier', async () => {
    const d = (await call('POST', '/dossiers', staff, newDossier({ customerReference: 'ACME-PO-1' })))
      .body as { id: string; version: number };
    const moved = await call('PATCH', `/dossiers/${d.id}`, staff, {
      customerId: partyId.GLOBEX,
      customerReference: 'GLX-42',
      version: d.version,
    });
    expect(moved.body.customerReference).toBe('GLX-42');
    // The same reference sent again with the move is still the old customer's: cleared.
    const again = await call('PATCH', `/dossiers/${d.id}`, staff, {
      customerId: partyId.ACME,
      customerReference: 'GLX-42',
      version: moved.body.version,
    });
    expect(again.body.customerReference).toBeNull();
    await sql`update dossiers set customer_reference = 'ACME-PO-2' where id = ${d.id}`.execute(db.db);
    await sql`update dossiers set customer_id = ${partyId.GLOBEX} where id = ${d.id}`.execute(db.db);
    const row = await db.db
      .selectFrom('dossiers')
      .select('customer_reference')
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row.customer_reference).toBeNull();
  });
});
