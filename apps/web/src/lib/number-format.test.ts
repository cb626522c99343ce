import { afterEach, describe, expect, it } from 'vitest';
import { formatMoney } from './format.ts';
import {
  DEFAULT_NUMBER_FORMAT,
  editableDecimal,
  numberFormat,
  parseDecimalInput,
  setNumberFormat,
} from './number-format.ts';

const comma = { currency: 'EUR', decimal: ',', thousands: '.' } as const;
const money = { decimals: 2, pad: true };

afterEach(() => setNumberFormat(null));

describe('reading typed numbers', () => {
  it('takes the default grouping and decimal point into the exact decimal string', () => {
    expect(parseDecimalInput('2,450.00', money)).toEqual({ ok: true, value: '2450.00' });
    expect(parseDecimalInput('2450', money)).toEqual({ ok: true, value: '2450.00' });
    expect(parseDecimalInput(' 1,234,567.5 ', money)).toEqual({ ok: true, value: '1234567.50' });
    expect(parseDecimalInput('-12.5', money)).toEqual({ ok: true, value: '-12.50' });
    expect(parseDecimalInput('−0', money)).toEqual({ ok: true, value: '0.00' });
    expect(parseDecimalInput('.5', money)).toEqual({ ok: true, value: '0.50' });
    expect(parseDecimalInput('', money)).toEqual({ ok: true, value: '' });
    // Digits beyond a float's precision stay exact.
    expect(parseDecimalInput('12,345,678,901,234.99', money)).toEqual({
      ok: true,
      value: '12345678901234.99',
    });
  });

  it('reads a decimal comma with dots or spaces as grouping when the preference says so', () => {
    const o = { ...money, preference: comma };
    expect(parseDecimalInput('2 450,00', o)).toEqual({ ok: true, value: '2450.00' });
    expect(parseDecimalInput('2.450,5', o)).toEqual({ ok: true, value: '2450.50' });
    expect(parseDecimalInput('2\u202f450', o)).toEqual({ ok: true, value: '2450.00' });
    expect(parseDecimalInput('2.45', o)).toEqual({
      ok: false,
      message: '"." separates thousands and "," the decimals, e.g. 2.450,00',
    });
  });

  it('refuses letters and a misplaced separator with a sentence, not a guess', () => {
    expect(parseDecimalInput('12abc', money)).toEqual({
      ok: false,
      message: 'Enter digits only, e.g. 2,450.00',
    });
    expect(parseDecimalInput('12,5', money)).toEqual({
      ok: false,
      message: '"," separates thousands and "." the decimals, e.g. 2,450.00',
    });
    expect(parseDecimalInput('1.2.3', money)).toMatchObject({ ok: false });
    expect(parseDecimalInput('-', money)).toMatchObject({ ok: false });
  });

  it('keeps to the decimals allowed and names the currency', () => {
    expect(parseDecimalInput('1,000.5', { decimals: 0, pad: true, unit: 'JPY' })).toEqual({
      ok: false,
      message: 'JPY amounts have no decimals',
    });
    expect(parseDecimalInput('1,000.00', { decimals: 0, pad: true, unit: 'JPY' })).toEqual({
      ok: true,
      value: '1000',
    });
    expect(parseDecimalInput('1.2345', { decimals: 3, pad: true, unit: 'BHD' })).toEqual({
      ok: false,
      message: 'BHD amounts have at most 3 decimals',
    });
    expect(parseDecimalInput('1.25', { decimals: 3, pad: true })).toEqual({ ok: true, value: '1.250' });
    // Quantities and rates keep what was typed.
    expect(parseDecimalInput('0.9200', { decimals: 6 })).toEqual({ ok: true, value: '0.92' });
  });
});

describe('the preference', () => {
  it('defaults to the spec and is set in one place, which the formatters follow', () => {
    expect(numberFormat()).toEqual(DEFAULT_NUMBER_FORMAT);
    setNumberFormat(comma);
    expect(formatMoney('2450.5')).toBe('€2.450,50');
    expect(parseDecimalInput('2.450,5', money)).toEqual({ ok: true, value: '2450.50' });
    expect(editableDecimal('2450.50')).toBe('2450,50');
    setNumberFormat(null);
    expect(formatMoney('2450.5')).toBe('$2,450.50');
    expect(() => setNumberFormat({ decimal: ',', thousands: ',' })).toThrow(/must differ/);
  });
});
