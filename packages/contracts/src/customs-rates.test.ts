import { describe, expect, it } from 'vitest';
import {
  addMonths,
  customsRateCurrencySchema,
  customsRateMonthSchema,
  monthIn,
  monthName,
} from './customs-rates.ts';

describe('customs rate months', () => {
  it('falls in the month of the zone: 23:30 UTC on 31 October is November in Amsterdam', () => {
    const at = new Date('2026-10-31T23:30:00Z');
    expect(monthIn('Europe/Amsterdam', at)).toBe('2026-11');
    expect(monthIn('UTC', at)).toBe('2026-10');
  });

  it('names and steps months across a year', () => {
    expect(monthName('2026-11')).toBe('November 2026');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-03', -14)).toBe('2025-01');
  });

  it('takes YYYY-MM months and currencies other than the euro', () => {
    expect(customsRateMonthSchema.safeParse('2026-11').success).toBe(true);
    for (const bad of ['2026-13', '2026-1', '26-11', '2026-11-01'])
      expect(customsRateMonthSchema.safeParse(bad).success).toBe(false);
    expect(customsRateCurrencySchema.parse(' usd ')).toBe('USD');
    expect(customsRateCurrencySchema.safeParse('EUR').error?.issues[0]?.message).toBe(
      'The euro needs no exchange rate: a EUR invoice has rate 1',
    );
    expect(customsRateCurrencySchema.safeParse('ABC').success).toBe(false);
  });
});
