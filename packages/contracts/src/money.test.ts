import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencyDecimalsProblem,
  minorUnitsOf,
  multiplyDecimal,
  subtractDecimal,
  sumDecimal,
} from './money.ts';

describe('exact decimal money', () => {
  it('multiplies and rounds half away from zero', () => {
    expect(multiplyDecimal('100.00', '1.085000')).toBe('108.50');
    expect(multiplyDecimal('0.05', '0.5')).toBe('0.03'); // 0.025 → 0.03
    expect(multiplyDecimal('-0.05', '0.5')).toBe('-0.03');
    expect(multiplyDecimal('0.04', '0.5')).toBe('0.02');
    expect(multiplyDecimal('1234567890.12', '1')).toBe('1234567890.12');
    expect(multiplyDecimal('0.1', '0.2', 2)).toBe('0.02');
    expect(multiplyDecimal('19.99', '3', 2)).toBe('59.97');
  });

  it('sums without the float error of 0.1 + 0.2', () => {
    expect(sumDecimal(['0.1', '0.2'])).toBe('0.30');
    expect(sumDecimal([])).toBe('0.00');
    expect(subtractDecimal('10.00', '12.5')).toBe('-2.50');
  });

  it('property: multiplying by 1 keeps cents exactly, and sums match integer cents', () => {
    const cents = fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n });
    const toStr = (c: bigint) => {
      const neg = c < 0n;
      const a = (neg ? -c : c).toString().padStart(3, '0');
      return `${neg ? '-' : ''}${a.slice(0, -2)}.${a.slice(-2)}`;
    };
    fc.assert(fc.property(cents, (c) => multiplyDecimal(toStr(c), '1') === toStr(c)));
    fc.assert(
      fc.property(
        fc.array(cents, { maxLength: 20 }),
        (cs) => sumDecimal(cs.map(toStr)) === toStr(cs.reduce((a, b) => a + b, 0n)),
      ),
    );
  });
});

describe('minor units per currency', () => {
  it('reads the ISO 4217 decimals, 2 by default and for a half-typed code', () => {
    expect(minorUnitsOf('JPY')).toBe(0);
    expect(minorUnitsOf('eur')).toBe(2);
    expect(minorUnitsOf('BHD')).toBe(3);
    expect(minorUnitsOf('US')).toBe(2);
  });
});

describe('decimals beyond the currency', () => {
  it('names the currency and ignores trailing zeros', () => {
    expect(currencyDecimalsProblem('12.50', 'JPY')).toBe('JPY amounts have no decimals');
    expect(currencyDecimalsProblem('1200.00', 'JPY')).toBeUndefined();
    expect(currencyDecimalsProblem('1.234', 'eur')).toBe('EUR amounts have at most 2 decimals');
    expect(currencyDecimalsProblem('1.234', 'BHD')).toBeUndefined();
    expect(currencyDecimalsProblem('1.234', 'E')).toBe('Amounts have at most 2 decimals');
    expect(currencyDecimalsProblem('abc', 'JPY')).toBeUndefined();
  });
});
