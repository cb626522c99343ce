import {
  CUSTOMS_STATUSES,
  DASHBOARD_CARDS,
  type DashboardCard,
  type DashboardCardName,
  type DashboardFigure,
  type DashboardIndex,
  type DashboardPoint,
  DCSA_EVENT_TYPES,
  type DeclarationStatus,
  type DossierStatus,
  type InvoiceStatus,
  type SearchLink,
  type ShipmentStatus,
  STAFF_DASHBOARD_CARDS,
  type TransportStatus,
  WAREHOUSE_DASHBOARD_CARDS,
} from '@fvg/contracts';
import type { Db } from '../../db/database.ts';
import { problems } from '../../http/problem.ts';
import { type Scope, scopeOf } from '../../records/scope.ts';
import { withTimeZone } from '../../records/time-zone.ts';
import { COMPANY_TIME_ZONE } from '../sales-invoices/sales-invoices.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { requireCwAccess } from '../warehouse/access.ts';
import { type CardWindow, cardQueries, dashboardRepository, type KeyCount } from './dashboard.repository.ts';

/** Dossiers still being worked on: everything but closed and cancelled. */
export const OPEN_DOSSIER_STATUSES = [
  'requested',
  'booked',
  'in_transit',
  'arrived',
  'cleared',
  'delivered',
] as const satisfies readonly DossierStatus[];
/**
 * Declarations waiting for the forwarder: drafts to complete and lodge, rejections to correct, controls
 * to answer, and goods not released to re-export, abandon or declare anew (issue 27 item 5). Lodged and
 * accepted ones wait for the authority, not for us.
 */
export const AWAITING_DECLARATION_STATUSES = [
  'draft',
  'rejected',
  'under_control',
  'not_released',
] as const satisfies readonly DeclarationStatus[];
/** Shipments not yet out of the door. */
export const OPEN_SHIPMENT_STATUSES = [
  'draft',
  'released',
  'picking',
  'packed',
] as const satisfies readonly ShipmentStatus[];
/** Legs that will run (or ran): all but cancelled, as the planning board counts them. */
export const LIVE_TRANSPORT_STATUSES = [
  'planned',
  'dispatched',
  'picked_up',
  'in_transit',
  'delivered',
] as const satisfies readonly TransportStatus[];
/** Numbered documents: revenue counts every invoice and credit note once issued. */
export const NUMBERED_INVOICE_STATUSES = [
  'issued',
  'partially_paid',
  'paid',
  'credited',
] as const satisfies readonly InvoiceStatus[];

/**
 * The zone whose "today" a card counts when the request names none: the user's own (profile, ADR 0039),
 * else the company's, which overdue invoices and declaration dates already use. The web always names
 * the zone it shows dates in, so this only serves API callers.
 */
export async function defaultZoneOf(db: Db, user: SessionUser): Promise<string> {
  const row = await db
    .selectFrom('user_preferences')
    .select('time_zone')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return row?.time_zone ?? COMPANY_TIME_ZONE;
}

/** The cards this user gets: no forwarder's figures for customers, no warehouse without cw_access. */
export function cardsFor(user: SessionUser): DashboardCardName[] {
  return DASHBOARD_CARDS.filter(
    (c) =>
      !(user.role === 'customer' && STAFF_DASHBOARD_CARDS.includes(c)) &&
      !(!user.cw_access && WAREHOUSE_DASHBOARD_CARDS.includes(c)),
  );
}

/**
 * Whether the user may open a card: a customer asking for revenue gets 404 (it does not exist for
 * them), a user without cw_access asking for the warehouse 403 (as every warehouse endpoint answers).
 */
export function checkCardAccess(user: SessionUser, card: string): void {
  if (user.role === 'customer' && (STAFF_DASHBOARD_CARDS as readonly string[]).includes(card))
    throw problems.notFound('There is no such dashboard card.');
  if ((WAREHOUSE_DASHBOARD_CARDS as readonly string[]).includes(card)) requireCwAccess(user);
}

// ---- calendar days, as plain dates ---------------------------------------------------------------

const DAY_MS = 86_400_000;
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => dayOf(new Date(asDate(day).getTime() + n * DAY_MS));

/** The calendar day in `tz` at `at`. */
export function dayIn(tz: string, at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** The days and instants a card counts, from one clock reading, so figures and links agree. */
export function windowOf(tz: string, now: Date): CardWindow & { today: string } {
  const today = dayIn(tz, now);
  const weekFrom = addDays(today, -((asDate(today).getUTCDay() + 6) % 7));
  const monthFrom = `${today.slice(0, 8)}01`;
  const next = asDate(monthFrom);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return {
    tz,
    today,
    weekFrom,
    monthFrom,
    monthTo: addDays(dayOf(next), -1),
    since: new Date(now.getTime() - DAY_MS).toISOString(),
    until: now.toISOString(),
  };
}

// ---- links ---------------------------------------------------------------------------------------

/** A list screen of the web with the URL search it understands (the list API takes the same names). */
const link = (route: string, search: Record<string, string> = {}): SearchLink => ({
  route,
  params: {},
  search,
});
const csv = (values: readonly string[]) => values.join(',');

const count = (rows: KeyCount[], key: string) => rows.find((r) => r.key === key)?.n ?? 0;
const total = (rows: KeyCount[]) => rows.reduce((n, r) => n + r.n, 0);

/** Cards that count by status: one bar per status, and the total linked to all of them. */
function byStatus(
  rows: KeyCount[],
  keys: readonly string[],
  totalKey: string,
  linkOf: (keys: readonly string[]) => SearchLink,
): Pick<DashboardCard, 'figures' | 'series'> {
  return {
    figures: [{ key: totalKey, value: total(rows), currency: null, link: linkOf(keys) }],
    series: keys.map((k) => ({ key: k, value: count(rows, k), link: linkOf([k]) })),
  };
}

export function dashboardService(db: Db) {
  const repo = dashboardRepository(db);

  async function compute(
    card: DashboardCardName,
    scope: Scope,
    w: ReturnType<typeof windowOf>,
  ): Promise<Omit<DashboardCard, 'card' | 'asOf' | 'live'>> {
    const declarationKeys = scope.all
      ? AWAITING_DECLARATION_STATUSES
      : // A customer never sees drafts (the declarations list hides them): their card has none.
        AWAITING_DECLARATION_STATUSES.filter((s) => s !== 'draft');
    const queries = cardQueries(scope, w, {
      dossiers: OPEN_DOSSIER_STATUSES,
      declarations: declarationKeys,
      stock: CUSTOMS_STATUSES,
      shipments: OPEN_SHIPMENT_STATUSES,
      transports: LIVE_TRANSPORT_STATUSES,
    });
    const rows = await repo.run(queries[card]);
    const noChart = { series: [] as DashboardPoint[], seriesCurrency: null, period: null };
    switch (card) {
      case 'dossiers':
        return {
          ...noChart,
          ...byStatus(rows, OPEN_DOSSIER_STATUSES, 'open', (s) => link('dossiers', { status: csv(s) })),
        };
      case 'declarations':
        return {
          ...noChart,
          ...byStatus(rows, declarationKeys, 'awaiting', (s) => link('declarations', { status: csv(s) })),
        };
      case 'shipments':
        return {
          ...noChart,
          ...byStatus(rows, OPEN_SHIPMENT_STATUSES, 'open', (s) => link('shipments', { status: csv(s) })),
        };
      case 'stock':
        return {
          ...noChart,
          ...byStatus(rows, CUSTOMS_STATUSES, 'onHand', (s) =>
            link('stock', s.length === 1 ? { customsStatus: csv(s), onHand: 'true' } : { onHand: 'true' }),
          ),
        };
      case 'transports': {
        const legs = (from: string, to: string) =>
          link('transports', {
            pickupFrom: from,
            pickupTo: to,
            tz: w.tz,
            status: csv(LIVE_TRANSPORT_STATUSES),
          });
        const days = Array.from({ length: 7 }, (_, i) => addDays(w.weekFrom, i));
        const weekTo = addDays(w.weekFrom, 6);
        return {
          period: { from: w.weekFrom, to: weekTo, timeZone: w.tz },
          figures: [
            { key: 'today', value: count(rows, w.today), currency: null, link: legs(w.today, w.today) },
            { key: 'week', value: total(rows), currency: null, link: legs(w.weekFrom, weekTo) },
          ],
          series: days.map((d) => ({ key: d, value: count(rows, d), link: legs(d, d) })),
          seriesCurrency: null,
        };
      }
      case 'invoices': {
        const overdue = link('sales-invoices', { overdue: 'true' });
        const amounts: DashboardFigure[] = rows
          .slice()
          .sort((a, b) => a.key.localeCompare(b.key))
          .map((r) => ({ key: 'overdueAmount', value: r.amount ?? '0.00', currency: r.key, link: overdue }));
        if (amounts.length === 0)
          amounts.push({
            key: 'overdueAmount',
            value: '0.00',
            currency: await repo.baseCurrency(),
            link: overdue,
          });
        return {
          ...noChart,
          figures: [{ key: 'overdue', value: total(rows), currency: null, link: overdue }, ...amounts],
        };
      }
      case 'revenue': {
        const currency = await repo.baseCurrency();
        const issued = (from: string, to: string) =>
          link('sales-invoices', { issuedFrom: from, issuedTo: to, status: csv(NUMBERED_INVOICE_STATUSES) });
        // Weeks (Monday to Sunday) cut to the month: the first and last may be short.
        const weeks: { from: string; to: string }[] = [];
        for (let from = w.monthFrom; from <= w.monthTo; ) {
          const sunday = addDays(from, 6 - ((asDate(from).getUTCDay() + 6) % 7));
          const to = [sunday, w.monthTo].sort()[0] as string;
          weeks.push({ from, to });
          from = addDays(to, 1);
        }
        const amountOf = (key: string) => rows.find((r) => r.key === key)?.amount ?? '0.00';
        const sum = rows.reduce((cents, r) => cents + BigInt((r.amount ?? '0.00').replace('.', '')), 0n);
        const sign = sum < 0n ? '-' : '';
        const abs = (sum < 0n ? -sum : sum).toString().padStart(3, '0');
        return {
          period: { from: w.monthFrom, to: w.monthTo, timeZone: w.tz },
          figures: [
            {
              key: 'revenue',
              value: `${sign}${abs.slice(0, -2)}.${abs.slice(-2)}`,
              currency,
              link: issued(w.monthFrom, w.monthTo),
            },
            { key: 'documents', value: total(rows), currency: null, link: issued(w.monthFrom, w.monthTo) },
          ],
          series: weeks.map((wk) => ({
            key: wk.from,
            value: amountOf(wk.from),
            link: issued(wk.from, wk.to),
          })),
          seriesCurrency: currency,
        };
      }
      case 'container-events': {
        const recent = (types: readonly string[]) =>
          link('container-events', {
            ...(types.length === 1 ? { eventType: csv(types) } : {}),
            from: w.since,
            to: w.until,
          });
        return {
          period: { from: w.since, to: w.until, timeZone: w.tz },
          figures: [
            { key: 'containers', value: total(rows), currency: null, link: recent(DCSA_EVENT_TYPES) },
          ],
          series: DCSA_EVENT_TYPES.map((t) => ({ key: t, value: count(rows, t), link: recent([t]) })),
          seriesCurrency: null,
        };
      }
    }
  }

  return {
    index: (user: SessionUser): DashboardIndex => ({ cards: cardsFor(user) }),

    async card(
      user: SessionUser,
      card: DashboardCardName,
      tz: string | undefined,
      now = new Date(),
    ): Promise<DashboardCard> {
      checkCardAccess(user, card);
      const zone = tz ?? (await defaultZoneOf(db, user));
      const w = windowOf(zone, now);
      const body = await withTimeZone(() => compute(card, scopeOf(user), w));
      // Every figure is counted live (or from trigger-kept counts, exact at commit): never behind.
      return { card, asOf: now.toISOString(), live: true, ...body };
    },
  };
}
export type DashboardService = ReturnType<typeof dashboardService>;
