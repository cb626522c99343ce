import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { anOffer } from '../test-support.ts';
import { DossierOffers } from './dossier-offers.tsx';

const DOSSIER_ID = '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60';

describe('DossierOffers, the dossier’s Offers tab', () => {
  it('lists the dossier’s offers from GET /api/sales-offers?dossierId= with links that open them over their list', async () => {
    giveElementsSize();
    const offer = anOffer({ status: 'accepted', dossier: { id: DOSSIER_ID, number: 'D-2026-000042' } });
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      jsonResponse({
        items: [offer],
        total: 1,
        totalIsEstimate: false,
        page: 1,
        pageSize: 50,
        nextCursor: null,
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await renderRoute(<DossierOffers dossierId={DOSSIER_ID} />, {
      path: '/dossiers/D-2026-000042',
      url: '/dossiers/D-2026-000042?tab=offers',
    });
    const row = await screen.findByTestId('row-O-2026-000007');
    expect(within(row).getByRole('link', { name: 'O-2026-000007' }).getAttribute('href')).toBe(
      `/sales-offers?open=${offer.id}`,
    );
    expect(within(row).getByTestId('row-status').textContent).toBe('Accepted');
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://app.test');
    expect(url.pathname).toBe('/api/sales-offers');
    expect(url.searchParams.get('dossierId')).toBe(DOSSIER_ID);
  });

  it('says so when the dossier was not booked from an offer', async () => {
    giveElementsSize();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({
          items: [],
          total: 0,
          totalIsEstimate: false,
          page: 1,
          pageSize: 50,
          nextCursor: null,
        }),
      ),
    );
    await renderRoute(<DossierOffers dossierId={DOSSIER_ID} />, { path: '/d', url: '/d' });
    expect((await screen.findByTestId('dossier-offers-empty')).textContent).toBe(
      'This dossier was not booked from an offer.',
    );
  });
});
