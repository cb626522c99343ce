import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  customsValueFromInvoice,
  type DeclarationTotals,
  declarationTotals,
  type ItemEstimate,
  itemEstimate,
  type TotalsItem,
  taxLines,
} from './customs-math.ts';
import type { Declaration } from './declarations.ts';

/** The worked examples of ADR 0031, computed there by hand. */
const A = { customsValue: '2501.00', dutyRate: '6.500', vatRate: '21.00', vatCosts: null };
const B = { customsValue: '4250.00', dutyRate: '12', vatRate: '21', vatCosts: '385.50' };
const C = { customsValue: '845.25', dutyRate: '0', vatRate: '21', vatCosts: '30.00' };
const D = { customsValue: '1003.90', dutyRate: '12.8', vatRate: '9', vatCosts: '' };

describe('itemEstimate (ADR 0031 worked examples)', () => {
  it("fits the Declaration contract's items and totals (checked by tsc)", () => {
    expectTypeOf<Declaration['items'][number]>().toExtend<TotalsItem>();
    expectTypeOf<ItemEstimate>().toExtend<NonNullable<Declaration['items'][number]['estimate']>>();
    expectTypeOf<DeclarationTotals>().toExtend<Declaration['totals']>();
  });

  it('A: 6.5 % duty with a half cent, rounded away from zero', () => {
    expect(itemEstimate(A)).toEqual({
      customsValue: '2501.00',
      dutyRate: '6.5',
      duty: '162.57', // 162.565
      vatCosts: '0.00',
      vatBase: '2663.57',
      vatRate: '21',
      vat: '559.35', // 559.3497
      total: '721.92',
    });
  });

  it('B: costs to the first destination join the VAT base; a half cent of VAT rounds up', () => {
    expect(itemEstimate(B)).toMatchObject({
      duty: '510.00',
      vatCosts: '385.50',
      vatBase: '5145.50',
      vat: '1080.56', // 1080.555
      total: '1590.56',
    });
  });

  it('C: a 0 % duty rate still gives the import VAT', () => {
    expect(itemEstimate(C)).toMatchObject({
      dutyRate: '0',
      duty: '0.00',
      vatBase: '875.25',
      vat: '183.80', // 183.8025
      total: '183.80',
    });
  });

  it('D: a fractional rate, 12.8 %, and an empty form value for the costs', () => {
    expect(itemEstimate(D)).toMatchObject({
      duty: '128.50', // 128.4992
      vatCosts: '0.00',
      vatBase: '1132.40',
      vat: '101.92', // 101.916
      total: '230.42',
    });
  });

  it('is null until the customs value, duty rate and VAT rate are given', () => {
    expect(itemEstimate({ ...A, customsValue: null })).toBeNull();
    expect(itemEstimate({ ...A, dutyRate: '' })).toBeNull();
    expect(itemEstimate({ ...A, vatRate: null })).toBeNull();
    expect(itemEstimate({ ...A, customsValue: '12,5' })).toBeNull();
  });
});

describe('declarationTotals', () => {
  it('sums the items, and duty and VAT from the rounded item figures', () => {
    const items = [
      {
        ...A,
        packages: 10,
        grossMassKg: '1200.5',
        netMassKg: '1100.250',
        invoiceValue: '2700',
        statisticalValue: '2501',
      },
      {
        ...B,
        packages: '4',
        grossMassKg: '300.125',
        netMassKg: '280',
        invoiceValue: '4100.10',
        statisticalValue: null,
      },
      {
        ...C,
        packages: null,
        grossMassKg: '',
        netMassKg: null,
        invoiceValue: null,
        statisticalValue: '845.25',
      },
      D,
    ];
    expect(declarationTotals('import', items)).toEqual({
      packages: 14,
      grossMassKg: '1500.625',
      netMassKg: '1380.250',
      invoiceValue: '6800.10',
      customsValue: '8600.15',
      statisticalValue: '3346.25',
      duty: '801.07',
      vatBase: '9816.72',
      vat: '1925.63',
      dutyAndVat: '2726.70',
    });
  });

  it('keeps the sum of rounded item duties, not the duty of the summed value', () => {
    const one = { customsValue: '1.00', dutyRate: '6.5', vatRate: '21', vatCosts: null };
    // 0.065 → 0.07 per item, twice 0.14; 2.00 × 6.5 % would give 0.13. VAT 0.2247 → 0.22, twice 0.44.
    expect(declarationTotals('import', [one, one])).toMatchObject({
      customsValue: '2.00',
      duty: '0.14',
      vatBase: '2.14',
      vat: '0.44',
      dutyAndVat: '0.58',
    });
  });

  it('has no duty or VAT for an export, nor for an import without any estimate', () => {
    expect(declarationTotals('export', [A])).toMatchObject({
      customsValue: '2501.00',
      duty: null,
      vatBase: null,
      vat: null,
      dutyAndVat: null,
    });
    // A transit's are the duties and taxes at stake its guarantee covers, computed as an import's.
    expect(declarationTotals('transit', [A])).toMatchObject({
      duty: declarationTotals('import', [A]).duty,
      dutyAndVat: declarationTotals('import', [A]).dutyAndVat,
    });
    expect(declarationTotals('transit', [A]).dutyAndVat).not.toBeNull();
    expect(declarationTotals('import', [{ ...A, dutyRate: null }])).toMatchObject({
      duty: null,
      dutyAndVat: null,
    });
    expect(declarationTotals('import', [])).toEqual({
      packages: 0,
      grossMassKg: '0.000',
      netMassKg: '0.000',
      invoiceValue: '0.00',
      customsValue: '0.00',
      statisticalValue: '0.00',
      duty: null,
      vatBase: null,
      vat: null,
      dutyAndVat: null,
    });
  });
});

describe('customsValueFromInvoice', () => {
  it('converts at the exchange rate, rounds once, and adds the costs to the border', () => {
    // 12 345.67 USD × 0.921500 = 11 376.53490… → 11 376.53; + 412.00
    expect(customsValueFromInvoice('12345.67', '0.921500', '412.00')).toBe('11788.53');
    // 1 000 000 JPY × 0.006125 = 6125.00
    expect(customsValueFromInvoice('1000000', '0.006125', '')).toBe('6125.00');
    // 2 × 1.234565 = 2.46913 → 2.47
    expect(customsValueFromInvoice('2', '1.234565', '0')).toBe('2.47');
  });
});

/** Independent of money.ts: cents and rates as integers, half away from zero by hand. */
function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  const twice = (n % d) * 2n;
  return twice >= d ? q + 1n : q; // n, d ≥ 0 here
}

const cents = fc.bigInt({ min: 0n, max: 99_999_999_999_99n });
const dutyMilli = fc.bigInt({ min: 0n, max: 99_999n }); // numeric(7,3) percent, 0 … 99.999
const vatCenti = fc.bigInt({ min: 0n, max: 99_99n }); // numeric(5,2) percent
const fmt = (n: bigint, scale: number) => {
  const s = n.toString().padStart(scale + 1, '0');
  return `${s.slice(0, -scale)}.${s.slice(-scale)}`;
};

describe('estimate properties', () => {
  it('rounds like an independent integer computation, and total = duty + VAT', () => {
    fc.assert(
      fc.property(cents, dutyMilli, vatCenti, fc.option(cents), (cv, dr, vr, costs) => {
        const e = itemEstimate({
          customsValue: fmt(cv, 2),
          dutyRate: fmt(dr, 3),
          vatRate: fmt(vr, 2),
          vatCosts: costs === null ? null : fmt(costs, 2),
        });
        // duty (cents) = cv (cents) × dr (thousandths of a percent) / 100 000
        const duty = roundDiv(cv * dr, 100_000n);
        const base = cv + duty + (costs ?? 0n);
        const vat = roundDiv(base * vr, 10_000n);
        expect(e).not.toBeNull();
        expect(e?.duty).toBe(fmt(duty, 2));
        expect(e?.vatBase).toBe(fmt(base, 2));
        expect(e?.vat).toBe(fmt(vat, 2));
        expect(e?.total).toBe(fmt(duty + vat, 2));
      }),
      { numRuns: 500 },
    );
  });

  it('declaration duty and VAT are the sums of the item figures', () => {
    const item = fc.record({
      customsValue: cents.map((c) => fmt(c, 2)),
      dutyRate: dutyMilli.map((r) => fmt(r, 3)),
      vatRate: vatCenti.map((r) => fmt(r, 2)),
      vatCosts: fc.option(cents.map((c) => fmt(c, 2))),
    });
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (items) => {
        const t = declarationTotals('import', items);
        const es = items.map((i) => itemEstimate(i));
        const sum = (f: (e: NonNullable<(typeof es)[number]>) => string) =>
          es.reduce((s, e) => s + BigInt((e ? f(e) : '0').replace('.', '')), 0n);
        expect(t.duty).toBe(
          fmt(
            sum((e) => e.duty),
            2,
          ),
        );
        expect(t.vat).toBe(
          fmt(
            sum((e) => e.vat),
            2,
          ),
        );
        expect(t.dutyAndVat).toBe(
          fmt(
            sum((e) => e.total),
            2,
          ),
        );
        expect(t.customsValue).toBe(
          fmt(
            sum((e) => e.customsValue),
            2,
          ),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('taxLines', () => {
  it('gives an estimate as the A00 duty and B00 VAT lines, each with the method of payment', () => {
    const e = itemEstimate({ customsValue: '1000.00', dutyRate: '4.5', vatRate: '21', vatCosts: '50.00' });
    if (!e) throw new Error('an estimate');
    expect(taxLines(e, 'E')).toEqual([
      { type: 'A00', base: '1000.00', rate: '4.5', amount: '45.00', methodOfPayment: 'E' },
      // (1 000.00 + 45.00 + 50.00) × 21 %
      { type: 'B00', base: '1095.00', rate: '21', amount: '229.95', methodOfPayment: 'E' },
    ]);
    expect(taxLines(e, null).map((l) => l.methodOfPayment)).toEqual([null, null]);
  });
});
