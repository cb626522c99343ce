import { describe, expect, it } from 'vitest';
import { baseAmountOf, chargeTotals } from './charges-editor.tsx';

describe('job costing totals', () => {
  it('converts each line to EUR exactly and sums cost, revenue and profit', () => {
    const totals = chargeTotals([
      { kind: 'cost', amount: '1000.00', exchangeRate: '0.9' },
      { kind: 'cost', amount: '0.10', exchangeRate: '1' },
      { kind: 'cost', amount: '0.20', exchangeRate: '1' },
      { kind: 'revenue', amount: '1500.50', exchangeRate: '1' },
    ]);
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004; here it is 0.30.
    expect(totals).toEqual({ cost: '900.30', revenue: '1500.50', profit: '600.20' });
  });

  it('leaves out lines still being typed and rounds half away from zero', () => {
    expect(baseAmountOf({ amount: '12,5', exchangeRate: '1' })).toBeNull();
    expect(baseAmountOf({ amount: '', exchangeRate: '1' })).toBeNull();
    expect(baseAmountOf({ amount: '10.005', exchangeRate: '1' })).toBe('10.01');
    expect(baseAmountOf({ amount: '100', exchangeRate: '' })).toBe('100.00');
    expect(chargeTotals([{ kind: 'revenue', amount: 'abc', exchangeRate: '1' }])).toEqual({
      cost: '0.00',
      revenue: '0.00',
      profit: '0.00',
    });
  });
});
