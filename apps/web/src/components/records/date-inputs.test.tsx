import { Button } from '@mantine/core';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDisplayPreferences, setDisplayPreferences } from '../../lib/display-preferences.ts';
import { dateInputOf, typeDate, typeDateTime, typeTime } from '../../test/date-inputs.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { DateValueInput } from './date-inputs.tsx';
import { DateField, DateTimeField } from './form-fields.tsx';
import { RecordModal } from './record-modal.tsx';

interface Values {
  day: string;
  at: string;
}

let latest: Values = { day: '', at: '' };

function Harness({
  initial,
  min,
  max,
  minAt,
}: {
  initial?: Partial<Values>;
  min?: string;
  max?: string;
  minAt?: string;
}) {
  const form = useForm<Values>({ defaultValues: { day: '', at: '', ...initial } });
  latest = form.watch();
  return (
    <form>
      <DateField form={form} name="day" label="Ready date" min={min} max={max} />
      <DateTimeField form={form} name="at" label="Pickup" min={minAt} />
      <Button onClick={() => form.reset({ day: '', at: '2026-07-01T08:00:00Z' })} data-testid="reset">
        Reset
      </Button>
    </form>
  );
}

const day = () => screen.getByTestId('field-day') as HTMLInputElement;
const at = () => screen.getByTestId('field-at');

beforeEach(() => setDisplayPreferences({ timeZone: 'Europe/Amsterdam' }));
afterEach(resetDisplayPreferences);

describe('DateField', () => {
  it('shows the app format and keeps YYYY-MM-DD as the value', () => {
    renderWithProviders(<Harness initial={{ day: '2026-11-23' }} />);
    expect(day().value).toBe('23 Nov 2026');
    expect(latest.day).toBe('2026-11-23');
  });

  it('takes a typed day in the ways people write it', () => {
    renderWithProviders(<Harness />);
    typeDate(day(), '5 Mar 2026');
    expect(latest.day).toBe('2026-03-05');
    typeDate(day(), '06.03.2026');
    expect(latest.day).toBe('2026-03-06');
    fireEvent.blur(day());
    expect(day().value).toBe('6 Mar 2026');
  });

  it('takes a picked day from the calendar', async () => {
    renderWithProviders(<Harness initial={{ day: '2026-11-23' }} />);
    fireEvent.click(day());
    const cell = await screen.findByRole('button', { name: '25 November 2026', hidden: true });
    fireEvent.click(cell);
    expect(latest.day).toBe('2026-11-25');
  });

  it('clears with the × button and with emptied text', () => {
    renderWithProviders(<Harness initial={{ day: '2026-11-23' }} />);
    const clear = day().closest('.mantine-InputWrapper-root')?.querySelector('button') as HTMLButtonElement;
    fireEvent.click(clear);
    expect(latest.day).toBe('');
    typeDate(day(), '2026-11-24');
    expect(latest.day).toBe('2026-11-24');
    typeDate(day(), '');
    expect(latest.day).toBe('');
  });

  it('says which days are allowed when a typed day lies outside min/max, and keeps the value', () => {
    renderWithProviders(<Harness initial={{ day: '2026-11-10' }} min="2026-11-01" max="2026-11-30" />);
    typeDate(day(), '2026-12-03');
    expect(screen.getByText('Enter a date on or before 30 Nov 2026')).toBeTruthy();
    expect(day().getAttribute('aria-invalid')).toBe('true');
    expect(latest.day).toBe('2026-11-10');
    typeDate(day(), '2026-10-31');
    expect(screen.getByText('Enter a date on or after 1 Nov 2026')).toBeTruthy();
    typeDate(day(), '2026-11-12');
    expect(screen.queryByText(/Enter a date on or/)).toBeNull();
    expect(latest.day).toBe('2026-11-12');
  });
});

describe('DateTimeField', () => {
  it('shows an instant in the preferred zone and sends ISO 8601 with that zone’s offset', () => {
    renderWithProviders(<Harness initial={{ at: '2026-11-23T13:05:00Z' }} />);
    expect(dateInputOf(at()).value).toBe('23 Nov 2026');
    expect(within(at()).getByLabelText('Pickup hours')).toHaveProperty('value', '14');
    expect(within(at()).getByLabelText('Pickup minutes')).toHaveProperty('value', '05');
    typeTime(at(), '16:30');
    expect(latest.at).toBe('2026-11-23T16:30:00+01:00');
  });

  it('types a day and a time; picking a day keeps the time', async () => {
    renderWithProviders(<Harness />);
    typeDateTime(at(), '24 Nov 2026', '09:15');
    expect(latest.at).toBe('2026-11-24T09:15:00+01:00');
    fireEvent.click(dateInputOf(at()));
    fireEvent.click(await screen.findByRole('button', { name: '26 November 2026', hidden: true }));
    expect(latest.at).toBe('2026-11-26T09:15:00+01:00');
  });

  it('keeps the typed hour across the change to summer time (the offset follows the day)', () => {
    renderWithProviders(<Harness initial={{ at: '2026-03-28T07:00:00Z' }} />);
    expect(within(at()).getByLabelText('Pickup hours')).toHaveProperty('value', '08');
    typeDate(at(), '29 Mar 2026');
    expect(latest.at).toBe('2026-03-29T08:00:00+02:00');
    expect(Date.parse(latest.at)).toBe(Date.parse('2026-03-29T06:00:00Z'));
    typeDate(at(), '28 Mar 2026');
    expect(latest.at).toBe('2026-03-28T08:00:00+01:00');
  });

  it('clears to an empty value', () => {
    renderWithProviders(<Harness initial={{ at: '2026-11-23T13:05:00Z' }} />);
    typeDate(at(), '');
    expect(latest.at).toBe('');
  });

  it('refuses a time before min with a message', () => {
    renderWithProviders(<Harness initial={{ at: '2026-11-23T13:05:00Z' }} minAt="2026-11-23T12:00:00Z" />);
    typeTime(at(), '12:30');
    expect(screen.getByText('Enter a time on or after 23 Nov 2026, 13:00')).toBeTruthy();
    expect(latest.at).toBe('2026-11-23T13:05:00Z');
    typeTime(at(), '13:30');
    expect(screen.queryByText(/Enter a time on or after/)).toBeNull();
    expect(latest.at).toBe('2026-11-23T13:30:00+01:00');
  });

  it('shows a value set from outside (reset)', async () => {
    renderWithProviders(<Harness initial={{ at: '2026-11-23T13:05:00Z' }} />);
    act(() => fireEvent.click(screen.getByTestId('reset')));
    await waitFor(() => expect(dateInputOf(at()).value).toBe('1 Jul 2026'));
    expect(within(at()).getByLabelText('Pickup hours')).toHaveProperty('value', '10');
  });
});

describe('in a dialog', () => {
  it('Escape with the calendar open closes the calendar, not the dialog; the next one closes the dialog', async () => {
    const close = vi.fn();
    renderWithProviders(
      <RecordModal opened title="Dossier" onClose={close} testId="dossier">
        <DateValueInput label="ETD" value="2026-11-23" onChange={() => {}} data-testid="etd" />
      </RecordModal>,
    );
    const input = (await screen.findByTestId('etd')) as HTMLInputElement;
    fireEvent.click(input);
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(close).not.toHaveBeenCalled();
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('false'));
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(close).toHaveBeenCalledTimes(1);
  });
});
