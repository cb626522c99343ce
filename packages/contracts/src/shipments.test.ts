import { describe, expect, it } from 'vitest';
import { shipmentCreateSchema, shipmentTransitionSchema } from './shipments.ts';

const record = '7d0c5f1e-5b3a-4c57-9d2a-3f6f1c2b9e10';

describe('shipmentCreateSchema', () => {
  it('takes a SKU (upper-cased) or a stock record per line', () => {
    const r = shipmentCreateSchema.parse({
      lines: [
        { sku: ' abc-1 ', quantity: 3 },
        { stockRecordId: record, quantity: 1 },
      ],
    });
    expect(r.lines).toEqual([
      { sku: 'ABC-1', quantity: 3 },
      { stockRecordId: record, quantity: 1 },
    ]);
  });

  it('wants exactly one of sku and stockRecordId, on lines.i.sku', () => {
    const r = shipmentCreateSchema.safeParse({
      lines: [{ quantity: 1 }, { sku: 'A', stockRecordId: record, quantity: 1 }],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['lines.0.sku', 'Enter the article number (SKU), or choose a stock record'],
      ['lines.1.sku', 'Give the article number or the stock record, not both'],
    ]);
  });

  it('refuses no lines, a quantity of 0, an unknown procedure', () => {
    expect(shipmentCreateSchema.safeParse({ lines: [] }).success).toBe(false);
    expect(shipmentCreateSchema.safeParse({ lines: [{ sku: 'A', quantity: 0 }] }).success).toBe(false);
    const proc = shipmentCreateSchema.safeParse({
      outboundProcedure: '7100',
      lines: [{ sku: 'A', quantity: 1 }],
    });
    expect(proc.error?.issues[0]?.path).toEqual(['outboundProcedure']);
  });
});

describe('shipmentTransitionSchema', () => {
  it('knows the targets, never draft', () => {
    expect(shipmentTransitionSchema.safeParse({ to: 'draft', version: 1 }).success).toBe(false);
    expect(shipmentTransitionSchema.parse({ to: 'cancelled', version: 2, reason: ' gone ' }).reason).toBe(
      'gone',
    );
  });
});
