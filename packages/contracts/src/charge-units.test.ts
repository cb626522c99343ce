import { describe, expect, it } from 'vitest';
import { chargeInputSchema, chargeUnits } from './dossiers.ts';
import { SALES_CHARGE_CODE_LABELS, SALES_CHARGE_CODES } from './sales-values.ts';

describe('one charge vocabulary (issue 27 item 4)', () => {
  it('names every code', () => {
    for (const code of SALES_CHARGE_CODES) expect(SALES_CHARGE_CODE_LABELS[code]).toMatch(/^[A-Z]/);
  });

  it('refuses a free code on a dossier charge, and takes the shared ones', () => {
    const charge = { kind: 'revenue', description: 'Ocean freight', amount: '100', currency: 'EUR' };
    const free = chargeInputSchema.safeParse({ ...charge, chargeCode: 'OFR' });
    expect(free.success).toBe(false);
    expect(free.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['chargeCode', 'Choose a charge from the list'],
    ]);
    expect(chargeInputSchema.safeParse({ ...charge, chargeCode: 'FREIGHT' }).success).toBe(true);
  });
});

describe('chargeUnits: a charge keeps its units while they make its amount', () => {
  it('keeps 2 × container at 1 250.505 for 2 501.01 (rounded to the cent as an invoice line)', () => {
    expect(chargeUnits({ amount: '2501.01', quantity: '2', unit: 'XCN', unitPrice: '1250.505' })).toEqual({
      quantity: '2',
      unit: 'XCN',
      unitPrice: '1250.505',
    });
    expect(
      chargeUnits({ amount: '2501.010', quantity: '2.000', unit: 'XCN', unitPrice: '1250.505' }),
    ).not.toBeNull();
  });

  it('is a lump sum once the amount was changed, or when a part is missing', () => {
    expect(chargeUnits({ amount: '2500.00', quantity: '2', unit: 'XCN', unitPrice: '1250.505' })).toBeNull();
    expect(chargeUnits({ amount: '370', quantity: '2', unit: null, unitPrice: '185' })).toBeNull();
    expect(chargeUnits({ amount: '370', quantity: null, unit: 'XCN', unitPrice: '185' })).toBeNull();
    expect(chargeUnits({ amount: '370', quantity: '2', unit: 'XCN', unitPrice: undefined })).toBeNull();
    expect(chargeUnits({ amount: '370' })).toBeNull();
  });

  it('takes a free line (unit price 0) as priced per unit too', () => {
    expect(chargeUnits({ amount: '0', quantity: '3', unit: 'DAY', unitPrice: '0' })).toEqual({
      quantity: '3',
      unit: 'DAY',
      unitPrice: '0',
    });
  });
});
