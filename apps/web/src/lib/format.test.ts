import { describe, expect, it } from 'vitest';
import { DEFAULT_NUMBER_FORMAT, formatMoney, formatNumber } from './format.ts';

describe('number format', () => {
  it('defaults to USD, "." and ","', () => {
    expect(DEFAULT_NUMBER_FORMAT).toEqual({ currency: 'USD', decimal: '.', thousands: ',' });
    expect(formatNumber(1234567.891)).toBe('1,234,567.891');
    expect(formatMoney(1234567.891)).toBe('$1,234,567.89');
    expect(formatMoney(0)).toBe('$0.00');
  });

  it('formats negatives', () => {
    expect(formatNumber(-1234.5)).toBe('-1,234.5');
    expect(formatMoney(-1234.5)).toBe('-$1,234.50');
  });

  it('rounds half away from zero', () => {
    expect(formatNumber(1234.5678, { maximumFractionDigits: 2 })).toBe('1,234.57');
    expect(formatNumber(2.5, { maximumFractionDigits: 0 })).toBe('3');
    expect(formatNumber(-2.5, { maximumFractionDigits: 0 })).toBe('-3');
    expect(formatMoney(0.125)).toBe('$0.13');
    expect(formatNumber(1, { minimumFractionDigits: 2 })).toBe('1.00');
  });

  it('rounds exact decimal strings exactly', () => {
    // 1.005 as a binary float is 1.00499…; as a string it is exact.
    expect(formatMoney('1.005')).toBe('$1.01');
    expect(formatNumber('12345678901234567890.5', { maximumFractionDigits: 0 })).toBe(
      '12,345,678,901,234,567,891',
    );
  });

  it('applies custom separators without mixing them up', () => {
    const european = { decimal: ',', thousands: '.' };
    expect(formatNumber(1234567.891, {}, european)).toBe('1.234.567,891');
    expect(formatMoney(-1234.5, { ...european, currency: 'EUR' })).toBe('-€1.234,50');
    expect(formatNumber(1234567.5, {}, { decimal: '.', thousands: ' ' })).toBe('1 234 567.5');
    expect(formatNumber(1234567.5, {}, { thousands: "'" })).toBe("1'234'567.5");
    expect(formatNumber(1234567.5, {}, { thousands: '' })).toBe('1234567.5');
  });

  it('uses the currency of the preference and its fraction digits', () => {
    expect(formatMoney(1234.5, { currency: 'JPY' })).toBe('¥1,235');
    expect(formatMoney(1234.5, { currency: 'CHF' })).toBe('CHF\u00a01,234.50');
  });
});
