import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ListPage } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { validateTransportsSearch } from '../search.ts';
import { aTransport } from '../test-support.ts';
import { transportListConfig } from './transport-list-config.tsx';

const carriers: LookupSource = { key: ['carriers'], search: async () => [], byId: async () => null };
const CARRIER_ID = '3b1f7a52-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

const leg = aTransport('t-1', 2, {
  status: 'dispatched',
  carrier: { id: CARRIER_ID, code: 'TRUCKS', name: 'Trucks BV' },
  truckPlate: 'AB-12-CD',
  driverName: 'Jan Jansen',
  containers: ['MSKU6011672'],
  allowedTransitions: ['picked_up', 'planned', 'cancelled'],
});

describe('transports list', () => {
  beforeEach(() => giveElementsSize());

  it('sends the URL’s filters, order and paging to GET /api/transports as the API names them', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      jsonResponse({
        items: [leg],
        total: 1,
        totalIsEstimate: false,
        page: 2,
        pageSize: 50,
        nextCursor: null,
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await renderRoute(<ListPage config={transportListConfig({ carrierLookup: carriers })} />, {
      path: '/transports',
      url: `/transports?page=2&sort=-pickupFrom&status=planned,dispatched,bogus&mode=road&carrierId=${CARRIER_ID}&pickupFrom=2026-11-16&pickupTo=2026-11-22&q=AB-12&open=t-9&nope=1`,
      validateSearch: validateTransportsSearch,
    });

    const row = await screen.findByTestId('row-transport-D-2026-000042-2');
    expect(row.textContent).toContain('Trucks BV');
    expect(row.textContent).toContain('AB-12-CD');
    expect(row.textContent).toContain('Jan Jansen');
    const lists = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://app.test'))
      .filter((url) => url.pathname === '/api/transports');
    expect(lists.map((url) => Object.fromEntries(url.searchParams))).toEqual([
      {
        page: '2',
        pageSize: '50',
        sort: '-pickupFrom',
        q: 'AB-12',
        status: 'planned,dispatched',
        mode: 'road',
        carrierId: CARRIER_ID,
        pickupFrom: '2026-11-16',
        pickupTo: '2026-11-22',
      },
    ]);
  });

  it('passes the zone of a dashboard link on with its days, and names it on a chip', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL) =>
      jsonResponse({
        items: [leg],
        total: 1,
        totalIsEstimate: false,
        page: 1,
        pageSize: 50,
        nextCursor: null,
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await renderRoute(<ListPage config={transportListConfig({ carrierLookup: carriers })} />, {
      path: '/transports',
      url: '/transports?pickupFrom=2026-11-24&pickupTo=2026-11-24&tz=America/New_York',
      validateSearch: validateTransportsSearch,
    });
    await screen.findByTestId('row-transport-D-2026-000042-2');
    const url = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://app.test');
    expect(url.searchParams.get('tz')).toBe('America/New_York');
    expect(url.searchParams.get('pickupFrom')).toBe('2026-11-24');
    expect(screen.getByTestId('filter-tz').textContent).toBe('Days in: America/New York');
  });
});
