import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apportion, customsValueBuildUp, hasAdjustments } from './customs-value.ts';
import { compareDecimal, multiplyDecimal, sumDecimal } from './money.ts';

describe('the customs value built from the invoice (UCC art. 70–72)', () => {
  // Two items invoiced in USD at the declaration's rate 0.925 EUR per USD: €9 250.00 and €4 625.00.
  const items = [
    { invoiceValue: '10000.00', netMassKg: '1100.000' },
    { invoiceValue: '5000.00', netMassKg: '400.000' },
  ];
  const adjustments = {
    additionTransportInsurance: '1200.00',
    additionPacking: '150.00',
    deductionTransportAfterEntry: '300.00',
  };

  it('apportions by value: 1 350.00 of additions and 300.00 of deductions split 2 : 1', () => {
    expect(customsValueBuildUp(items, '0.925', adjustments, 'value')).toEqual([
      {
        price: '10000.00',
        rate: '0.925',
        priceEur: '9250.00',
        additions: '900.00',
        deductions: '200.00',
        customsValue: '9950.00',
      },
      {
        price: '5000.00',
        rate: '0.925',
        priceEur: '4625.00',
        additions: '450.00',
        deductions: '100.00',
        customsValue: '4975.00',
      },
    ]);
  });

  it('apportions by net mass: 1 100 kg and 400 kg take 11/15 and 4/15', () => {
    const lines = customsValueBuildUp(items, '0.925', adjustments, 'mass');
    expect(lines?.map((l) => [l.additions, l.deductions, l.customsValue])).toEqual([
      ['990.00', '220.00', '10020.00'],
      ['360.00', '80.00', '4905.00'],
    ]);
  });

  it('converts to the cent, half away from zero, and needs every price, the rate and the key', () => {
    // 1 234.57 USD × 0.9213 = 1 137.410 341 → 1 137.41.
    expect(customsValueBuildUp([{ invoiceValue: '1234.57' }], '0.9213', {}, 'value')?.[0]?.customsValue).toBe(
      '1137.41',
    );
    expect(customsValueBuildUp([{ invoiceValue: null }], '0.925', {}, 'value')).toBeNull();
    expect(customsValueBuildUp(items, null, {}, 'value')).toBeNull();
    expect(
      customsValueBuildUp([{ invoiceValue: '10.00', netMassKg: null }], '1', adjustments, 'mass'),
    ).toBeNull();
    // A minus typed into a deduction is no deduction (the API refuses it; the screen must not break).
    expect(
      customsValueBuildUp([{ invoiceValue: '100.00' }], '1', { deductionDuties: '-5' }, 'value')?.[0]
        ?.customsValue,
    ).toBe('100.00');
    expect(hasAdjustments({})).toBe(false);
    expect(hasAdjustments({ additionCommissions: '0.00' })).toBe(false);
    expect(hasAdjustments(adjustments)).toBe(true);
  });

  it('gives the cent left over to the largest remainder, the first item on a tie', () => {
    expect(apportion('100.00', ['1', '1', '1'])).toEqual(['33.34', '33.33', '33.33']);
    expect(apportion('0.05', ['3', '1'])).toEqual(['0.04', '0.01']);
    expect(apportion('10.00', ['0', '0'])).toBeNull();
  });

  it('apportions any amount over any weights so the shares sum to it exactly, each within a cent of its share', () => {
    const amount = fc.integer({ min: 0, max: 10_000_000_00 }).map((c) => (c / 100).toFixed(2));
    const weight = fc.integer({ min: 0, max: 50_000_000 }).map((g) => (g / 1000).toFixed(3));
    fc.assert(
      fc.property(amount, fc.array(weight, { minLength: 1, maxLength: 40 }), (total, weights) => {
        const shares = apportion(total, weights);
        const sum = sumDecimal(weights, 3);
        if (compareDecimal(sum, '0') === 0) return shares === null;
        if (!shares) return false;
        if (sumDecimal(shares) !== sumDecimal([total])) return false;
        // |share × Σw − total × w| ≤ Σw (a cent of difference at most), in exact integers.
        return shares.every((share, i) => {
          const lhs = multiplyDecimal(share, sum, 5);
          const rhs = multiplyDecimal(total, weights[i] as string, 5);
          const diff = sumDecimal([lhs, `-${rhs}`], 5).replace('-', '');
          return compareDecimal(diff, multiplyDecimal('0.01', sum, 5)) <= 0;
        });
      }),
      { numRuns: 500 },
    );
  });
});
