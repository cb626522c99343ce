import { screen } from '@testing-library/react';

/*
 * The inputs of components/records/form-fields.tsx in component tests: found by their
 * `data-testid="field-<name>"`, their message read as a screen reader hears it (aria-describedby).
 */

/** The input bound to form field `name` (`containers.0.number` for a nested one). */
export const field = (name: string) => screen.getByTestId(`field-${name}`) as HTMLInputElement;

/** What the input's description says: its error message (and hint). */
export const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
