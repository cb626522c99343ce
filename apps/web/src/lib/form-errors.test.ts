import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client.ts';
import { applyProblemToForm, normalizeFieldPath } from './form-errors.ts';

const validation = (errors: { field: string; message: string }[]) =>
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

  it('sends errors of unknown fields to the form-level message', () => {
    const setError = vi.fn();
    const result = applyProblemToForm(validation([{ field: 'token', message: 'Link expired' }]), setError, {
      fields: ['password'],
    });
    expect(result.mapped).toBe(0);
    expect(setError).toHaveBeenCalledWith('root.server', { type: 'server', message: 'Check the fields' });
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
