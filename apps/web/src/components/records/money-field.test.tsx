import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { setNumberFormat } from '../../lib/number-format.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { MoneyField } from './money-field.tsx';

interface Values {
  amount: string;
}

/** A form with one amount; its value is printed as the form holds it. */
function Harness({ initial = '', currency = 'EUR' }: { initial?: string; currency?: string }) {
  const form = useForm<Values>({ defaultValues: { amount: initial } });
  const [code, setCode] = useState(currency);
  return (
    <>
      <MoneyField form={form} name="amount" label="Amount" currency={code} />
      <output data-testid="value">{JSON.stringify(form.watch('amount'))}</output>
      <button type="button" onClick={() => setCode('JPY')}>
        yen
      </button>
      <button type="button" onClick={() => form.reset({ amount: '7.00' })}>
        reset
      </button>
    </>
  );
}

const input = () => screen.getByTestId('field-amount') as HTMLInputElement;
const value = () => JSON.parse(screen.getByTestId('value').textContent ?? 'null') as string;

function type(text: string) {
  fireEvent.focus(input());
  fireEvent.change(input(), { target: { value: text } });
}

afterEach(() => setNumberFormat(null));

describe('MoneyField', () => {
  it('takes "2,450.00" as typed, hands the form the exact string and shows it grouped when left', () => {
    renderWithProviders(<Harness />);
    type('2,450.00');
    expect(value()).toBe('2450.00');
    expect(typeof value()).toBe('string');
    expect(input().value).toBe('2,450.00');
    fireEvent.blur(input());
    expect(input().value).toBe('2,450.00');
    // Focused again: the plain text to edit.
    fireEvent.focus(input());
    expect(input().value).toBe('2450.00');
    fireEvent.change(input(), { target: { value: '2450' } });
    fireEvent.blur(input());
    expect(value()).toBe('2450.00');
    expect(input().value).toBe('2,450.00');
  });

  it('shows a saved amount formatted and pads to the currency’s decimals (0 for JPY, 3 for BHD)', () => {
    const { unmount } = renderWithProviders(<Harness initial="1234567.5" />);
    expect(input().value).toBe('1,234,567.50');
    unmount();
    renderWithProviders(<Harness currency="BHD" />);
    type('12.5');
    fireEvent.blur(input());
    expect(value()).toBe('12.500');
    expect(input().value).toBe('12.500');
  });

  it('reads the decimal comma preference: "2 450,00" and "2.450,5"', () => {
    act(() => setNumberFormat({ decimal: ',', thousands: '.' }));
    renderWithProviders(<Harness />);
    type('2 450,00');
    expect(value()).toBe('2450.00');
    fireEvent.blur(input());
    expect(input().value).toBe('2.450,00');
    type('2.450,5');
    expect(value()).toBe('2450.50');
    fireEvent.focus(input());
    expect(input().value).toBe('2450,50');
  });

  it('refuses letters with a plain sentence once the field is left, and the form cannot take the text', () => {
    renderWithProviders(<Harness />);
    type('12abc');
    // Not while still typing…
    expect(screen.queryByText('Enter digits only, e.g. 2,450.00')).toBeNull();
    fireEvent.blur(input());
    expect(screen.getByText('Enter digits only, e.g. 2,450.00')).toBeTruthy();
    expect(input().value).toBe('12abc');
    expect(input().getAttribute('aria-invalid')).toBe('true');
    expect(value()).toBe('12abc');
    // A slip that reads like a plain number elsewhere ('12,5' meant as 12.5) never reaches the form as one.
    type('12,5');
    fireEvent.blur(input());
    expect(screen.getByText('"," separates thousands and "." the decimals, e.g. 2,450.00')).toBeTruthy();
    expect(value()).not.toMatch(/^-?\d+(\.\d+)?$/);
  });

  it('selects the plain amount when focused, so typing replaces it', () => {
    renderWithProviders(<Harness initial="2450.00" />);
    expect(input().value).toBe('2,450.00');
    fireEvent.focus(input());
    expect(input().value).toBe('2450.00');
    expect([input().selectionStart, input().selectionEnd]).toEqual([0, 7]);
  });

  it('keeps saying what is wrong when the field is focused again (e.g. by a failed save)', () => {
    renderWithProviders(<Harness />);
    type('24s0');
    fireEvent.blur(input());
    fireEvent.focus(input());
    expect(input().value).toBe('24s0');
    expect(screen.getByText('Enter digits only, e.g. 2,450.00')).toBeTruthy();
  });

  it('keeps to the currency’s decimals: no cents on yen', () => {
    renderWithProviders(<Harness currency="JPY" />);
    type('1,000.5');
    fireEvent.blur(input());
    expect(screen.getByText('JPY amounts have no decimals')).toBeTruthy();
    type('1,000');
    fireEvent.blur(input());
    expect(value()).toBe('1000');
    expect(input().value).toBe('1,000');
    expect(screen.queryByText('JPY amounts have no decimals')).toBeNull();
  });

  it('drops its own message when the form is reset', () => {
    renderWithProviders(<Harness />);
    type('abc');
    fireEvent.blur(input());
    expect(screen.getByText(/Enter digits only/)).toBeTruthy();
    fireEvent.click(screen.getByText('reset'));
    expect(screen.queryByText(/Enter digits only/)).toBeNull();
    expect(input().value).toBe('7.00');
  });

  it('never hides decimals it holds when the currency changes', () => {
    renderWithProviders(<Harness initial="12.50" />);
    fireEvent.click(screen.getByText('yen'));
    expect(input().value).toBe('12.50');
  });
});
