import { beforeAll, describe, expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';

const setup = apiTest();
const { db, call, tokens } = setup;
let parties: Record<string, string>;
let acmeDossier: { id: string; number: string };
let globexDossier: { id: string; number: string };
const fields = (b: Json) => ((b.errors as { field: string }[]) ?? []).map((e) => e.field);
beforeAll(async () => {
  parties = Object.fromEntries(
    (await db.db.selectFrom('parties').select(['code', 'id']).execute()).map((p) => [p.code, p.id]),
  );
  const mk = async (customer: string) =>
    (
      await call('POST', '/dossiers', tokens.staff, {
        type: 'export',
        mode: 'road',
        customerId: parties[customer],
        containers: [{ number: 'MSKU6011672' }, { number: 'CSQU3054383' }],
      })
    ).body as { id: string; number: string };
  acmeDossier = await mk('ACME');
  globexDossier = await mk('GLOBEX');
});

const leg = (over: Json = {}): Json => ({
  dossierId: acmeDossier.number,
  mode: 'road',
  carrierId: parties.NORDCAR,
  truckPlate: 'AB-123-C',
  pickupLocode: 'NLRTM',
  pickupFrom: '2026-12-01T08:00:00Z',
  pickupTo: '2026-12-01T10:00:00Z',
  deliveryLocode: 'DEHAM',
  deliveryFrom: '2026-12-01T16:00:00Z',
  deliveryTo: '2026-12-01T18:00:00Z',
  containers: ['MSKU6011672'],
  ...over,
});

describe('transports', () => {
  it('numbers the legs of a dossier and takes containers from it', async () => {
    const first = await call('POST', '/transports', tokens.staff, leg());
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      sequence: 1,
      status: 'planned',
      carrier: { code: 'NORDCAR' },
      containers: ['MSKU6011672'],
    });
    const second = await call('POST', '/transports', tokens.staff, leg({ containers: ['csqu 305438-3'] }));
    expect(second.body).toMatchObject({ sequence: 2, containers: ['CSQU3054383'] });
    const foreign = await call('POST', '/transports', tokens.staff, leg({ containers: ['TEXU3070079'] }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'containers.0', message: 'Container TEXU3070079 is not on this dossier' },
    ]);
  });

  it('validates windows, vehicles and the carrier role', async () => {
    const cases: [Json, string][] = [
      [{ pickupTo: '2026-12-01T07:00:00Z' }, 'pickupTo'],
      [{ deliveryTo: '2026-12-01T15:00:00Z' }, 'deliveryTo'],
      [{ deliveryFrom: '2026-11-30T16:00:00Z', deliveryTo: '2026-11-30T18:00:00Z' }, 'deliveryFrom'],
      [{ mode: 'sea', vesselImo: '9321484' }, 'vesselImo'],
      [{ mode: 'air', flightNumber: 'K' }, 'flightNumber'],
      [{ mode: 'air', vesselName: 'Ever Given' }, 'vesselName'],
      [{ pickupLocode: 'XXABC' }, 'pickupLocode'],
      [{ pickupFrom: 'tomorrow' }, 'pickupFrom'],
      [{ carrierId: parties.ACME }, 'carrierId'],
      [{ dossierId: 'D-1999-000001' }, 'dossierId'],
    ];
    for (const [over, field] of cases) {
      const r = await call('POST', '/transports', tokens.staff, leg(over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(fields(r.body), JSON.stringify(over)).toContain(field);
    }
  });

  it('edits with a version, checks the merged windows, and walks the status actions', async () => {
    const t = (await call('POST', '/transports', tokens.staff, leg())).body as { id: string };
    const bad = await call('PATCH', `/transports/${t.id}`, tokens.staff, {
      version: 1,
      deliveryFrom: '2026-11-20T10:00:00Z',
    });
    expect(fields(bad.body)).toEqual(['deliveryFrom']);
    const ok = await call('PATCH', `/transports/${t.id}`, tokens.staff, { version: 1, driverName: 'Piet' });
    expect(ok.body).toMatchObject({ driverName: 'Piet', version: 2 });
    expect(
      (await call('PATCH', `/transports/${t.id}`, tokens.staff, { version: 1, driverName: 'Jan' })).status,
    ).toBe(409);
    let version = 2;
    for (const to of ['dispatched', 'picked_up', 'delivered']) {
      const r = await call('POST', `/transports/${t.id}/transitions`, tokens.staff, { to, version });
      expect(r.status, to).toBe(200);
      version = r.body.version as number;
    }
    const done = (await call('GET', `/transports/${t.id}`, tokens.staff)).body;
    expect(done.actualPickupAt).toBeTruthy();
    expect(done.actualDeliveryAt).toBeTruthy();
    expect(
      (await call('POST', `/transports/${t.id}/transitions`, tokens.staff, { to: 'cancelled', version }))
        .status,
    ).toBe(409);
    const history = (await call('GET', `/transports/${t.id}/history`, tokens.staff)).body as unknown as {
      action: string;
    }[];
    expect(history.map((h) => h.action)).toEqual([
      'status changed',
      'status changed',
      'status changed',
      'updated',
      'created',
    ]);
  });

  it('lets customers read the legs of their own dossiers only, and change nothing', async () => {
    const other = (
      await call('POST', '/transports', tokens.staff, leg({ dossierId: globexDossier.id, containers: [] }))
    ).body as { id: string };
    const mine = await call('GET', '/transports', tokens.acme);
    const numbers = (mine.body.items as { dossier: { number: string } }[]).map((t) => t.dossier.number);
    expect(numbers.length).toBeGreaterThan(0);
    expect(new Set(numbers)).toEqual(new Set([acmeDossier.number]));
    expect((await call('GET', `/transports/${other.id}`, tokens.acme)).status).toBe(404);
    const own = (mine.body.items as { id: string; version: number; allowedTransitions: string[] }[])[0];
    expect(own?.allowedTransitions).toEqual([]);
    expect(
      (
        await call('PATCH', `/transports/${own?.id}`, tokens.acme, {
          version: own?.version ?? 1,
          driverName: 'x',
        })
      ).status,
    ).toBe(403);
    expect((await call('POST', '/transports', tokens.acme, leg())).status).toBe(403);
  });

  it('keeps the planning board and its flags from customers', async () => {
    // An unassigned leg is flagged on the board: the flag must not reach the customer elsewhere.
    const flagged = (await call('POST', '/transports', tokens.staff, leg({ carrierId: null }))).body as {
      id: string;
    };
    const board = await call('GET', '/planning?from=2026-11-30&to=2026-12-06', tokens.acme);
    expect(board.status).toBe(403);
    expect(String(board.headers['content-type'])).toMatch(/^application\/problem\+json/);
    const list = await call('GET', '/transports?sort=-updatedAt', tokens.acme);
    const mine = list.body.items as Record<string, unknown>[];
    expect(mine.some((t) => t.id === flagged.id)).toBe(true);
    for (const t of mine) expect(t).not.toHaveProperty('flags');
    expect((await call('GET', `/transports/${flagged.id}`, tokens.acme)).body).not.toHaveProperty('flags');
    expect((await call('GET', '/planning?from=2026-11-30&to=2026-12-06', tokens.staff)).status).toBe(200);
  });
});

describe('planning', () => {
  it('groups a week by carrier, unassigned first, and flags missing carriers, passed pickups and vehicle overlaps', async () => {
    await call(
      'POST',
      '/transports',
      tokens.staff,
      leg({
        carrierId: null,
        truckPlate: 'ZZ-999-Z',
        pickupFrom: '2026-12-02T08:00:00Z',
        pickupTo: '2026-12-02T09:00:00Z',
        deliveryFrom: '2026-12-02T12:00:00Z',
        deliveryTo: '2026-12-02T13:00:00Z',
      }),
    );
    const past = (
      await call(
        'POST',
        '/transports',
        tokens.staff,
        leg({
          carrierId: parties.BLUESEA,
          truckPlate: 'PA-555-ST',
          pickupFrom: '2020-01-01T08:00:00Z',
          pickupTo: '2020-01-01T09:00:00Z',
          deliveryFrom: '2020-01-01T10:00:00Z',
          deliveryTo: '2020-01-01T11:00:00Z',
        }),
      )
    ).body as { id: string };
    const plan = await call('GET', '/planning?from=2026-11-30&to=2026-12-06', tokens.staff);
    expect(plan.status).toBe(200);
    type Item = {
      id: string;
      truckPlate: string;
      pickupFrom: string;
      carrier: { code: string } | null;
      flags: string[];
    };
    const items = plan.body.items as Item[];
    expect(plan.body.total).toBe(items.length);
    expect(plan.body.nextCursor).toBeNull();
    // Time order: by the leg's start.
    expect(items.map((t) => t.pickupFrom)).toEqual(items.map((t) => t.pickupFrom).sort());
    const unassigned = items.filter((t) => !t.carrier);
    expect(unassigned.length).toBeGreaterThan(0);
    expect(unassigned.every((t) => t.flags.includes('missing_carrier'))).toBe(true);
    expect(items.filter((t) => t.carrier).some((t) => t.flags.includes('missing_carrier'))).toBe(false);
    // The several AB-123-C legs on 1 December overlap each other.
    const ab = items.filter((t) => t.truckPlate === 'AB-123-C');
    expect(ab.length).toBeGreaterThan(1);
    expect(ab.every((t) => t.flags.includes('vehicle_overlap'))).toBe(true);
    const old = await call('GET', '/planning?from=2020-01-01&to=2020-01-01', tokens.staff);
    const oldLegs = old.body.items as { id: string; flags: string[] }[];
    expect(oldLegs.find((t) => t.id === past.id)?.flags).toContain('pickup_passed');
    expect(fields((await call('GET', '/planning?from=2026-12-06&to=2026-12-01', tokens.staff)).body)).toEqual(
      ['to'],
    );
    expect((await call('GET', '/planning?from=2026-01-01&to=2026-12-31', tokens.staff)).status).toBe(400);
    expect(
      fields((await call('GET', '/planning?from=2026-11-30&to=2026-12-06&limit=0', tokens.staff)).body),
    ).toEqual(['limit']);
    expect(
      fields(
        (await call('GET', '/planning?from=2026-11-30&to=2026-12-06&cursor=nonsense', tokens.staff)).body,
      ),
    ).toEqual(['cursor']);
  });

  it('reads the days in the browser’s time zone (tz), UTC by default', async () => {
    const late = (
      await call(
        'POST',
        '/transports',
        tokens.staff,
        leg({
          pickupFrom: '2027-05-03T23:30:00Z',
          pickupTo: '2027-05-03T23:45:00Z',
          deliveryFrom: '2027-05-03T23:50:00Z',
          deliveryTo: '2027-05-03T23:55:00Z',
        }),
      )
    ).body as { id: string };
    const ids = async (q: string) =>
      ((await call('GET', `/planning?${q}`, tokens.staff)).body.items as { id: string }[]).map((t) => t.id);
    // 23:30 UTC on 3 May is 01:30 on 4 May in Amsterdam (summer time).
    expect(await ids('from=2027-05-03&to=2027-05-03')).toContain(late.id);
    expect(await ids('from=2027-05-04&to=2027-05-04')).not.toContain(late.id);
    expect(await ids('from=2027-05-04&to=2027-05-04&tz=Europe/Amsterdam')).toContain(late.id);
    expect(await ids('from=2027-05-03&to=2027-05-03&tz=Europe/Amsterdam')).not.toContain(late.id);
    expect(
      fields(
        (await call('GET', '/planning?from=2027-05-03&to=2027-05-03&tz=Mars/Olympus', tokens.staff)).body,
      ),
    ).toEqual(['tz']);
  });

  it('pages the range by cursor in time order, every leg once, with the total on each page', async () => {
    const all = (await call('GET', '/planning?from=2026-11-30&to=2026-12-06', tokens.staff)).body;
    const ids = (all.items as { id: string }[]).map((t) => t.id);
    expect(ids.length).toBeGreaterThan(2);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/planning?from=2026-11-30&to=2026-12-06&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call('GET', url, tokens.staff);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(ids.length);
      const items = page.body.items as { id: string }[];
      expect(items.length).toBeLessThanOrEqual(2);
      seen.push(...items.map((t) => t.id));
      cursor = page.body.nextCursor as string | null;
      pages++;
    } while (cursor && pages < 50);
    expect(seen).toEqual(ids);
    expect(pages).toBe(Math.ceil(ids.length / 2));
  });

  it('detects overlaps per vehicle (plates compared without spaces and hyphens) only when the spans really overlap, on every page', async () => {
    const at = (d: number, h: number) =>
      `2027-03-${String(d).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00Z`;
    const mk = async (plate: string, day: number, from: number, to: number) =>
      (
        (
          await call(
            'POST',
            '/transports',
            tokens.staff,
            leg({
              truckPlate: plate,
              pickupFrom: at(day, from),
              pickupTo: at(day, from),
              deliveryFrom: at(day, to),
              deliveryTo: at(day, to),
            }),
          )
        ).body as { id: string }
      ).id;
    const a = await mk('X 1', 2, 8, 10);
    const b = await mk('x-1', 2, 9, 11);
    const c = await mk('X1', 2, 11, 12);
    const d = await mk('Y1', 2, 8, 20);
    const e = await mk('Z9', 3, 22, 23);
    await mk('z-9', 3, 21, 23);
    const flagged = async (from: string, to: string) =>
      new Set(
        (
          (await call('GET', `/planning?from=${from}&to=${to}`, tokens.staff)).body.items as {
            id: string;
            flags: string[];
          }[]
        )
          .filter((t) => t.flags.includes('vehicle_overlap'))
          .map((t) => t.id),
      );
    const day2 = await flagged('2027-03-02', '2027-03-02');
    expect([a, b, c, d].filter((id) => day2.has(id)).sort()).toEqual([a, b].sort());
    expect((await flagged('2027-03-03', '2027-03-03')).has(e)).toBe(true);
    // One leg a page: a and b sit on different pages and are still flagged.
    const paged = new Set<string>();
    let cursor: string | null = null;
    do {
      const url: string = `/planning?from=2027-03-02&to=2027-03-02&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await call('GET', url, tokens.staff)).body;
      for (const t of page.items as { id: string; flags: string[] }[])
        if (t.flags.includes('vehicle_overlap')) paged.add(t.id);
      cursor = page.nextCursor as string | null;
    } while (cursor);
    expect([...paged].sort()).toEqual([...day2].sort());
    // A cancelled leg no longer blocks its vehicle.
    const bVersion = ((await call('GET', `/transports/${b}`, tokens.staff)).body as { version: number })
      .version;
    expect(
      (
        await call('POST', `/transports/${b}/transitions`, tokens.staff, {
          to: 'cancelled',
          version: bVersion,
        })
      ).status,
    ).toBe(200);
    expect((await flagged('2027-03-02', '2027-03-02')).has(a)).toBe(false);
  });
});

describe('transport notes are internal (issue 23 item 9)', () => {
  const NOTE = 'Internal: driver paid cash zyxnote';

  it('hides notes from the customer in the record, list, export, history and search; staff see them', async () => {
    const created = await call('POST', '/transports', tokens.staff, leg({ notes: NOTE }));
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const version = (created.body as { version: number }).version;
    expect(
      (await call('PATCH', `/transports/${id}`, tokens.staff, { notes: `${NOTE} again`, version })).status,
    ).toBe(200);

    // Staff see every form of it.
    expect((await call('GET', `/transports/${id}`, tokens.staff)).body.notes).toBe(`${NOTE} again`);

    // The customer: null in the record and the list, absent from the export, the history and search.
    const one = await call('GET', `/transports/${id}`, tokens.acme);
    expect(one.status).toBe(200);
    expect(one.body.notes).toBeNull();
    const list = await call('GET', `/transports?dossierId=${acmeDossier.number}&limit=100`, tokens.acme);
    const item = (list.body.items as Json[]).find((t) => t.id === id);
    expect(item).toBeDefined();
    expect(item?.notes).toBeNull();
    const csv = await call('GET', `/transports?format=csv&dossierId=${acmeDossier.number}`, tokens.acme);
    expect(csv.status).toBe(200);
    expect(csv.raw).not.toContain('zyxnote');
    expect(csv.raw).not.toContain('Internal notes');
    const history = await call('GET', `/transports/${id}/history`, tokens.acme);
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).not.toContain('zyxnote');
    const found = await call('GET', '/search?q=zyxnote', tokens.acme);
    expect(JSON.stringify(found.body)).not.toContain(id);
    // A filter or sort by the hidden field is refused, not answered as if it matched.
    expect((await call('GET', '/transports?sort=notes', tokens.acme)).status).toBe(400);
    const staffCsv = await call(
      'GET',
      `/transports?format=csv&dossierId=${acmeDossier.number}`,
      tokens.staff,
    );
    expect(staffCsv.raw).toContain(`${NOTE} again`);
  });

  it('keeps a separate remark for the customer, which the customer sees', async () => {
    const created = await call(
      'POST',
      '/transports',
      tokens.staff,
      leg({ notes: NOTE, customerRemark: 'Delivery at gate 4, call ahead' }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const mine = await call('GET', `/transports/${id}`, tokens.acme);
    expect(mine.body).toMatchObject({ customerRemark: 'Delivery at gate 4, call ahead', notes: null });
    const history = await call('GET', `/transports/${id}/history`, tokens.acme);
    expect(JSON.stringify(history.body)).toContain('Delivery at gate 4, call ahead');
    const csv = await call('GET', `/transports?format=csv&dossierId=${acmeDossier.number}`, tokens.acme);
    expect(csv.raw).toContain('Remark for the customer');
    expect(csv.raw).toContain('Delivery at gate 4, call ahead');
  });
});

describe('the driver is internal (product.md gives customers no driver)', () => {
  const DRIVER = 'Piet Zyxdriver';
  const PHONE = '+31 6 1234 9876';

  it('hides driver name and phone from the customer in the record, list, export, history and search', async () => {
    const created = await call('POST', '/transports', tokens.staff, leg({ driverName: DRIVER }));
    expect(created.status).toBe(201);
    const { id, version } = created.body as { id: string; version: number };
    expect(
      (await call('PATCH', `/transports/${id}`, tokens.staff, { driverPhone: PHONE, version })).status,
    ).toBe(200);

    // Staff see it everywhere and find the leg by the driver's name.
    expect((await call('GET', `/transports/${id}`, tokens.staff)).body).toMatchObject({
      driverName: DRIVER,
      driverPhone: PHONE,
    });
    const staffFound = await call('GET', '/transports?q=zyxdriver', tokens.staff);
    expect((staffFound.body.items as Json[]).map((t) => t.id)).toContain(id);
    const staffCsv = await call(
      'GET',
      `/transports?format=csv&dossierId=${acmeDossier.number}`,
      tokens.staff,
    );
    expect(staffCsv.raw).toContain(DRIVER);
    expect(staffCsv.raw).toContain(PHONE);

    const one = await call('GET', `/transports/${id}`, tokens.acme);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ driverName: null, driverPhone: null });
    const list = await call('GET', `/transports?dossierId=${acmeDossier.number}`, tokens.acme);
    const item = (list.body.items as Json[]).find((t) => t.id === id);
    expect(item).toMatchObject({ driverName: null, driverPhone: null });
    // A customer's q never matches the driver: it cannot probe the name letter by letter.
    const probe = await call('GET', '/transports?q=zyxdriver', tokens.acme);
    expect(probe.status).toBe(200);
    expect(probe.body.items).toEqual([]);
    // The planning board is staff's own (403 for customers).
    expect((await call('GET', '/planning?from=2026-12-01&to=2026-12-01', tokens.acme)).status).toBe(403);
    const csv = await call('GET', `/transports?format=csv&dossierId=${acmeDossier.number}`, tokens.acme);
    expect(csv.status).toBe(200);
    expect(csv.raw).not.toContain('Zyxdriver');
    expect(csv.raw).not.toContain(PHONE);
    expect(csv.raw).not.toContain('Driver');
    const history = await call('GET', `/transports/${id}/history`, tokens.acme);
    expect(history.status).toBe(200);
    expect(JSON.stringify(history.body)).not.toContain('Zyxdriver');
    expect(JSON.stringify(history.body)).not.toContain(PHONE);
    const found = await call('GET', '/search?q=zyxdriver', tokens.acme);
    expect(JSON.stringify(found.body)).not.toContain(id);
    expect((await call('GET', '/transports?sort=driverName', tokens.acme)).status).toBe(400);
  });
});
