import { transportCreateSchema } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { emptyTransportValues, fromLocalInput, transportInput } from './transport-form.tsx';

describe('transport form input', () => {
  it('sends a datetime-local value as the ISO instant of that local time', () => {
    expect(fromLocalInput('2026-02-28T08:00')).toBe(new Date(2026, 1, 28, 8, 0).toISOString());
    expect(fromLocalInput('')).toBe('');
  });

  it('leaves a day that does not exist as typed, so the contract names the field instead of moving it', () => {
    expect(fromLocalInput('2026-02-30T08:00')).toBe('2026-02-30T08:00');
    const values = { ...emptyTransportValues('D-2026-000001'), pickupFrom: '2026-02-30T08:00' };
    const parsed = transportCreateSchema.safeParse(transportInput(values));
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['pickupFrom']);
  });
});
