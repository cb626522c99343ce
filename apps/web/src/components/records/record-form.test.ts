import { dossierCreateSchema } from '@fvg/contracts';
import { act, renderHook, waitFor } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { changedFields, contractResolver, fieldPathsOf, isDirtyMark, useRecordBase } from './record-form.tsx';

describe('record form helpers', () => {
  it('lists every field path of the values, nested arrays included', () => {
    expect(fieldPathsOf({ type: 'import', containers: [{ number: 'X', seals: ['a'] }] })).toEqual([
      'type',
      'containers',
      'containers.0',
      'containers.0.number',
      'containers.0.seals',
      'containers.0.seals.0',
    ]);
  });

  it('keeps only the changed top-level fields for a PATCH', () => {
    const payload = { type: 'import', etd: '2026-05-01', containers: [{ number: 'X' }], handlerId: null };
    expect(changedFields(payload, { etd: true, containers: [{ number: true }], handlerId: false })).toEqual({
      etd: '2026-05-01',
      containers: [{ number: 'X' }],
    });
    expect(isDirtyMark([undefined, { seals: [false] }])).toBe(false);
  });

  it('validates with the contract schema: "<label> is required" for missing values, plain sentences otherwise', async () => {
    const resolver = contractResolver<{
      type: string;
      mode?: string;
      customerId: string;
      etd: string;
      eta: string;
    }>(
      dossierCreateSchema,
      (v) => ({
        ...v,
        type: v.type || undefined,
        customerId: v.customerId || undefined,
      }),
      { type: 'Type', customerId: 'Customer', mode: 'Mode', packages: 'Packages' },
    );
    const result = await resolver(
      { type: '', customerId: '', etd: '2026-05-03', eta: '2026-05-01' },
      undefined,
      { fields: {}, shouldUseNativeValidation: false },
    );
    const errors = result.errors as Record<string, { message?: string }>;
    expect(errors.type?.message).toBe('Type is required');
    expect(errors.customerId?.message).toBe('Customer is required');
    expect(errors.mode?.message).toBe('Mode is required');
    expect(result.values).toEqual({});

    // Rules across fields run once the fields themselves are valid, with the contract's message.
    const valid = { type: 'import', mode: 'sea', customerId: '0b6f3c1e-3a52-4a8e-9d7e-2f1f6c1b9a01' };
    const crossField = await resolver({ ...valid, etd: '2026-05-03', eta: '2026-05-01' }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect((crossField.errors as Record<string, { message?: string }>).eta?.message).toBe(
      'ETA cannot be before ETD',
    );
    const ok = await resolver({ ...valid, etd: '2026-05-01', eta: '2026-05-03' }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(ok).toEqual({ values: { ...valid, etd: '2026-05-01', eta: '2026-05-03' }, errors: {} });
  });
});

describe('useRecordBase', () => {
  type Rec = { version: number; name: string };
  const values = (r: Rec) => ({ name: r.name });

  it('follows a newer record while untouched, and keeps the version it started from once edited', async () => {
    const { result, rerender } = renderHook(
      ({ record }: { record: Rec }) => {
        const form = useForm({ defaultValues: values(record) });
        const base = useRecordBase(form, record, values);
        return { form, base, dirty: form.formState.isDirty };
      },
      { initialProps: { record: { version: 1, name: 'Acme' } } },
    );
    expect(result.current.base.version).toBe(1);

    // Someone else saved (a live update refetched the record): the untouched form follows.
    rerender({ record: { version: 2, name: 'Acme B.V.' } });
    await waitFor(() => expect(result.current.base.version).toBe(2));
    expect(result.current.form.getValues('name')).toBe('Acme B.V.');

    // Now the user edits; another change arrives: the form keeps the user's text and version 2.
    act(() => result.current.form.setValue('name', 'Acme Holding', { shouldDirty: true }));
    await waitFor(() => expect(result.current.dirty).toBe(true));
    rerender({ record: { version: 3, name: 'Acme Trading' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(result.current.base.version).toBe(2);
    expect(result.current.form.getValues('name')).toBe('Acme Holding');

    // Starting over (after a 409 and a reload) takes the fresh record.
    act(() => result.current.base.restart({ version: 3, name: 'Acme Trading' }));
    expect(result.current.base.version).toBe(3);
    expect(result.current.form.getValues('name')).toBe('Acme Trading');
  });
});
