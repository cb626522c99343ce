import {
  DASHBOARD_CARDS,
  type DashboardCard,
  type DashboardCardName,
  dashboardCardSchema,
  multiplyDecimal,
  type SearchLink,
  subtractDecimal,
  sumDecimal,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Auth, apiTest } from '../../test/api-test.ts';
import type { Json } from '../../test/helpers.ts';
import { gateIn } from '../container-events/test-support.ts';
import { cardsFor, windowOf } from './dashboard.service.ts';
import { listRequestOf } from './list-link.ts';

const setup = apiTest({ files: 'fvg-dashboard-', demoCompany: true });
const { db, tokens, call } = setup;
type RoleName = 'admin' | 'staff' | 'acme' | 'globex';
const ROLE_NAMES: RoleName[] = ['admin', 'staff', 'acme', 'globex'];

const qs = (query: Record<string, string>) =>
  Object.keys(query).length ? `?${new URLSearchParams(query)}` : '';

async function card(name: string, auth: Auth, query: Record<string, string> = {}) {
  return call('GET', `/dashboard/${name}${qs(query)}`, auth);
}

/** Every item of the list a link opens (walking the pages), and the first page's total. */
async function listOf(
  link: SearchLink,
  auth: Auth,
): Promise<{ total: number; estimate: boolean; items: Json[] }> {
  const { path: p, query } = listRequestOf(link);
  const items: Json[] = [];
  let first: Json | undefined;
  for (let page = 1; ; page++) {
    const r = await call(
      'GET',
      `${p.replace(/^\/api/, '')}${qs({ ...query, page: String(page), pageSize: '200' })}`,
      auth,
    );
    expect(r.status, `${p} ${JSON.stringify(query)}: ${JSON.stringify(r.body)}`).toBe(200);
    first ??= r.body;
    items.push(...(r.body.items as Json[]));
    if ((r.body.items as Json[]).length < 200) break;
  }
  return { total: first?.total as number, estimate: first?.totalIsEstimate as boolean, items };
}

/** What a money figure adds up from its list: open amounts of overdue invoices, base net of issued ones. */
async function moneyOf(cardName: DashboardCardName, items: Json[], currency: string | null, auth: Auth) {
  if (cardName === 'invoices')
    return sumDecimal(items.filter((i) => i.currency === currency).map((i) => i.openAmount as string));
  const amounts: string[] = [];
  for (const item of items) {
    const r = await call('GET', `/sales-invoices/${item.id as string}`, auth);
    const inv = r.body as {
      kind: string;
      exchangeRate: string | null;
      totals: { lineExtensionAmount: string };
    };
    const base = multiplyDecimal(inv.totals.lineExtensionAmount, inv.exchangeRate ?? '1', 2);
    amounts.push(inv.kind === 'credit_note' ? subtractDecimal('0', base) : base);
  }
  return sumDecimal(amounts);
}

/** Each figure and chart point of a card against the list its link opens, as `auth` sees both. */
async function expectFiguresMatchLists(c: DashboardCard, auth: Auth) {
  const points = [
    ...c.figures.map((f) => ({ ...f, what: `figure ${f.key} ${f.currency ?? ''}` })),
    ...c.series.map((p) => ({ ...p, currency: c.seriesCurrency, what: `point ${p.key}` })),
  ];
  let checked = 0;
  for (const p of points) {
    if (!p.link) continue;
    const list = await listOf(p.link, auth);
    expect(list.estimate, `${c.card} ${p.what}`).toBe(false);
    if (typeof p.value === 'number')
      expect(list.total, `${c.card} ${p.what} vs ${JSON.stringify(p.link)}`).toBe(p.value);
    else expect(await moneyOf(c.card, list.items, p.currency, auth), `${c.card} ${p.what}`).toBe(p.value);
    checked++;
  }
  return checked;
}

/** The status each role gets for a card: revenue is the forwarder's (404 to customers), stock and shipments need cw_access. */
function expectedStatus(cardName: DashboardCardName, role: RoleName): number {
  const customer = role === 'acme' || role === 'globex';
  const cw = role === 'admin' || role === 'acme';
  if (cardName === 'revenue' && customer) return 404;
  if ((cardName === 'stock' || cardName === 'shipments') && !cw) return 403;
  return 200;
}

beforeAll(async () => {
  // A container event an hour ago on one of ACME's dossiers, so the last 24 hours are never empty.
  const row = await sql<{ container: string }>`
    select unnest(d.container_numbers) as container from dossiers d join parties p on p.id = d.customer_id
    where p.code = 'ACME' and d.status in ('booked', 'in_transit', 'arrived') limit 1`.execute(db.db);
  const container = row.rows[0]?.container;
  if (container) {
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const r = await call(
      'POST',
      '/container-events',
      tokens.admin,
      gateIn(container, { eventDateTime: at, eventCreatedDateTime: at }),
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
});

describe('GET /api/dashboard', () => {
  it('lists the cards each role gets, in layout order', async () => {
    const cards = async (role: RoleName) => (await call('GET', '/dashboard', tokens[role])).body.cards;
    expect(await cards('admin')).toEqual([...DASHBOARD_CARDS]);
    expect(await cards('staff')).toEqual(DASHBOARD_CARDS.filter((c) => c !== 'stock' && c !== 'shipments'));
    expect(await cards('acme')).toEqual(DASHBOARD_CARDS.filter((c) => c !== 'revenue'));
    expect(await cards('globex')).toEqual(
      DASHBOARD_CARDS.filter((c) => !['revenue', 'stock', 'shipments'].includes(c)),
    );
    expect((await call('GET', '/dashboard', undefined)).status).toBe(401);
  });

  it('the index and the card endpoints agree on who gets what', () => {
    const user = (role: string, cw: boolean) => ({ role, cw_access: cw }) as Parameters<typeof cardsFor>[0];
    for (const [role, u] of [
      ['admin', user('admin', true)],
      ['staff', user('staff', false)],
      ['acme', user('customer', true)],
      ['globex', user('customer', false)],
    ] as const)
      expect(cardsFor(u)).toEqual(DASHBOARD_CARDS.filter((c) => expectedStatus(c, role) === 200));
  });
});

describe('every figure equals the total of the list it links to', () => {
  for (const cardName of DASHBOARD_CARDS)
    for (const role of ROLE_NAMES)
      it(`${cardName} as ${role}`, async () => {
        const r = await card(cardName, tokens[role]);
        expect(r.status, JSON.stringify(r.body)).toBe(expectedStatus(cardName, role));
        if (r.status !== 200) {
          expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
          return;
        }
        const c = dashboardCardSchema.parse(r.body);
        expect(c.card).toBe(cardName);
        expect(c.live).toBe(true);
        expect(await expectFiguresMatchLists(c, tokens[role])).toBeGreaterThan(0);
      });

  it('the demo company gives the admin something on every card (the comparisons above are not all zeros)', async () => {
    for (const cardName of DASHBOARD_CARDS) {
      const c = dashboardCardSchema.parse((await card(cardName, tokens.admin)).body);
      const values = [...c.figures, ...c.series].map((f) => Number(f.value));
      expect(
        values.some((v) => v !== 0),
        `${cardName}: ${JSON.stringify(c.figures)}`,
      ).toBe(true);
    }
  });

  it("a customer's figures are their own party's: ACME's and Globex's add up to at most the staff's", async () => {
    for (const cardName of ['dossiers', 'declarations', 'container-events', 'transports'] as const) {
      const value = async (role: RoleName) =>
        (dashboardCardSchema.parse((await card(cardName, tokens[role])).body).figures[0]?.value as number) ??
        0;
      const [admin, acme, globex] = [await value('admin'), await value('acme'), await value('globex')];
      expect(acme + globex, cardName).toBeLessThanOrEqual(admin);
    }
  });
});

describe('counts kept by triggers', () => {
  const snapshot = async () => ({
    parties: (
      await sql<{ area: string; party_id: string; key: string; day: string; n: string; amount: string }>`
        select area, party_id, key, day::text, n::text, amount::numeric(18, 2)::text as amount
        from dashboard_counts where n <> 0 or amount <> 0 order by 1, 2, 3, 4`.execute(db.db)
    ).rows,
    totals: (
      await sql<{ area: string; key: string; day: string; n: string; amount: string }>`
        select area, key, day::text, sum(n)::text as n, sum(amount)::numeric(18, 2)::text as amount
        from dashboard_totals group by 1, 2, 3 having sum(n) <> 0 or sum(amount) <> 0 order by 1, 2, 3`.execute(
        db.db,
      )
    ).rows,
  });

  it('follow creates, status changes and a change of customer, and equal a full recount', async () => {
    const before = dashboardCardSchema.parse((await card('dossiers', tokens.admin)).body);
    const requested = (c: DashboardCard) => c.series.find((p) => p.key === 'requested')?.value as number;
    const booking = await call('POST', '/dossiers/bookings', tokens.acme, {
      type: 'import',
      mode: 'sea',
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      cargoDescription: 'Pump parts',
    });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    const after = dashboardCardSchema.parse((await card('dossiers', tokens.admin)).body);
    expect(requested(after)).toBe(requested(before) + 1);
    expect(after.figures[0]?.value).toBe((before.figures[0]?.value as number) + 1);
    await expectFiguresMatchLists(after, tokens.admin);
    await expectFiguresMatchLists(
      dashboardCardSchema.parse((await card('dossiers', tokens.acme)).body),
      tokens.acme,
    );

    // A status change moves it between keys: cancelled is not open.
    const created = booking.body as { id: string; version: number };
    const cancel = await call('POST', `/dossiers/${created.id}/transitions`, tokens.staff, {
      to: 'cancelled',
      version: created.version,
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const cancelled = dashboardCardSchema.parse((await card('dossiers', tokens.admin)).body);
    expect(requested(cancelled)).toBe(requested(before));
    expect(cancelled.figures[0]?.value).toBe(before.figures[0]?.value);

    // A change of customer moves it between parties.
    const open = async (role: RoleName) =>
      dashboardCardSchema.parse((await card('dossiers', tokens[role])).body).figures[0]?.value as number;
    const [acmeBefore, globexBefore] = [await open('acme'), await open('globex')];
    const moved = await sql<{ id: string; version: number; globex: string }>`
      select d.id, d.version, (select id from parties where code = 'GLOBEX') as globex
      from dossiers d join parties p on p.id = d.customer_id
      where p.code = 'ACME' and d.status = 'booked' limit 1`.execute(db.db);
    const target = moved.rows[0];
    expect(target).toBeDefined();
    const patch = await call('PATCH', `/dossiers/${target?.id}`, tokens.staff, {
      customerId: target?.globex as string,
      version: target?.version as number,
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expect([await open('acme'), await open('globex')]).toEqual([acmeBefore - 1, globexBefore + 1]);
    for (const role of ['acme', 'globex'] as const)
      await expectFiguresMatchLists(
        dashboardCardSchema.parse((await card('dossiers', tokens[role])).body),
        tokens[role],
      );

    // A payment lowers the open amount of an overdue invoice, in its currency.
    const owed = await sql<{ id: string; currency: string }>`
      select id, currency from sales_invoices i
      where kind = 'invoice' and status in ('issued', 'partially_paid') and due_date < current_date - 2
        and tax_inclusive_amount - paid_amount - credited_amount > 1 limit 1`.execute(db.db);
    const unpaid = owed.rows[0];
    expect(unpaid, 'the demo has an overdue invoice').toBeDefined();
    const amountIn = (c: DashboardCard) =>
      c.figures.find((f) => f.key === 'overdueAmount' && f.currency === unpaid?.currency)?.value as string;
    const owedBefore = dashboardCardSchema.parse((await card('invoices', tokens.admin)).body);
    const paid = await call('POST', `/sales-invoices/${unpaid?.id}/payments`, tokens.staff, {
      paidOn: new Date().toISOString().slice(0, 10),
      amount: '1.00',
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const owedAfter = dashboardCardSchema.parse((await card('invoices', tokens.admin)).body);
    expect(amountIn(owedAfter)).toBe(subtractDecimal(amountIn(owedBefore), '1.00'));
    await expectFiguresMatchLists(owedAfter, tokens.admin);

    const kept = await snapshot();
    // The staff's totals are the parties' counts and amounts summed.
    const summed = new Map<string, { n: bigint; cents: bigint }>();
    const cents = (amount: string) => BigInt(amount.replace('.', ''));
    for (const r of kept.parties) {
      const name = `${r.area}/${r.key}/${r.day}`;
      const sum = summed.get(name) ?? { n: 0n, cents: 0n };
      summed.set(name, { n: sum.n + BigInt(r.n), cents: sum.cents + cents(r.amount) });
    }
    const sorted = <T>(rows: [string, T][]) => rows.sort(([a], [b]) => (a < b ? -1 : 1));
    expect(
      sorted(
        kept.totals.map((t) => [`${t.area}/${t.key}/${t.day}`, { n: BigInt(t.n), cents: cents(t.amount) }]),
      ),
    ).toEqual(sorted([...summed].filter(([, v]) => v.n !== 0n || v.cents !== 0n)));
    expect(kept.totals.some((t) => t.area === 'open-invoices')).toBe(true);
    expect(kept.totals.some((t) => t.area === 'revenue')).toBe(true);
    await sql`select dashboard_counts_rebuild()`.execute(db.db);
    expect(await snapshot()).toEqual(kept);
  });
});

describe('time zones', () => {
  it('refuses an unknown zone with a problem on tz, for every card', async () => {
    // '+01:00' is a zone to Intl (ES2024) but UTC−1 to PostgreSQL (POSIX): refused, not miscounted.
    for (const [cardName, tz] of [
      ['transports', 'Mars/Olympus_Mons'],
      ['dossiers', 'Mars/Olympus_Mons'],
      ['revenue', 'Mars/Olympus_Mons'],
      ['transports', '+01:00'],
    ] as const) {
      const r = await card(cardName, tokens.admin, { tz });
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
      expect((r.body.errors as { field: string }[]).map((e) => e.field)).toContain('tz');
    }
  });

  it("counts the zone's own days and says which; the company's zone when none is given", async () => {
    const plain = dashboardCardSchema.parse((await card('transports', tokens.admin)).body);
    expect(plain.period?.timeZone).toBe('Europe/Amsterdam');
    // Fourteen hours ahead of UTC and eleven behind: at most moments "today" differs between them.
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const r = dashboardCardSchema.parse((await card('transports', tokens.admin, { tz })).body);
      const w = windowOf(tz, new Date(r.asOf));
      expect(r.period).toEqual({ from: w.weekFrom, to: expect.any(String), timeZone: tz });
      expect(r.figures.find((f) => f.key === 'today')?.link?.search).toMatchObject({
        pickupFrom: w.today,
        pickupTo: w.today,
        tz,
      });
      await expectFiguresMatchLists(r, tokens.admin);
      const month = dashboardCardSchema.parse((await card('revenue', tokens.admin, { tz })).body);
      expect(month.period).toEqual({ from: w.monthFrom, to: w.monthTo, timeZone: tz });
      await expectFiguresMatchLists(month, tokens.admin);
    }
  });

  it("without tz, the user's own zone from the profile", async () => {
    const saved = await call('PATCH', '/profile', tokens.staff, { preferences: { timeZone: 'Asia/Tokyo' } });
    expect(saved.status).toBe(200);
    try {
      const mine = dashboardCardSchema.parse((await card('transports', tokens.staff)).body);
      expect(mine.period?.timeZone).toBe('Asia/Tokyo');
      // Another user's preference is theirs alone.
      const other = dashboardCardSchema.parse((await card('transports', tokens.admin)).body);
      expect(other.period?.timeZone).toBe('Europe/Amsterdam');
    } finally {
      await call('PATCH', '/profile', tokens.staff, { preferences: { timeZone: null } });
    }
  });

  it('lays out weeks and months on the calendar of the zone', () => {
    // Sunday 1 March 2026, 23:30 UTC is already Monday 2 March in Amsterdam.
    const w = windowOf('Europe/Amsterdam', new Date('2026-03-01T23:30:00Z'));
    expect(w).toMatchObject({
      today: '2026-03-02',
      weekFrom: '2026-03-02',
      monthFrom: '2026-03-01',
      monthTo: '2026-03-31',
    });
    const utc = windowOf('UTC', new Date('2026-03-01T23:30:00Z'));
    expect(utc).toMatchObject({ today: '2026-03-01', weekFrom: '2026-02-23', monthFrom: '2026-03-01' });
    expect(windowOf('UTC', new Date('2028-02-10T12:00:00Z')).monthTo).toBe('2028-02-29');
  });
});

describe('access', () => {
  it('answers 404 to a customer asking for revenue and 403 without cw_access for the warehouse, before validation', async () => {
    for (const [cardName, role, status] of [
      ['revenue', 'acme', 404],
      ['revenue', 'globex', 404],
      ['stock', 'staff', 403],
      ['shipments', 'globex', 403],
    ] as const) {
      const r = await card(cardName, tokens[role], { tz: 'not a zone' });
      expect(r.status, `${cardName} as ${role}`).toBe(status);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    }
    expect((await card('nonsense', tokens.admin)).status).toBe(400);
    expect((await card('dossiers', undefined as unknown as Auth)).status).toBe(401);
  });
});

describe('the list filters the links use', () => {
  it('transports: pickup days in the zone given by tz, the database days without it', async () => {
    // Monday 23:30 UTC is Tuesday 00:30 in Amsterdam.
    const leg = await sql<{ id: string }>`
      update transports set pickup_from = '2031-03-03T23:30:00Z'
      where id = (select id from transports where status <> 'cancelled' order by id limit 1) returning id`.execute(
      db.db,
    );
    expect(leg.rows).toHaveLength(1);
    const ids = async (query: Record<string, string>) => {
      const r = await call('GET', `/transports${qs(query)}`, tokens.admin);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.items as Json[]).map((t) => t.id);
    };
    const id = leg.rows[0]?.id;
    const tuesday = { pickupFrom: '2031-03-04', pickupTo: '2031-03-04' };
    const monday = { pickupFrom: '2031-03-03', pickupTo: '2031-03-03' };
    expect(await ids({ ...tuesday, tz: 'Europe/Amsterdam' })).toContain(id);
    expect(await ids({ ...monday, tz: 'Europe/Amsterdam' })).not.toContain(id);
    expect(await ids({ ...monday, tz: 'UTC' })).toContain(id);
    expect(await ids(monday)).toContain(id);
    const bad = await call('GET', `/transports${qs({ ...monday, tz: 'Nowhere/Atlantis' })}`, tokens.admin);
    expect(bad.status).toBe(400);
    expect((bad.body.errors as { field: string }[]).map((e) => e.field)).toContain('tz');
    // A zone the runtime still knows and PostgreSQL no longer does: the list and both exports (of
    // transports and of documents) answer 400 on tz, never 500.
    const days: Record<string, Record<string, string>> = {
      '/transports': monday,
      '/documents': { uploadedFrom: '2031-03-03', uploadedTo: '2031-03-03' },
    };
    for (const [path, day] of Object.entries(days)) {
      for (const format of [undefined, 'csv', 'xlsx']) {
        const query = { ...day, tz: 'US/Pacific-New', ...(format ? { format } : {}) };
        const r = await call('GET', `${path}${qs(query)}`, tokens.admin);
        expect(r.status, `${path} ${format ?? 'list'}`).toBe(400);
        expect((r.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['tz']);
      }
    }
  });

  it('containers: the latest event between from and to (instants), validated', async () => {
    const all = await listOf({ route: 'container-events', params: {} }, tokens.admin);
    const times = all.items.map((c) => c.lastEventAt as string).sort();
    const mid = times[Math.floor(times.length / 2)] as string;
    const from = await listOf({ route: 'container-events', params: {}, search: { from: mid } }, tokens.admin);
    const to = await listOf({ route: 'container-events', params: {}, search: { to: mid } }, tokens.admin);
    expect(from.items.every((c) => (c.lastEventAt as string) >= mid)).toBe(true);
    expect(to.items.every((c) => (c.lastEventAt as string) <= mid)).toBe(true);
    const at = times.filter((t) => t === mid).length;
    expect(from.total + to.total - at).toBe(all.total);
    for (const field of ['from', 'to']) {
      const r = await call('GET', `/containers${qs({ [field]: '2026-02-30T10:00:00Z' })}`, tokens.admin);
      expect(r.status).toBe(400);
      expect((r.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    }
  });

  it('stock: onHand=true keeps records with goods still here, false the others', async () => {
    const all = await listOf({ route: 'stock', params: {} }, tokens.admin);
    const here = await listOf({ route: 'stock', params: {}, search: { onHand: 'true' } }, tokens.admin);
    const gone = await listOf({ route: 'stock', params: {}, search: { onHand: 'false' } }, tokens.admin);
    expect(here.items.every((s) => Number(s.quantityOnHand) > 0)).toBe(true);
    expect(gone.items.every((s) => Number(s.quantityOnHand) === 0)).toBe(true);
    expect(here.total + gone.total).toBe(all.total);
    expect(here.total).toBeGreaterThan(0);
  });
});
