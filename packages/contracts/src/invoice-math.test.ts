import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowanceChargeErrors,
  allowanceChargeLabel,
  allowanceChargeProblem,
  type DocumentTotals,
  documentTotals,
  lineNet,
  lineNetWithAllowances,
  type MathLine,
  toBaseCurrency,
  totalsPerCurrency,
} from './invoice-math.ts';
import type { VatCode } from './sales-values.ts';

describe('line net (hand-worked)', () => {
  it('rounds half away from zero at .005, in both directions', () => {
    expect(lineNet('1', '0.005')).toBe('0.01');
    expect(lineNet('3', '0.335')).toBe('1.01'); // 1.005
    expect(lineNet('1', '0.0049')).toBe('0.00');
    expect(lineNet('-1', '0.005')).toBe('-0.01');
    expect(lineNet('-3', '0.335')).toBe('-1.01'); // −1.005 goes away from zero, not to −1.00
  });

  it('multiplies a 3-decimal quantity by a 4-decimal price exactly, rounding once at the end', () => {
    expect(lineNet('2.375', '13.4567')).toBe('31.96'); // 31.9596625
    expect(lineNet('12.500', '3.0004')).toBe('37.51'); // 37.505
    expect(lineNet('2.500', '4.0100')).toBe('10.03'); // 10.025: as floats 2.5 × 4.01 = 10.02499…, → 10.02
    expect(lineNet('-12.500', '3.0004')).toBe('-37.51');
    expect(lineNet('0.001', '0.0001')).toBe('0.00');
    expect(lineNet('99999.999', '99999.9999')).toBe('9999999890.00'); // 9 999 999 890.0000001
  });
});

describe('document totals (hand-worked)', () => {
  it('takes the VAT of a rate group from its net, not from the rounded line VATs', () => {
    // Line VATs would be 0.525 → 0.53 twice = 1.06; the group's 5.00 × 21 % = 1.05.
    // Line VATs would be 0.0945 → 0.09 three times = 0.27; the group's 3.15 × 9 % = 0.2835 → 0.28.
    const lines: MathLine[] = [
      { quantity: '2.500', unitPrice: '1.0000', vatCode: 'S', vatRate: '21' },
      { quantity: '1', unitPrice: '2.50', vatCode: 'S', vatRate: '21.00' },
      { quantity: '1', unitPrice: '1.05', vatCode: 'S', vatRate: '9' },
      { quantity: '1', unitPrice: '100', vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-146-1E' },
      { quantity: '2', unitPrice: '1.05', vatCode: 'S', vatRate: '9.00' },
    ];
    const t = documentTotals(lines, undefined, '50');
    expect(t.lineNets).toEqual(['2.50', '2.50', '1.05', '100.00', '2.10']);
    expect(t.vatGroups).toEqual([
      { vatCode: 'S', vatRate: '21', taxableAmount: '5.00', vatAmount: '1.05', exemptionReason: null },
      { vatCode: 'S', vatRate: '9', taxableAmount: '3.15', vatAmount: '0.28', exemptionReason: null },
      {
        vatCode: 'E',
        vatRate: '0',
        taxableAmount: '100.00',
        vatAmount: '0.00',
        exemptionReason: 'VATEX-EU-146-1E',
      },
    ]);
    expect(t).toMatchObject({
      lineExtensionAmount: '108.15',
      taxExclusiveAmount: '108.15',
      vatTotal: '1.33',
      taxInclusiveAmount: '109.48',
      payableAmount: '59.48',
    });
  });

  it('rounds negative credit lines and negative groups away from zero', () => {
    // 100.00 − 10.005 (→ 10.01, not 10.00) = 89.99 at 21 % = 18.8979 → 18.90.
    const deduction = documentTotals([
      { quantity: '1', unitPrice: '100.00', vatCode: 'S', vatRate: '21' },
      { quantity: '-1', unitPrice: '10.005', vatCode: 'S', vatRate: '21' },
    ]);
    expect(deduction.lineNets).toEqual(['100.00', '-10.01']);
    expect(deduction.vatTotal).toBe('18.90');
    expect(deduction.taxInclusiveAmount).toBe('108.89');

    // −0.50 at 21 % = −0.105 → −0.11; the positive twin gives 0.11.
    const negative = documentTotals([{ quantity: '-1', unitPrice: '0.50', vatCode: 'S', vatRate: '21' }]);
    expect(negative.vatGroups[0]?.vatAmount).toBe('-0.11');
    expect(negative.taxInclusiveAmount).toBe('-0.61');
    expect(documentTotals([{ quantity: '1', unitPrice: '0.50', vatCode: 'S', vatRate: '21' }]).vatTotal).toBe(
      '0.11',
    );
  });

  it('orders groups S by descending rate, then Z, E, AE, O, and gives exempt groups their reason', () => {
    const t = documentTotals([
      { quantity: '1', unitPrice: '1', vatCode: 'O', vatRate: null },
      { quantity: '1', unitPrice: '1', vatCode: 'AE', vatRate: '0' },
      { quantity: '1', unitPrice: '1', vatCode: 'E', vatRate: '0', exemptionReason: 'VATEX-EU-144' },
      { quantity: '1', unitPrice: '1', vatCode: 'Z', vatRate: '0' },
      { quantity: '1', unitPrice: '1', vatCode: 'S', vatRate: '5.5' },
      { quantity: '1', unitPrice: '1', vatCode: 'S', vatRate: '25.5' },
    ]);
    expect(t.vatGroups.map((g) => [g.vatCode, g.vatRate, g.exemptionReason])).toEqual([
      ['S', '25.5', null],
      ['S', '5.5', null],
      ['Z', '0', null],
      ['E', '0', 'VATEX-EU-144'],
      ['AE', '0', 'VATEX-EU-AE'],
      ['O', null, 'VATEX-EU-O'],
    ]);
    expect(t.vatTotal).toBe('0.32'); // 0.255 → 0.26 plus 0.055 → 0.06
  });

  it('lets the caller name the exemption reason of a code', () => {
    const t = documentTotals([{ quantity: '1', unitPrice: '1', vatCode: 'E', vatRate: '0' }], (code) =>
      code === 'E' ? 'VATEX-EU-146-1E' : null,
    );
    expect(t.vatGroups[0]?.exemptionReason).toBe('VATEX-EU-146-1E');
    expect(
      documentTotals([{ quantity: '1', unitPrice: '1', vatCode: 'E', vatRate: '0' }]).vatGroups[0]
        ?.exemptionReason,
    ).toBeNull();
  });

  it('has zero totals and no groups without lines', () => {
    expect(documentTotals([])).toEqual({
      lineNets: [],
      lineExtensionAmount: '0.00',
      vatGroups: [],
      allowanceTotalAmount: '0.00',
      chargeTotalAmount: '0.00',
      taxExclusiveAmount: '0.00',
      vatTotal: '0.00',
      taxInclusiveAmount: '0.00',
      payableAmount: '0.00',
    });
  });
});

describe('currencies', () => {
  it('converts to the base currency at 2 decimals, half away from zero (art. 230)', () => {
    expect(toBaseCurrency('100.00', '1.085000')).toBe('108.50');
    expect(toBaseCurrency('1.05', '0.920000')).toBe('0.97'); // 0.966
    expect(toBaseCurrency('0.50', '1.01')).toBe('0.51'); // 0.505
    expect(toBaseCurrency('-0.50', '1.01')).toBe('-0.51');
  });

  it('totals an offer per currency, in the order the currencies appear, never adding them up', () => {
    expect(
      totalsPerCurrency([
        { quantity: '1', unitPrice: '1250', currency: 'USD', vatCode: 'E', vatRate: '0' },
        { quantity: '2', unitPrice: '2.50', currency: 'eur', vatCode: 'S', vatRate: '21' },
        { quantity: '1', unitPrice: '2.50', currency: 'EUR', vatCode: 'S', vatRate: '21' },
        { quantity: '0.5', unitPrice: '99.99', currency: 'USD' },
      ]),
    ).toEqual([
      { currency: 'USD', net: '1300.00', vat: '0.00', gross: '1300.00' }, // 49.995 → 50.00
      { currency: 'EUR', net: '7.50', vat: '1.58', gross: '9.08' }, // 7.50 × 21 % = 1.575
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests: the EN 16931 arithmetic rules hold for random invoices. The oracle below works in
// plain BigInt cents, independently of money.ts.

const RATES: Record<VatCode, (string | null)[]> = {
  S: ['21', '9', '19', '7', '25.5', '5.5', '0.01', '99.99'],
  Z: ['0'],
  E: ['0'],
  AE: ['0'],
  K: ['0'],
  G: ['0'],
  O: [null],
};

function fixed(int: bigint, scale: number): string {
  const neg = int < 0n;
  const digits = (neg ? -int : int).toString().padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const lineArb: fc.Arbitrary<MathLine> = fc
  .record({
    quantity: fc.bigInt({ min: -99_999_999n, max: 99_999_999n }).map((q) => fixed(q, 3)),
    unitPrice: fc.bigInt({ min: 0n, max: 1_000_000_000n }).map((p) => fixed(p, 4)),
    vatCode: fc.constantFrom<VatCode>('S', 'Z', 'E', 'AE', 'O'),
    pick: fc.nat(),
  })
  .map(({ pick, ...l }) => {
    const rates = RATES[l.vatCode];
    return { ...l, vatRate: rates[pick % rates.length] ?? null };
  });
const invoiceArb = fc.array(lineArb, { maxLength: 25 });

/** An amount string as cents, refusing anything but exactly 2 decimals ("amounts have at most 2"). */
function cents(amount: string): bigint {
  expect(amount).toMatch(/^-?\d+\.\d{2}$/);
  return BigInt(amount.replace('.', ''));
}

/** round(n / d) half away from zero, d > 0. */
function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/** The rate as hundredths of a percent (rates here have at most 2 decimals). */
function rateBp(rate: string): bigint {
  const [i, f = ''] = rate.split('.');
  return BigInt(`${i}${f.padEnd(2, '0')}`);
}

const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);

describe('EN 16931 arithmetic rules hold for random invoices', () => {
  it('line nets are q × p rounded half away from zero (oracle in BigInt)', () => {
    fc.assert(
      fc.property(invoiceArb, (lines) => {
        const t = documentTotals(lines);
        lines.forEach((l, i) => {
          // q has 3 decimals and p 4: the product has 7; cents are that ÷ 10^5.
          const q = BigInt(l.quantity.replace('.', ''));
          const p = BigInt(l.unitPrice.replace('.', ''));
          expect(cents(t.lineNets[i] as string)).toBe(roundDiv(q * p, 100_000n));
        });
      }),
    );
  });

  it('BR-CO-10, 13, 14, 15, 16 and 17, and every line in exactly one group', () => {
    fc.assert(
      fc.property(invoiceArb, fc.bigInt({ min: 0n, max: 10n ** 12n }), (lines, paid) => {
        const t = documentTotals(lines, undefined, fixed(paid, 2));
        const nets = t.lineNets.map(cents);
        // BR-CO-10: BT-106 = Σ line nets.
        expect(cents(t.lineExtensionAmount)).toBe(sum(nets));
        // BR-CO-13: BT-109 = BT-106 − allowances + charges (none at document level).
        expect(cents(t.taxExclusiveAmount)).toBe(cents(t.lineExtensionAmount));
        // BR-CO-14: BT-110 = Σ group VAT.
        expect(cents(t.vatTotal)).toBe(sum(t.vatGroups.map((g) => cents(g.vatAmount))));
        // BR-CO-15: BT-112 = BT-109 + BT-110.
        expect(cents(t.taxInclusiveAmount)).toBe(cents(t.taxExclusiveAmount) + cents(t.vatTotal));
        // BR-CO-16: BT-115 = BT-112 − BT-113 (paid).
        expect(cents(t.payableAmount)).toBe(cents(t.taxInclusiveAmount) - paid);
        // BR-CO-17: group VAT = round(taxable × rate / 100, 2); O groups carry none (BR-O-09).
        for (const g of t.vatGroups) {
          const expected =
            g.vatRate === null ? 0n : roundDiv(cents(g.taxableAmount) * rateBp(g.vatRate), 10_000n);
          expect(cents(g.vatAmount)).toBe(expected);
        }
        // Each group's taxable amount is the sum of its own lines' nets (BR-S-08 and its siblings).
        const keys = t.vatGroups.map((g) => `${g.vatCode}|${g.vatRate ?? ''}`);
        expect(new Set(keys).size).toBe(keys.length);
        for (const g of t.vatGroups) {
          const mine = lines
            .map((l, i) => ({ l, net: nets[i] as bigint }))
            .filter(
              ({ l }) =>
                l.vatCode === g.vatCode &&
                (l.vatRate === null ? null : String(Number(l.vatRate))) === g.vatRate,
            );
          expect(mine.length).toBeGreaterThan(0);
          expect(cents(g.taxableAmount)).toBe(sum(mine.map((m) => m.net)));
        }
        expect(sum(t.vatGroups.map((g) => cents(g.taxableAmount)))).toBe(cents(t.lineExtensionAmount));
      }),
    );
  });

  it('a credit note of every line (same quantities) cancels the invoice to the cent', () => {
    const amounts = (t: DocumentTotals) => [
      cents(t.lineExtensionAmount),
      cents(t.taxExclusiveAmount),
      cents(t.vatTotal),
      cents(t.taxInclusiveAmount),
      ...t.vatGroups.flatMap((g) => [cents(g.taxableAmount), cents(g.vatAmount)]),
    ];
    fc.assert(
      fc.property(
        invoiceArb.chain((lines) =>
          fc.tuple(fc.constant(lines), fc.shuffledSubarray(lines, { minLength: lines.length })),
        ),
        ([lines, creditLines]) => {
          const invoice = amounts(documentTotals(lines));
          // The credit note lists the same lines, possibly in another order; its totals are booked
          // with the negated sign.
          const credit = amounts(documentTotals(creditLines));
          expect(credit.length).toBe(invoice.length);
          expect(invoice.map((a, i) => a + -(credit[i] as bigint))).toEqual(invoice.map(() => 0n));
          // And written as negative lines (an invoice that corrects itself), every amount mirrors:
          // half away from zero rounds −x exactly as it rounds x.
          const negated = documentTotals(
            lines.map((l) => ({
              ...l,
              quantity: l.quantity.startsWith('-') ? l.quantity.slice(1) : `-${l.quantity}`,
            })),
          );
          const mirrored = amounts(negated);
          expect(invoice.map((a, i) => a + (mirrored[i] as bigint))).toEqual(invoice.map(() => 0n));
        },
      ),
    );
  });
});

describe('allowances and charges (EN 16931 BG-20/21/27/28, hand-worked)', () => {
  it('a line net is q × p + line charges − line allowances', () => {
    const line: MathLine = {
      quantity: '3',
      unitPrice: '10.005', // 30.015 → 30.02
      vatCode: 'S',
      vatRate: '21',
      allowanceCharges: [
        { isCharge: false, amount: '5.00', reasonCode: '95' },
        { isCharge: true, amount: '1.50', reason: 'Weekend handling' },
      ],
    };
    expect(lineNetWithAllowances(line)).toBe('26.52');
    expect(documentTotals([line]).lineNets).toEqual(['26.52']);
  });

  it('document allowances and charges count in their VAT category and in BT-107/108/109', () => {
    const lines: MathLine[] = [
      { quantity: '1', unitPrice: '100', vatCode: 'S', vatRate: '21' },
      { quantity: '1', unitPrice: '50', vatCode: 'S', vatRate: '9' },
    ];
    const t = documentTotals(lines, undefined, '0', [
      { isCharge: false, amount: '10', vatCode: 'S', vatRate: '21', reasonCode: '95' },
      { isCharge: true, amount: '4.00', vatCode: 'S', vatRate: '9', reasonCode: 'FC' },
      { isCharge: true, amount: '2.50', vatCode: 'E', vatRate: '0', reason: 'Customs formalities' },
    ]);
    expect(t.vatGroups).toEqual([
      { vatCode: 'S', vatRate: '21', taxableAmount: '90.00', vatAmount: '18.90', exemptionReason: null },
      { vatCode: 'S', vatRate: '9', taxableAmount: '54.00', vatAmount: '4.86', exemptionReason: null },
      { vatCode: 'E', vatRate: '0', taxableAmount: '2.50', vatAmount: '0.00', exemptionReason: null },
    ]);
    expect(t).toMatchObject({
      lineExtensionAmount: '150.00',
      allowanceTotalAmount: '10.00',
      chargeTotalAmount: '6.50',
      taxExclusiveAmount: '146.50',
      vatTotal: '23.76',
      taxInclusiveAmount: '170.26',
      payableAmount: '170.26',
    });
  });

  it('a document without allowances or charges totals exactly as before (BT-109 = BT-106)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            quantity: fc.integer({ min: -9999, max: 99999 }).map((n) => (n / 1000).toFixed(3)),
            unitPrice: fc.integer({ min: 0, max: 9999999 }).map((n) => (n / 10000).toFixed(4)),
            vatCode: fc.constantFrom<VatCode>('S', 'Z', 'E'),
            vatRate: fc.constantFrom('21', '9', '0'),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        (lines) => {
          const t = documentTotals(lines);
          expect(t.lineNets).toEqual(lines.map((l) => lineNet(l.quantity, l.unitPrice)));
          expect(t.allowanceTotalAmount).toBe('0.00');
          expect(t.chargeTotalAmount).toBe('0.00');
          expect(t.taxExclusiveAmount).toBe(t.lineExtensionAmount);
          expect(documentTotals(lines, undefined, '0', [])).toEqual(t);
        },
      ),
    );
  });

  it('refuses an allowance or charge without a positive amount, without a reason, or with a foreign code', () => {
    expect(allowanceChargeProblem({ isCharge: false, amount: '0', reasonCode: '95' })?.field).toBe('amount');
    expect(allowanceChargeProblem({ isCharge: false, amount: '1.005', reasonCode: '95' })?.field).toBe(
      'amount',
    );
    expect(allowanceChargeProblem({ isCharge: true, amount: '5' })?.field).toBe('reason');
    expect(allowanceChargeProblem({ isCharge: false, amount: '5', reasonCode: 'FC' })?.field).toBe(
      'reasonCode',
    );
    expect(allowanceChargeProblem({ isCharge: true, amount: '5', reasonCode: '95' })?.field).toBe(
      'reasonCode',
    );
    expect(allowanceChargeProblem({ isCharge: false, amount: '5', reasonCode: '95' })).toBeUndefined();
    expect(allowanceChargeProblem({ isCharge: true, amount: '5.5', reason: 'Storage' })).toBeUndefined();
  });

  it('takes a charge code only from UNCL7161 (BR-CL-20), not any 2-3 capitals', () => {
    expect(allowanceChargeProblem({ isCharge: true, amount: '5', reasonCode: 'XYZ' })?.field).toBe(
      'reasonCode',
    );
    expect(allowanceChargeProblem({ isCharge: true, amount: '5', reasonCode: 'ADT' })).toBeUndefined();
  });
});

describe('allowanceChargeErrors: the one rule over a document', () => {
  const line = { quantity: '2', unitPrice: '10' };
  it('names each broken one by its path, on the document and on lines', () => {
    expect(
      allowanceChargeErrors({
        allowanceCharges: [{ isCharge: false, amount: '0', reasonCode: '95' }],
        lines: [line, { ...line, allowanceCharges: [{ isCharge: true, amount: '1' }] }],
      }),
    ).toEqual([
      { field: 'allowanceCharges.0.amount', message: expect.any(String) },
      { field: 'lines.1.allowanceCharges.0.reason', message: expect.any(String) },
    ]);
  });
  it('refuses a line discounted below zero and document allowances beyond the lines', () => {
    expect(
      allowanceChargeErrors({
        lines: [{ ...line, allowanceCharges: [{ isCharge: false, amount: '20.01', reasonCode: '95' }] }],
      }).map((e) => e.field),
    ).toEqual(['lines.0.allowanceCharges']);
    expect(
      allowanceChargeErrors({
        allowanceCharges: [{ isCharge: false, amount: '20.01', reasonCode: '95' }],
        lines: [line],
      }).map((e) => e.field),
    ).toEqual(['allowanceCharges']);
    expect(
      allowanceChargeErrors({
        allowanceCharges: [{ isCharge: false, amount: '20.00', reasonCode: '95' }],
        lines: [{ ...line, allowanceCharges: [{ isCharge: true, amount: '1', reasonCode: 'PC' }] }],
      }),
    ).toEqual([]);
  });
});

describe('allowance and charge wording', () => {
  it('names one by its reason, else by its code in words, never a bare code for an allowance', () => {
    expect(allowanceChargeLabel({ isCharge: false, amount: '1', reasonCode: '95', reason: 'Loyalty' })).toBe(
      'Loyalty',
    );
    expect(allowanceChargeLabel({ isCharge: false, amount: '1', reasonCode: '95' })).toBe('Discount');
    expect(allowanceChargeLabel({ isCharge: true, amount: '1', reasonCode: 'FC' })).toBe('Freight service');
    expect(allowanceChargeLabel({ isCharge: true, amount: '1', reasonCode: 'CAB' })).toBe(
      'Charge (UNCL7161 CAB)',
    );
    expect(allowanceChargeLabel({ isCharge: true, amount: '1' })).toBe('Surcharge');
  });
});
