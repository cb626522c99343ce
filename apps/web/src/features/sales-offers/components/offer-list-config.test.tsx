import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { freshListEachTest, renderList, stubListPage } from '../../../test/list.tsx';
import { validateSalesOffersSearch } from '../search.ts';
import { ACME, anOffer } from '../test-support.ts';
import { offerListConfig } from './offer-list-config.tsx';

const customers: LookupSource = { key: ['customers'], search: async () => [], byId: async () => null };

const accepted = anOffer({
  status: 'accepted',
  dossier: { id: 'd1', number: 'D-2026-000101' },
  totals: [
    { currency: 'EUR', net: '2635.50', vat: '0.00', gross: '2635.50' },
    { currency: 'USD', net: '1200.00', vat: '252.00', gross: '1452.00' },
  ],
  allowedTransitions: [],
});

const stubList = () => stubListPage([accepted]);

const listQueries = (fetchMock: ReturnType<typeof stubList>) =>
  fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://app.test'))
    .filter((url) => url.pathname === '/api/sales-offers')
    .map((url) => Object.fromEntries(url.searchParams));

describe('sales offers list', () => {
  freshListEachTest();

  it('shows number, customer, status, valid until, route, mode, totals per currency and the dossier', async () => {
    stubList();
    await renderList(offerListConfig({ staff: true, customerLookup: customers }), {
      path: '/sales-offers',
      url: '/sales-offers',
      validateSearch: validateSalesOffersSearch,
    });
    const row = await screen.findByTestId('row-O-2026-000007');
    const number = within(row).getByRole('link', { name: 'O-2026-000007' });
    expect(number.getAttribute('href')).toBe(`/sales-offers?open=${accepted.id}`);
    expect(row.textContent).toContain(ACME.name);
    expect(within(row).getByTestId('row-status').textContent).toBe('Accepted');
    expect(row.textContent).toContain('24 Dec 2099');
    expect(row.textContent).toContain('CNSHA → NLRTM');
    expect(row.textContent).toContain('Sea');
    // Gross per currency, each in its own format.
    expect(row.textContent).toContain('€2,635.50');
    expect(row.textContent).toContain('$1,452.00');
    const dossier = within(row).getByRole('link', { name: 'D-2026-000101' });
    expect(dossier.getAttribute('href')).toBe('/dossiers/D-2026-000101');
    // Nothing raw: no enum names, no ISO dates.
    expect(row.textContent).not.toMatch(/accepted|2099-12-24|sea\b/);
  });

  it('sends the URL’s filters, order and paging to GET /api/sales-offers as the API names them', async () => {
    const fetchMock = stubList();
    await renderList(offerListConfig({ staff: true, customerLookup: customers }), {
      path: '/sales-offers',
      url: `/sales-offers?page=2&sort=-validUntil&status=sent,accepted,bogus&mode=air&customerId=${ACME.id}&validFrom=2026-12-01&validTo=2026-12-31&q=O-2026&open=x&nope=1`,
      validateSearch: validateSalesOffersSearch,
    });
    await screen.findByTestId('row-O-2026-000007');
    expect(listQueries(fetchMock)).toEqual([
      {
        page: '2',
        pageSize: '50',
        sort: '-validUntil',
        q: 'O-2026',
        status: 'sent,accepted',
        customerId: ACME.id,
        validFrom: '2026-12-01',
        validTo: '2026-12-31',
        mode: 'air',
      },
    ]);
    expect(screen.getByTestId('filter-valid')).toBeTruthy();
  });

  it('gives customers no customer filter and no draft status to pick', () => {
    const staff = offerListConfig({ staff: true, customerLookup: customers });
    const customer = offerListConfig({ staff: false, customerLookup: customers });
    expect(staff.filters?.map((f) => f.label)).toEqual(['Status', 'Customer', 'Valid until', 'Mode']);
    expect(customer.filters?.map((f) => f.label)).toEqual(['Status', 'Valid until', 'Mode']);
    const statuses = (config: typeof staff) => {
      const filter = config.filters?.find((f) => f.kind === 'multiselect');
      return filter?.kind === 'multiselect' ? filter.options.map((o) => o.value) : [];
    };
    expect(statuses(staff)).toContain('draft');
    expect(statuses(customer)).toEqual(['sent', 'accepted', 'rejected', 'expired', 'cancelled']);
  });
});
