import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyLookup, freshListEachTest, renderList, stubListPage } from '../../../test/list.tsx';
import { aStockItem } from '../../../test/stock.ts';
import { validateStockSearch } from '../api/search.ts';
import { stockListConfig } from './stock-list-config.tsx';

const lookup = emptyLookup;

const loose = aStockItem({
  id: '7c2a0f6e-3d4b-4e5f-8a9b-2c3d4e5f6071',
  sku: 'XYZ-9',
  description: 'Cotton bags',
  unit: 'BG',
  quantityOnHand: 1,
  quantityReserved: 1,
  quantityAvailable: 0,
  customsStatus: 'union',
  inboundMrn: null,
  location: 'RTM1-C-10',
  locationCount: 1,
  receipt: { id: '8d3b1a7f-4e5c-4f6a-9b0c-3d4e5f607182', number: 'R-2026-000009' },
});

const stubList = () => stubListPage([aStockItem(), loose]);

const start = (staff: boolean, url = '/stock') =>
  renderList(stockListConfig({ staff, ownerLookup: lookup }), {
    path: '/stock',
    url,
    validateSearch: validateStockSearch,
  });

const lastUrl = (fetchMock: ReturnType<typeof stubList>) =>
  new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://x');

freshListEachTest();

describe('the stock list', () => {
  it('shows quantities with their unit, customs statuses in words and "+N more" locations', async () => {
    stubList();
    await start(true);
    const row = await screen.findByTestId('row-ABC-1-R-2026-000007');
    expect(row.textContent).toContain('1,200 pieces');
    expect(row.textContent).toContain('1,000 pieces');
    expect(row.textContent).toContain('Customs warehousing');
    expect(row.textContent).toContain('RTM1-A-01 +2 more');
    expect(row.textContent).toContain('ACME Trading');
    expect(row.textContent).not.toContain('non_union');
    const other = screen.getByTestId('row-XYZ-9-R-2026-000009');
    expect(other.textContent).toContain('1 bag');
    expect(other.textContent).toContain('0 bags');
    expect(other.textContent).toContain('Union');
    expect(other.textContent).toContain('RTM1-C-10');
    expect(other.textContent).not.toContain('more');
  });

  it('sends the URL’s filters as the API names them (unknown statuses dropped), a typed location in capitals', async () => {
    const fetchMock = stubList();
    await start(true, '/stock?sku=abc&available=true&customsStatus=union,bogus&sort=-available');
    await screen.findByTestId('row-ABC-1-R-2026-000007');
    const url = lastUrl(fetchMock);
    expect(url.pathname).toBe('/api/stock');
    expect(url.searchParams.get('sku')).toBe('abc');
    expect(url.searchParams.get('available')).toBe('true');
    expect(url.searchParams.get('customsStatus')).toBe('union');
    expect(url.searchParams.get('sort')).toBe('-available');

    const location = screen.getByTestId('filter-location');
    fireEvent.change(location, { target: { value: 'rtm1-a' } });
    fireEvent.blur(location);
    await waitFor(() => expect(lastUrl(fetchMock).searchParams.get('location')).toBe('RTM1-A'));
  });

  it('offers staff the owner filter and customers not', async () => {
    stubList();
    const { unmount } = await start(true);
    await screen.findByTestId('row-ABC-1-R-2026-000007');
    expect(screen.queryByTestId('filter-ownerId')).not.toBeNull();
    unmount();
    stubList();
    await start(false);
    await screen.findByTestId('row-ABC-1-R-2026-000007');
    expect(screen.queryByTestId('filter-ownerId')).toBeNull();
  });

  it('sends onHand (the dashboard counts goods still in the warehouse)', async () => {
    const fetchMock = stubList();
    await start(true, '/stock?onHand=true&customsStatus=union');
    await screen.findByTestId('row-ABC-1-R-2026-000007');
    expect(lastUrl(fetchMock).searchParams.get('onHand')).toBe('true');
    expect(lastUrl(fetchMock).searchParams.get('customsStatus')).toBe('union');
  });
});
