import { fireEvent, within } from '@testing-library/react';

/*
 * Drives the app's date inputs (components/records/date-inputs.tsx) in component tests the way a
 * user types: the date as text, the time into its hours and minutes.
 */

/** The date part of a DateTimeField (or a DateField's own input), by its test id. */
export function dateInputOf(root: HTMLElement): HTMLInputElement {
  if (root instanceof HTMLInputElement) return root;
  return root.querySelector('input[data-dates-input]') as HTMLInputElement;
}

/** Types a day ('18 Nov 2026', '2026-11-18'; '' clears) into a date or date-time field. */
export function typeDate(root: HTMLElement, text: string): void {
  const input = dateInputOf(root);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: text } });
}

/** Types a time ('09:30') into a date-time field. */
export function typeTime(root: HTMLElement, time: string): void {
  const [hours = '', minutes = ''] = time.split(':');
  const inputs = within(root).getAllByRole('spinbutton', { hidden: true });
  const [h, m] = inputs;
  if (!h || !m) throw new Error('No hours and minutes inputs in this field');
  fireEvent.change(h, { target: { value: hours } });
  fireEvent.change(m, { target: { value: minutes } });
}

/** Types a day and a time, then leaves the field (the blur a form or the planning board reacts to). */
export function typeDateTime(root: HTMLElement, day: string, time: string): void {
  typeDate(root, day);
  typeTime(root, time);
  fireEvent.blur(dateInputOf(root));
}
