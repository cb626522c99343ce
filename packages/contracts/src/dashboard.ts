import { z } from 'zod';
import { isTimeZone } from './records.ts';
import { searchLinkSchema } from './search.ts';

/*
 * The dashboard (`/dashboard`): cards that each load on their own (`GET /api/dashboard/<card>`),
 * each figure linking to the list filtered the same way, so the list then shows the same count.
 */

/** Every card, in the order the dashboard lays them out. */
export const DASHBOARD_CARDS = [
  'dossiers',
  'transports',
  'declarations',
  'invoices',
  'revenue',
  'container-events',
  'stock',
  'shipments',
] as const;
export type DashboardCardName = (typeof DASHBOARD_CARDS)[number];
export const dashboardCardNameSchema = z.enum(DASHBOARD_CARDS);

/** Cards that need cw_access (403 without it, like the rest of the warehouse). */
export const WAREHOUSE_DASHBOARD_CARDS: readonly DashboardCardName[] = ['stock', 'shipments'];
/** Cards a customer never gets (the forwarder's own figures): 404 to them. */
export const STAFF_DASHBOARD_CARDS: readonly DashboardCardName[] = ['revenue'];

/** `GET /api/dashboard`: the cards this user gets, in layout order. */
export const dashboardIndexSchema = z.object({ cards: z.array(dashboardCardNameSchema) });
export type DashboardIndex = z.infer<typeof dashboardIndexSchema>;

export const dashboardCardQuerySchema = z.object({
  /** The IANA zone whose "today", "this week" and "this month" the card counts; the user's when absent. */
  tz: z
    .string()
    .trim()
    .max(64)
    .optional()
    .refine((tz) => tz === undefined || isTimeZone(tz), 'Choose a time zone such as Europe/Amsterdam'),
});
export type DashboardCardQuery = z.infer<typeof dashboardCardQuerySchema>;

/** One number on a card, with the list it opens. The web words it through its catalogue by `key`. */
export const dashboardFigureSchema = z.object({
  /** Stable key: 'open', 'today', 'week', 'overdue', a status code … */
  key: z.string(),
  /** A count, or a decimal string for money (then `currency` is set). */
  value: z.union([z.number().int(), z.string()]),
  currency: z.string().nullable(),
  /** The filtered list; null when the figure has no list of its own. */
  link: searchLinkSchema.nullable(),
});
export type DashboardFigure = z.infer<typeof dashboardFigureSchema>;

/** One point of a card's chart (a bar per status, per week …). */
export const dashboardPointSchema = z.object({
  key: z.string(),
  value: z.union([z.number(), z.string()]),
  link: searchLinkSchema.nullable(),
});
export type DashboardPoint = z.infer<typeof dashboardPointSchema>;

export const dashboardCardSchema = z.object({
  card: dashboardCardNameSchema,
  /** When the figures were counted (ISO instant); older than now when pre-aggregated. */
  asOf: z.string(),
  /** False when a figure comes from a pre-aggregate and can lag `asOf`: the card then says "as of". */
  live: z.boolean(),
  /** The calendar days the card counted (today, this week, this month) in `tz`, when it counts days. */
  period: z.object({ from: z.string(), to: z.string(), timeZone: z.string() }).nullable(),
  figures: z.array(dashboardFigureSchema),
  /** The chart: empty when the card has none. */
  series: z.array(dashboardPointSchema),
  /** Currency of money points in `series`, when they are money. */
  seriesCurrency: z.string().nullable(),
});
export type DashboardCard = z.infer<typeof dashboardCardSchema>;
