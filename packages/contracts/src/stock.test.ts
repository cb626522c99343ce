import { describe, expect, it } from 'vitest';
import {
  handlingUnitIssues,
  stockMovementCreateSchema,
  stockReceiptCreateSchema,
  stockReceiptLineInputSchema,
} from './stock.ts';
import { makeSscc } from './validators/gs1.ts';

const sscc = makeSscc({ extensionDigit: 0, companyPrefix: '8712345', serial: 42 });
const line = (over: Record<string, unknown> = {}) => ({
  sku: ' abc-1 ',
  description: 'Speakers',
  quantity: 10,
  location: 'rtm1 a 03/02',
  ...over,
});
const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (r.error?.issues ?? []).map((i) => i.path.join('.'));

describe('stock receipt lines', () => {
  it('stores the SKU upper-case and the location canonical, defaulting the unit', () => {
    const r = stockReceiptLineInputSchema.parse(line());
    expect(r).toMatchObject({ sku: 'ABC-1', location: 'RTM1-A-03-02', unit: 'H87' });
  });

  it('takes an SSCC as scanned: (00), spaces, 20 digits', () => {
    const scanned = `(00) ${sscc.slice(0, 9)} ${sscc.slice(9)}`;
    const r = stockReceiptLineInputSchema.parse(
      line({ handlingUnits: [{ kind: 'pallet', sscc: scanned, quantity: 10 }] }),
    );
    expect(r.handlingUnits?.[0]?.sscc).toBe(sscc);
    const twenty = stockReceiptLineInputSchema.parse(
      line({ handlingUnits: [{ kind: 'pallet', sscc: `00${sscc}`, quantity: 10 }] }),
    );
    expect(twenty.handlingUnits?.[0]?.sscc).toBe(sscc);
  });

  it('wants a currency with a value, and net within gross', () => {
    const r = stockReceiptLineInputSchema.safeParse(line({ value: '10', grossMassKg: '5', netMassKg: '6' }));
    expect(paths(r)).toEqual(['netMassKg', 'currency']);
  });
});

describe('handlingUnitIssues', () => {
  it('accepts a consistent tree', () => {
    expect(
      handlingUnitIssues(
        [
          {
            kind: 'pallet',
            quantity: 7,
            children: [
              { kind: 'carton', quantity: 4, children: [{ kind: 'item', quantity: 4 }] },
              { kind: 'item', quantity: 3 },
            ],
          },
          { kind: 'carton', quantity: 3 },
        ],
        10,
      ),
    ).toEqual([]);
  });

  it('names each broken rule by its path', () => {
    const issues = handlingUnitIssues(
      [
        {
          kind: 'carton',
          quantity: 5,
          children: [
            { kind: 'pallet', quantity: 2 },
            { kind: 'carton', quantity: 2 },
          ],
        },
        { kind: 'item', sscc, quantity: 1 },
      ],
      9,
    );
    expect(issues.map((i) => i.path.join('.'))).toEqual([
      '0.quantity',
      '0.children.0.kind',
      '0.children.1.kind',
      '1.sscc',
      'quantity',
    ]);
  });
});

describe('stock receipts', () => {
  const base = {
    ownerId: '6f1c1d2e-1b7a-4c55-9a43-2a6a7c1e0b11',
    receivedOn: '2026-10-01',
    customsStatus: 'union',
    lines: [line()],
  };

  it('needs the MRN or the entry declaration of non-Union goods under customs warehousing only', () => {
    expect(stockReceiptCreateSchema.safeParse(base).success).toBe(true);
    expect(
      paths(stockReceiptCreateSchema.safeParse({ ...base, customsStatus: 'non_union_customs_warehousing' })),
    ).toEqual(['inboundMrn']);
    expect(stockReceiptCreateSchema.safeParse({ ...base, customsStatus: 'temporary_storage' }).success).toBe(
      true,
    );
  });

  it('refuses an SSCC given twice across lines, at the second place', () => {
    const unit = { kind: 'pallet', sscc, quantity: 10 };
    const r = stockReceiptCreateSchema.safeParse({
      ...base,
      lines: [line({ handlingUnits: [unit] }), line({ handlingUnits: [unit] })],
    });
    expect(paths(r)).toEqual(['lines.1.handlingUnits.0.sscc']);
  });
});

describe('stock movements', () => {
  it('a transfer needs a location; an adjustment a quantity other than 0 and a reason', () => {
    expect(stockMovementCreateSchema.parse({ kind: 'transfer', version: 1, toLocation: 'rtm1-b-1' })).toEqual(
      {
        kind: 'transfer',
        version: 1,
        toLocation: 'RTM1-B-1',
      },
    );
    const r = stockMovementCreateSchema.safeParse({
      kind: 'adjustment',
      version: 1,
      quantity: 0,
      reason: 'x',
    });
    expect(paths(r)).toEqual(['quantity', 'reason']);
    expect(paths(stockMovementCreateSchema.safeParse({ kind: 'pick', version: 1 }))).toEqual(['kind']);
  });
});
