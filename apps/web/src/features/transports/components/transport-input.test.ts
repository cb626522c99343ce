import { transportCreateSchema } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { emptyTransportValues, transportInput } from './transport-form.tsx';

describe('transport form input', () => {
  it('sends the date-time fields as they are (ISO 8601 with offset) and empty ones as null', () => {
    const values = {
      ...emptyTransportValues('D-2026-000001'),
      pickupFrom: '2026-03-29T03:30:00+02:00',
      pickupTo: '2026-03-29T05:00:00+02:00',
    };
    const parsed = transportCreateSchema.safeParse(transportInput(values));
    expect(parsed.error).toBeUndefined();
    expect(parsed.data?.pickupFrom).toBe('2026-03-29T01:30:00.000Z');
    expect(parsed.data?.deliveryFrom ?? null).toBeNull();
  });

  it('names the field of a window that ends before it starts', () => {
    const values = {
      ...emptyTransportValues('D-2026-000001'),
      pickupFrom: '2026-03-29T08:00:00+02:00',
      pickupTo: '2026-03-29T07:00:00+02:00',
    };
    const parsed = transportCreateSchema.safeParse(transportInput(values));
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['pickupTo']);
  });
});
