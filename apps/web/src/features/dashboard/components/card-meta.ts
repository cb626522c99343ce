import {
  CUSTOMS_STATUS_LABELS,
  type DashboardCard,
  type DashboardCardName,
  DECLARATION_STATUS_LABELS,
  INVOICE_STATUS_LABELS,
  SHIPMENT_STATUS_LABELS,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';
import { displayPreferences } from '../../../lib/display-preferences.ts';
import { formatWall } from '../../../lib/format-date.ts';
import { i18n, t } from '../../../lib/i18n.ts';
import { EVENT_KIND_LABELS, EVENT_TYPE_LABELS } from '../../container-events/index.ts';
import { DECLARATION_STATUS_COLORS } from '../../declarations/index.ts';
import { DOSSIER_STATUS_COLORS, DOSSIER_STATUS_LABELS } from '../../dossiers/index.ts';
import { INVOICE_STATUS_COLORS } from '../../sales-invoices/index.ts';
import { SHIPMENT_STATUS_COLORS } from '../../shipments/index.ts';
import { CUSTOMS_STATUS_COLORS } from '../../stock/index.ts';
import { TRANSPORT_STATUS_COLORS, TRANSPORT_STATUS_LABELS } from '../../transports/index.ts';

/*
 * How a card's keys read. The API keys figures and bars by codes ('open', a status, an event type, a
 * week); the words come from the dashboard catalogue (locales/en/dashboard.json) for the card's own
 * figure keys, and from the areas' own label maps for their codes, so a status reads on the dashboard
 * exactly as in its list.
 */

/** Each card's codes (statuses, event types) as its area words them. */
const AREA_LABELS: Readonly<Record<DashboardCardName, Readonly<Record<string, string>>>> = {
  dossiers: DOSSIER_STATUS_LABELS,
  transports: TRANSPORT_STATUS_LABELS,
  declarations: DECLARATION_STATUS_LABELS,
  invoices: INVOICE_STATUS_LABELS,
  revenue: INVOICE_STATUS_LABELS,
  'container-events': { ...EVENT_KIND_LABELS, ...EVENT_TYPE_LABELS },
  stock: CUSTOMS_STATUS_LABELS,
  shipments: SHIPMENT_STATUS_LABELS,
};

/** The areas' status colours, so a bar has the colour of its badge in the list. */
const AREA_COLORS: Readonly<Partial<Record<DashboardCardName, Readonly<Record<string, MantineColor>>>>> = {
  dossiers: DOSSIER_STATUS_COLORS,
  transports: TRANSPORT_STATUS_COLORS,
  declarations: DECLARATION_STATUS_COLORS,
  invoices: INVOICE_STATUS_COLORS,
  stock: CUSTOMS_STATUS_COLORS,
  shipments: SHIPMENT_STATUS_COLORS,
};

export function barColor(card: DashboardCardName, key: string): MantineColor {
  return AREA_COLORS[card]?.[key] ?? 'blue';
}

/** The card's heading. One literal key per card, so the catalogue check can see every key used. */
export function cardTitle(card: DashboardCardName): string {
  switch (card) {
    case 'dossiers':
      return t('dashboard:cards.dossiers.title');
    case 'transports':
      return t('dashboard:cards.transports.title');
    case 'declarations':
      return t('dashboard:cards.declarations.title');
    case 'invoices':
      return t('dashboard:cards.invoices.title');
    case 'revenue':
      return t('dashboard:cards.revenue.title');
    case 'container-events':
      return t('dashboard:cards.container-events.title');
    case 'stock':
      return t('dashboard:cards.stock.title');
    case 'shipments':
      return t('dashboard:cards.shipments.title');
  }
}

/** What an empty card says. */
export function cardEmpty(card: DashboardCardName): string {
  switch (card) {
    case 'dossiers':
      return t('dashboard:cards.dossiers.empty');
    case 'transports':
      return t('dashboard:cards.transports.empty');
    case 'declarations':
      return t('dashboard:cards.declarations.empty');
    case 'invoices':
      return t('dashboard:cards.invoices.empty');
    case 'revenue':
      return t('dashboard:cards.revenue.empty');
    case 'container-events':
      return t('dashboard:cards.container-events.empty');
    case 'stock':
      return t('dashboard:cards.stock.empty');
    case 'shipments':
      return t('dashboard:cards.shipments.empty');
  }
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_WEEK = /^(\d{4})-W(\d{2})$/;

/** A code nobody words (a new status the web does not know yet): 'in_transit' → 'In transit', never raw. */
export function humanise(key: string): string {
  const words = key.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** 'D MMM YYYY' → 'D MMM', 'YYYY-MM-DD' → 'MM-DD': the user's date format without its year (days of this week). */
export function shortDateFormat(dateFormat = displayPreferences().dateFormat): string {
  const without = dateFormat
    .replace(/^Y{2,4}[^A-Za-z]*/, '')
    .replace(/[^A-Za-z]*Y{2,4}$/, '')
    .replace(/Y{2,4}[^A-Za-z]*/, '')
    .trim();
  return without || dateFormat;
}

function wallOf(date: string) {
  const m = CALENDAR_DATE.exec(date);
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0, second: 0 };
}

/** '2026-11-23' → '23 Nov' in the user's format. */
export function shortDate(date: string): string {
  const wall = wallOf(date);
  return wall ? formatWall(wall, shortDateFormat()) : date;
}

/** '2026-11-23' → 'Mon' in the catalogue's language (the day of a calendar date, whatever the zone). */
export function weekday(date: string, language = i18n.language): string {
  const wall = wallOf(date);
  if (!wall) return date;
  return new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(wall.year, wall.month - 1, wall.day)),
  );
}

/**
 * Under a bar: the day of the month a week starts on (revenue; the card says which month, the legend
 * the full date — six '16 Nov' do not fit under a card), the weekday of a day (transports), else the words.
 */
export function tickLabel(card: DashboardCardName, key: string): string {
  if (CALENDAR_DATE.test(key)) return card === 'revenue' ? String(wallOf(key)?.day ?? key) : weekday(key);
  return keyLabel(card, key);
}

/** The words of a figure or bar key: the card's catalogue entry, the shared one, the area's label. */
export function keyLabel(card: DashboardCardName, key: string): string {
  // Revenue bars are weeks named by their first day; the transports' are days.
  if (CALENDAR_DATE.test(key)) {
    return card === 'revenue'
      ? t('dashboard:series.weekOf', { date: shortDate(key) })
      : t('dashboard:series.day', { weekday: weekday(key), date: shortDate(key) });
  }
  const week = ISO_WEEK.exec(key);
  if (week) return t('dashboard:series.week', { week: Number(week[2]) });
  // The card's own word for the key, the dashboard's, the area's label, the code in words.
  if (i18n.exists(`dashboard:cards.${card}.figures.${key}`))
    return t(`dashboard:cards.${card}.figures.${key}`);
  if (i18n.exists(`dashboard:figures.${key}`)) return t(`dashboard:figures.${key}`);
  return AREA_LABELS[card][key] ?? humanise(key);
}

/** The calendar day of a period bound: a date as is; an instant (an exclusive end) as the day it closes. */
function dayOf(value: string, timeZone: string, end: boolean): string | null {
  if (CALENDAR_DATE.test(value)) return value;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return null;
  return isoDayIn(new Date(end ? ms - 1 : ms), timeZone);
}

function isoDayIn(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

function lastDayOfMonth(date: string): number {
  const wall = wallOf(date);
  if (!wall) return 0;
  return new Date(Date.UTC(wall.year, wall.month, 0)).getUTCDate();
}

/** The period a card counted, in words: 'Today, 24 Nov', 'This week, 23 Nov – 29 Nov', 'This month, November'. */
export function periodWords(period: DashboardCard['period'], now = new Date()): string | null {
  if (!period) return null;
  // A moving window of instants (container events): 'Last 24 hours'.
  if (!CALENDAR_DATE.test(period.from) && !CALENDAR_DATE.test(period.to)) {
    const hours = Math.round((Date.parse(period.to) - Date.parse(period.from)) / 3_600_000);
    if (hours > 0 && hours <= 48) return t('dashboard:period.lastHours', { count: hours });
  }
  const from = dayOf(period.from, period.timeZone, false);
  const to = dayOf(period.to, period.timeZone, !CALENDAR_DATE.test(period.to));
  if (!from || !to) return null;
  const today = isoDayIn(now, period.timeZone);
  const current = from <= today && today <= to;
  const span = daysBetween(from, to) + 1;
  if (span <= 1) {
    return from === today ? t('dashboard:period.today', { date: shortDate(from) }) : shortDate(from);
  }
  if (current && span === 7) return t('dashboard:period.week', { from: shortDate(from), to: shortDate(to) });
  const fromWall = wallOf(from);
  const toWall = wallOf(to);
  if (
    current &&
    fromWall &&
    toWall &&
    fromWall.day === 1 &&
    fromWall.month === toWall.month &&
    toWall.day === lastDayOfMonth(to)
  ) {
    return t('dashboard:period.month', { month: formatWall(fromWall, 'MMMM') });
  }
  return t('dashboard:period.range', { from: shortDate(from), to: shortDate(to) });
}

/** A value is a count, or a decimal string (money): zero either way makes an empty figure. */
export function isZero(value: number | string): boolean {
  return Number(value) === 0;
}

/** Nothing to show: every figure and every bar is zero (or there are none). */
export function isEmptyCard(card: DashboardCard): boolean {
  return card.figures.every((f) => isZero(f.value)) && card.series.every((p) => isZero(p.value));
}
