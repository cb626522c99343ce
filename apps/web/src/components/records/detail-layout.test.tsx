import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { renderRoute } from '../../test/render-route.tsx';
import { DetailLayout } from './detail-layout.tsx';

const problem = (status: number, title: string) =>
  new ApiError(status, { type: 'about:blank', title, status });

describe('DetailLayout when the record cannot be shown', () => {
  it('says a missing record does not exist and links back to its list, with no "try again"', async () => {
    await renderRoute(
      <DetailLayout route="dossier" recordId="D-2026-999999" tabs={[]} error={problem(404, 'Not found')} />,
      {
        path: '/dossiers/$dossierId',
        url: '/dossiers/D-2026-999999',
      },
    );
    const missing = await screen.findByTestId('record-not-found');
    expect(missing.textContent).toContain('This dossier does not exist');
    const back = screen.getByRole('link', { name: 'Back to dossiers' });
    expect(back.getAttribute('href')).toBe('/dossiers');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers to try again when the load failed for another reason', async () => {
    await renderRoute(
      <DetailLayout
        route="party"
        recordId="ACME"
        tabs={[]}
        error={problem(500, 'Internal server error')}
        onRetry={() => {}}
      />,
      { path: '/parties/$id', url: '/parties/ACME' },
    );
    expect((await screen.findByTestId('error-state')).textContent).toContain(
      'This party could not be loaded',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByTestId('record-not-found')).toBeNull();
  });
});
