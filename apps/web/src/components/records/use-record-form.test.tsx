import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../lib/api-client.ts';
import { errorOf, field } from '../../test/fields.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { TextField } from './form-fields.tsx';
import { type RecordEdit, RecordForm, type RecordFormOptions, useRecordForm } from './record-form.tsx';

/*
 * useRecordForm + RecordForm: a form declared as its values, its save and its fields. A small record
 * stands in for an area's (dossier, offer, party…), so what every area's form shares is seen once here.
 */

interface Thing {
  id: string;
  version: number;
  name: string;
  city: string | null;
}
interface ThingValues {
  name: string;
  city: string;
}
const thingValues = (t: Thing): ThingValues => ({ name: t.name, city: t.city ?? '' });
/** The contract: a name, a city or null. */
const thingSchema = z.object({ name: z.string().trim().min(1), city: z.string().nullable() });
const thingInput = (v: ThingValues) => ({ name: v.name, city: v.city || null });
type ThingBody = z.output<typeof thingSchema>;

type Wiring = Pick<
  RecordFormOptions<ThingValues, Thing, typeof thingSchema, ThingBody>,
  'record' | 'create' | 'update' | 'onSaved' | 'reload'
>;

function ThingForm(props: Wiring) {
  const thing = useRecordForm({
    ...props,
    valuesOf: thingValues,
    empty: () => ({ name: '', city: '' }),
    schema: thingSchema,
    toInput: thingInput,
    labels: { name: 'Name', city: 'City' },
  });
  return (
    <RecordForm of={thing} noun="thing" reference={props.record?.id}>
      <TextField form={thing.form} name="name" label="Name" />
      <TextField form={thing.form} name="city" label="City" />
    </RecordForm>
  );
}

const start = (props: Wiring) => renderRoute(<ThingForm {...props} />, { path: '/things', url: '/things' });

const stale = () =>
  new ApiError(409, {
    type: 'about:blank',
    title: 'Conflict',
    status: 409,
    detail: 'Changed meanwhile',
    errors: [{ field: 'version', message: 'Stale version 2; current is 3' }],
  });

describe('useRecordForm', () => {
  it('validates with the contract, creates with what it reads and starts over from the saved record', async () => {
    const saved: Thing = { id: 't1', version: 1, name: 'Depot', city: 'Venlo' };
    const create = vi.fn(async (_body: ThingBody) => saved);
    const onSaved = vi.fn();
    await start({ create, onSaved });
    expect(screen.getByRole('form', { name: 'New thing' })).toBeTruthy();
    expect(screen.getByTestId('form-submit').textContent).toBe('Create thing');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(errorOf(field('name'))).toContain('Name is required'));
    expect(create).not.toHaveBeenCalled();

    fireEvent.change(field('name'), { target: { value: ' Depot ' } });
    fireEvent.change(field('city'), { target: { value: 'Venlo' } });
    fireEvent.click(screen.getByTestId('form-submit'));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(create).toHaveBeenCalledWith({ name: 'Depot', city: 'Venlo' });
    expect(field('name').value).toBe('Depot');
  });

  it('updates with only the changed fields and the version; after a 409 reloads and reapplies mine', async () => {
    const thing: Thing = { id: 't1', version: 2, name: 'Depot', city: null };
    const fresh: Thing = { ...thing, version: 3, name: 'Depot North' };
    const edits: { body: unknown; patch: unknown }[] = [];
    const update = vi.fn(async (body: ThingBody, edit: RecordEdit<Thing>) => {
      edits.push({ body, patch: edit.patch(body) });
      if (edits.length === 1) throw stale();
      return { ...fresh, version: 4, city: 'Venlo' };
    });
    const reload = vi.fn(async () => fresh);
    await start({ record: thing, update, reload });
    expect(screen.getByTestId('thing-form').getAttribute('aria-label')).toBe('Edit thing t1');
    expect(screen.getByTestId('form-submit').textContent).toBe('Save thing');

    fireEvent.change(field('city'), { target: { value: 'Venlo' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await screen.findByTestId('form-conflict');
    expect(edits[0]?.patch).toEqual({ city: 'Venlo', version: 2 });

    fireEvent.click(screen.getByTestId('form-reload'));
    await waitFor(() => expect(screen.getByTestId('form-reapplied').textContent).toContain('Name'));
    expect(field('name').value).toBe('Depot North');
    expect(field('city').value).toBe('Venlo');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(2));
    expect(edits[1]?.patch).toEqual({ city: 'Venlo', version: 3 });
  });

  it('keeps the form as it is when a create answers nothing (the form said why on a field)', async () => {
    const onSaved = vi.fn();
    await start({ create: async () => undefined, onSaved });
    fireEvent.change(field('name'), { target: { value: 'Depot' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(screen.getByTestId('form-submit').getAttribute('data-loading')).toBeNull());
    expect(onSaved).not.toHaveBeenCalled();
    expect(field('name').value).toBe('Depot');
  });
});
