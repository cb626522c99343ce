import { z } from 'zod';
import { currencyCodeSchema, RATE_COLUMN } from './dossiers.ts';
import { decimal } from './primitives.ts';
import { isCurrencyCode } from './validators/customs.ts';

/**
 * The customs exchange rates the company keeps, one per currency and month (issue 26 item 2, ADR 0070).
 * A declaration's invoice is converted at the rate published for the month it is accepted in (UCC art.
 * 53(1); IA art. 146: the rate of the penultimate Wednesday of the month before applies the whole month),
 * in EUR per one unit of the currency, as the declaration's own rate (box 23, DE 4/15) is stated.
 */

/** The zone the company's months are counted in (the forwarder is Dutch, as its invoice dates are). */
export const CUSTOMS_RATE_ZONE = 'Europe/Amsterdam';

/** A calendar month as `YYYY-MM`. */
export const customsRateMonthSchema = z
  .string()
  .trim()
  .regex(/^(19|20|21)\d{2}-(0[1-9]|1[0-2])$/, 'Enter a month as YYYY-MM, e.g. 2026-11');

/** A currency the table can hold: any ISO 4217 code but the euro, whose rate is 1 by definition. */
export const customsRateCurrencySchema = currencyCodeSchema
  .refine(isCurrencyCode, 'Enter an ISO 4217 currency, e.g. USD')
  .refine((c) => c !== 'EUR', 'The euro needs no exchange rate: a EUR invoice has rate 1');

export const customsRateInputSchema = z.strictObject({
  rate: decimal({ ...RATE_COLUMN, positive: true }).meta({
    description: 'EUR per 1 unit of the currency, up to 6 decimals (UCC art. 53)',
  }),
});

export const customsRateSchema = z.object({
  currency: z.string(),
  rate: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type CustomsRate = z.infer<typeof customsRateSchema>;

export const customsRatesOfMonthSchema = z.object({
  month: z.string(),
  rates: z.array(customsRateSchema),
  /** The month before's currencies with no rate in this month yet: what the screen offers to carry over. */
  missingFromLastMonth: z.array(z.string()),
});
export type CustomsRatesOfMonth = z.infer<typeof customsRatesOfMonthSchema>;

export const customsRatesQuerySchema = z.strictObject({
  month: customsRateMonthSchema.optional().meta({ description: 'YYYY-MM; the current month when absent' }),
});

/** The month an instant falls in, in a time zone: `2026-11`. */
export function monthIn(zone: string, at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit' })
    .formatToParts(at)
    .reduce<Record<string, string>>((acc, p) => {
      acc[p.type] = p.value;
      return acc;
    }, {});
  return `${parts.year}-${parts.month}`;
}

/** `2026-11` → "November 2026", as the messages name a month. */
export function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y ?? 2000, (m ?? 1) - 1, 1)),
  );
}

/** The month `delta` months from `month` (`2026-01`, -1 → `2025-12`). */
export function addMonths(month: string, delta: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y ?? 2000, (m ?? 1) - 1 + delta, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month of the customs rate table an instant falls in (the company's zone): `2026-11`. */
export const customsMonthOf = (at: Date = new Date()): string => monthIn(CUSTOMS_RATE_ZONE, at);
