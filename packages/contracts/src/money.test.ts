import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareDecimal,
  currencyDecimalsProblem,
  divideDecimal,
  isDecimal,
  minorUnitsOf,
  multiplyDecimal,
  percentOfDecimal,
  subtractDecimal,
  sumDecimal,
  trimDecimal,
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

describe('division, percentages and comparison', () => {
  it('divides exactly, half away from zero', () => {
    expect(divideDecimal('1', '3')).toBe('0.33');
    expect(divideDecimal('2', '3')).toBe('0.67');
    expect(divideDecimal('0.01', '2')).toBe('0.01'); // 0.005
    expect(divideDecimal('-0.01', '2')).toBe('-0.01');
    expect(divideDecimal('0.01', '-2')).toBe('-0.01');
    expect(divideDecimal('10', '0.25', 0)).toBe('40');
    expect(divideDecimal('1', '8', 4)).toBe('0.1250');
    expect(() => divideDecimal('1', '0.00')).toThrow('division by zero');
  });

  it('takes a percentage with one rounding at the end', () => {
    expect(percentOfDecimal('5.00', '21')).toBe('1.05');
    expect(percentOfDecimal('3.15', '9')).toBe('0.28'); // 0.2835
    expect(percentOfDecimal('0.50', '21')).toBe('0.11'); // 0.105
    expect(percentOfDecimal('-0.50', '21')).toBe('-0.11');
    expect(percentOfDecimal('1.00', '25.5')).toBe('0.26'); // 0.255
  });

  it('compares across scales, recognises plain decimals and trims them', () => {
    expect(compareDecimal('21', '21.00')).toBe(0);
    expect(compareDecimal('-0.01', '0')).toBe(-1);
    expect(compareDecimal('9.5', '9.49')).toBe(1);
    expect(isDecimal('12')).toBe(true);
    expect(isDecimal('-0.5')).toBe(true);
    expect(isDecimal('1e3')).toBe(false);
    expect(isDecimal('1,5')).toBe(false);
    expect(isDecimal('')).toBe(false);
    expect(trimDecimal('21.00')).toBe('21');
    expect(trimDecimal('5.50')).toBe('5.5');
    expect(trimDecimal('-0.0')).toBe('0');
    expect(trimDecimal('100')).toBe('100');
  });

  it('property: (a × b) ÷ b gives a back when b divides cleanly', () => {
    const cents = fc
      .bigInt({ min: -(10n ** 12n), max: 10n ** 12n })
      .map((c) => divideDecimal(c.toString(), '100'));
    const divisor = fc.constantFrom('1', '2', '4', '5', '0.5', '0.25', '-8');
    fc.assert(fc.property(cents, divisor, (a, b) => divideDecimal(multiplyDecimal(a, b, 4), b) === a));
  });
});
