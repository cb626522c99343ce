import type { FieldError } from '@fvg/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, problemMessage } from './api-client.ts';
import { applyProblemToForm, normalizeFieldPath } from './form-errors.ts';

const validation = (errors: FieldError[]) =>
  new ApiError(400, {
    type: 'about:blank',
    title: 'Bad request',
    status: 400,
    detail: 'Check the fields',
    errors,
  });

describe('applyProblemToForm', () => {
  it('puts field errors on the named fields and focuses the first', () => {
    const setError = vi.fn();
    const result = applyProblemToForm(
      validation([
        { field: 'email', message: 'Unknown domain' },
        { field: 'body.password', message: 'Too short' },
      ]),
      setError,
      { fields: ['email', 'password'] },
    );
    expect(result).toEqual({ mapped: 2, message: undefined });
    expect(setError).toHaveBeenCalledWith(
      'email',
      { type: 'server', message: 'Unknown domain' },
      { shouldFocus: true },
    );
    expect(setError).toHaveBeenCalledWith(
      'password',
      { type: 'server', message: 'Too short' },
      { shouldFocus: false },
    );
  });

  it('words a rule’s code in plain language on the field, and keeps the server’s own sentences', () => {
    const setError = vi.fn();
    const problem = validation([
      {
        field: 'vatNumber',
        message: 'not a valid PL VAT number format',
        code: 'vat_number',
        params: { country: 'PL', example: 'PL1234567890' },
      },
      { field: 'code', message: 'Another party already has this code' },
      { field: 'pickupLocode', message: 'UNLocationCode must be…', code: 'unlocode' },
    ]);
    applyProblemToForm(problem, setError, {
      fields: ['vatNumber', 'code'],
      labels: { vatNumber: 'VAT number' },
    });
    expect(setError).toHaveBeenCalledWith(
      'vatNumber',
      { type: 'server', message: 'Enter a VAT number such as PL1234567890' },
      { shouldFocus: true },
    );
    expect(setError).toHaveBeenCalledWith(
      'code',
      { type: 'server', message: 'Another party already has this code' },
      { shouldFocus: false },
    );
    // A field the form does not have: its sentence goes to the form-level message.
    expect(setError).toHaveBeenCalledWith('root.server', {
      type: 'server',
      message: 'Enter a UN/LOCODE such as NLRTM',
    });
    // Outside a form (a toast, an inline save) the same sentences, one after the other.
    expect(problemMessage(problem)).toBe(
      'Enter a VAT number such as PL1234567890. Another party already has this code. Enter a UN/LOCODE such as NLRTM.',
    );
  });

  it('sends errors of unknown fields to the form-level message', () => {
    const setError = vi.fn();
    const result = applyProblemToForm(validation([{ field: 'token', message: 'Link expired' }]), setError, {
      fields: ['password'],
    });
    expect(result.mapped).toBe(0);
    // The server's sentence for the field, rather than the problem's summary.
    expect(setError).toHaveBeenCalledWith('root.server', { type: 'server', message: 'Link expired.' });
  });

  it('uses the problem detail for errors without field errors, and a generic sentence for others', () => {
    const setError = vi.fn();
    applyProblemToForm(
      new ApiError(401, {
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'Wrong email or password',
      }),
      setError,
      { fields: ['email'] },
    );
    expect(setError).toHaveBeenLastCalledWith('root.server', {
      type: 'server',
      message: 'Wrong email or password',
    });
    applyProblemToForm(new Error('boom'), setError, { fields: ['email'] });
    expect(setError).toHaveBeenLastCalledWith('root.server', {
      type: 'server',
      message: 'Something went wrong. Please try again.',
    });
  });

  it('normalizes field paths', () => {
    expect(normalizeFieldPath('body.email')).toBe('email');
    expect(normalizeFieldPath('/lines/0/qty')).toBe('lines.0.qty');
    expect(normalizeFieldPath('email')).toBe('email');
  });
});
