import { cleanNotifications } from '@mantine/notifications';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client.ts';
import { renderWithProviders } from '../test/render.tsx';
import { ErrorState } from './error-state.tsx';
import { showProblemToast } from './problem-reference.tsx';
import { Toasts } from './toasts.tsx';

afterEach(() => act(() => cleanNotifications()));

const failed = new ApiError(500, {
  type: '/problems/internal',
  title: 'Internal server error',
  status: 500,
  detail: 'Something went wrong on our side. Nothing was saved.',
  requestId: '5f0c2a9e-1b7d-4c1e-9a63-2f1d8e4b7a10',
});

describe('the reference of a failed request', () => {
  it('shows small under the message of the error state', () => {
    renderWithProviders(<ErrorState error={failed} />);
    expect(screen.getByText('Something went wrong on our side. Nothing was saved.')).toBeTruthy();
    const reference = screen.getByTestId('problem-reference');
    expect(reference.textContent).toBe('Reference: 5f0c2a9e-1b7d-4c1e-9a63-2f1d8e4b7a10');
    expect(reference.className).toMatch(/mantine-Text/);
    expect(reference.getAttribute('data-size')).toBe('xs');
  });

  it('is left out when there is none (an error that is not an answer of the server)', () => {
    renderWithProviders(<ErrorState error={new Error('boom')} />);
    expect(screen.queryByTestId('problem-reference')).toBeNull();
    expect(screen.queryByText(/Reference/)).toBeNull();
  });

  it('shows under the message of the error toast', async () => {
    renderWithProviders(<Toasts />);
    act(() => showProblemToast('Export failed', failed));
    expect(await screen.findByText('Export failed')).toBeTruthy();
    expect(screen.getByText('Something went wrong on our side. Nothing was saved.')).toBeTruthy();
    expect(screen.getByTestId('problem-reference').textContent).toBe(
      'Reference: 5f0c2a9e-1b7d-4c1e-9a63-2f1d8e4b7a10',
    );
  });
});
