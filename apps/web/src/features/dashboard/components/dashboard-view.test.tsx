import type { DashboardCard, DashboardCardName } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetDisplayPreferences, setDisplayPreferences } from '../../../lib/display-preferences.ts';
import { connectLiveUpdates } from '../../../lib/live-updates.ts';
import { setNumberFormat } from '../../../lib/number-format.ts';
import { fakeHub } from '../../../test/fake-hub-connection.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { CARD_REFRESH_THROTTLE_MS } from '../api/keys.ts';
import { DashboardView } from './dashboard-view.tsx';

const TZ = 'Pacific/Auckland';
const AS_OF = '2026-11-24T09:00:00.000Z';

const link = (route: string, search: Record<string, string> = {}) => ({ route, params: {}, search });

function aCard(card: DashboardCardName, over: Partial<DashboardCard> = {}): DashboardCard {
  return {
    card,
    asOf: AS_OF,
    live: true,
    period: null,
    figures: [],
    series: [],
    seriesCurrency: null,
    ...over,
  };
}

const CARDS: Partial<Record<DashboardCardName, DashboardCard>> = {
  dossiers: aCard('dossiers', {
    figures: [
      { key: 'open', value: 1234, currency: null, link: link('dossiers', { status: 'booked,in_transit' }) },
    ],
    series: [
      { key: 'booked', value: 1200, link: link('dossiers', { status: 'booked' }) },
      { key: 'in_transit', value: 34, link: link('dossiers', { status: 'in_transit' }) },
      { key: 'on_hold_for_audit', value: 2, link: null },
      { key: 'arrived', value: 0, link: link('dossiers', { status: 'arrived' }) },
    ],
  }),
  invoices: aCard('invoices', {
    live: false,
    asOf: '2026-11-20T08:30:00.000Z',
    figures: [
      { key: 'overdue', value: 3, currency: null, link: link('sales-invoices', { overdue: '1' }) },
      { key: 'overdueAmount', value: '12345.5', currency: 'EUR', link: null },
    ],
  }),
  'container-events': aCard('container-events'),
  revenue: aCard('revenue', {
    period: { from: '2026-11-01', to: '2026-11-30', timeZone: TZ },
    figures: [{ key: 'revenue', value: '1224.00', currency: 'USD', link: null }],
    series: [
      {
        key: '2026-11-01',
        value: '0.00',
        link: link('sales-invoices', { issuedFrom: '2026-11-01', issuedTo: '2026-11-01' }),
      },
      {
        key: '2026-11-02',
        value: '1224.00',
        link: link('sales-invoices', { issuedFrom: '2026-11-02', issuedTo: '2026-11-08' }),
      },
    ],
    seriesCurrency: 'USD',
  }),
};

let answers: Map<string, () => Response>;
let fetchMock: ReturnType<typeof vi.fn>;

function stubApi(cards: DashboardCardName[]) {
  answers = new Map([['dashboard', () => jsonResponse({ cards })]]);
  for (const card of cards) answers.set(`dashboard/${card}`, () => jsonResponse(CARDS[card] ?? aCard(card)));
  fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const answer = answers.get(url.pathname.replace(/^\/api\//, ''));
    return answer ? answer() : jsonResponse({ status: 404, title: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
}

const cardCalls = (card: DashboardCardName) =>
  fetchMock.mock.calls.filter(([u]) =>
    new URL(String(u), 'http://localhost').pathname.endsWith(`/dashboard/${card}`),
  );

const start = () => renderRoute(<DashboardView />, { path: '/dashboard', url: '/dashboard' });

beforeEach(() => setDisplayPreferences({ timeZone: TZ }));
afterEach(() => {
  resetDisplayPreferences();
  setNumberFormat(null);
  vi.useRealTimers();
});

describe('DashboardView', () => {
  it('shows the cards the index names, each loaded on its own in the user’s zone', async () => {
    stubApi(['dossiers', 'invoices', 'container-events']);
    await start();
    const dossiers = await screen.findByTestId('dashboard-card-dossiers');
    expect(within(dossiers).getByRole('heading', { name: 'Open dossiers' })).toBeTruthy();
    expect(await screen.findByTestId('dashboard-card-invoices')).toBeTruthy();
    for (const card of ['dossiers', 'invoices', 'container-events'] as const) {
      expect(cardCalls(card)).toHaveLength(1);
      expect(new URL(String(cardCalls(card)[0]?.[0]), 'http://localhost').searchParams.get('tz')).toBe(TZ);
    }
    expect(screen.queryByTestId('dashboard-card-stock')).toBeNull();
  });

  it('words figures and bars (areas’ status labels, unknown codes in words) and links them to the filtered list', async () => {
    setNumberFormat({ decimal: ',', thousands: '.' });
    stubApi(['dossiers', 'invoices']);
    await start();
    const dossiers = await screen.findByTestId('dashboard-card-dossiers');
    const open = await within(dossiers).findByTestId('figure-open');
    expect(within(open).getByTestId('figure-value').textContent).toBe('1.234');
    expect(within(open).getByText('Open')).toBeTruthy();
    expect(within(open).getByRole('link').getAttribute('href')).toBe('/dossiers?status=booked%2Cin_transit');

    const inTransit = within(dossiers).getByTestId('point-in_transit');
    expect(inTransit.textContent).toContain('In transit');
    expect(within(inTransit).getByRole('link').getAttribute('href')).toBe('/dossiers?status=in_transit');
    // A status the web has no words for still reads as words, and has no link when the API gave none.
    const unknown = within(dossiers).getByTestId('point-on_hold_for_audit');
    expect(unknown.textContent).toContain('On hold for audit');
    expect(within(unknown).queryByRole('link')).toBeNull();
    // A status nobody is in takes no room.
    expect(within(dossiers).queryByTestId('point-arrived')).toBeNull();

    const invoices = await screen.findByTestId('dashboard-card-invoices');
    const amount = await within(invoices).findByTestId('figure-overdueAmount');
    expect(within(amount).getByTestId('figure-value').textContent).toBe('€12.345,50');
    expect(within(amount).queryByRole('link')).toBeNull();
    // Pre-aggregated figures say when they were counted, in the user's zone (Auckland: 21:30).
    expect(within(invoices).getByTestId('card-as-of').textContent).toBe('As of 20 Nov 2026, 21:30');
    expect(within(dossiers).queryByTestId('card-as-of')).toBeNull();
  });

  it('revenue by week: every week kept (an empty one too), named by its first day, amounts in the series currency', async () => {
    stubApi(['revenue']);
    await start();
    const card = await screen.findByTestId('dashboard-card-revenue');
    const week = await within(card).findByTestId('point-2026-11-02');
    expect(week.textContent).toBe('2 Nov $1,224.00');
    expect(
      within(week).getByRole('link', { name: '2 Nov $1,224.00, Week of 2 Nov' }).getAttribute('href'),
    ).toBe('/sales-invoices?issuedFrom=2026-11-02&issuedTo=2026-11-08');
    expect(within(card).getByTestId('point-2026-11-01').textContent).toBe('1 Nov $0.00');
    expect(within(card).getByTestId('card-chart')).toBeTruthy();
  });

  it('a figure opens its list, filtered as the link says', async () => {
    stubApi(['dossiers']);
    const { router } = await start();
    const open = await screen.findByTestId('figure-open');
    fireEvent.click(within(open).getByRole('link'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dossiers'));
    expect(router.state.location.search).toEqual({ status: 'booked,in_transit' });
  });

  it('an empty card says so instead of a chart of zeros', async () => {
    stubApi(['container-events']);
    await start();
    const card = await screen.findByTestId('dashboard-card-container-events');
    expect((await within(card).findByTestId('card-empty')).textContent).toBe(
      'No container events in the last 24 hours.',
    );
    expect(within(card).queryByTestId('card-chart')).toBeNull();
  });

  it('a card that fails shows its error with a retry, the others their figures', async () => {
    stubApi(['dossiers', 'invoices']);
    answers.set('dashboard/invoices', () =>
      jsonResponse(
        { type: 'about:blank', title: 'Server error', status: 500, detail: 'The count failed.' },
        500,
      ),
    );
    await start();
    const invoices = await screen.findByTestId('dashboard-card-invoices');
    const error = await within(invoices).findByTestId('error-state');
    expect(error.textContent).toContain('This card could not be loaded');
    expect(error.textContent).toContain('The count failed.');
    expect(
      await within(screen.getByTestId('dashboard-card-dossiers')).findByTestId('figure-open'),
    ).toBeTruthy();

    answers.set('dashboard/invoices', () => jsonResponse(CARDS.invoices));
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await within(invoices).findByTestId('figure-overdue')).toBeTruthy();
    expect(cardCalls('dossiers')).toHaveLength(1); // the retry is the card's own
  });

  it('shows a skeleton while a card loads', async () => {
    stubApi(['dossiers']);
    let release: (r: Response) => void = () => {};
    answers.set('dashboard/dossiers', () => new Promise<Response>((r) => (release = r)) as never);
    await start();
    const card = await screen.findByTestId('dashboard-card-dossiers');
    expect(within(card).getByTestId('card-loading')).toBeTruthy();
    release(jsonResponse(CARDS.dossiers));
    expect(await within(card).findByTestId('figure-open')).toBeTruthy();
    expect(within(card).queryByTestId('card-loading')).toBeNull();
  });

  it('refreshes a card when the hub announces a change of its kind, a burst once more at the end of the window', async () => {
    stubApi(['dossiers', 'invoices']);
    const { hub, connection } = fakeHub({ autoStart: true });
    await hub.start();
    const { queryClient } = await start();
    await screen.findByTestId('figure-open');
    await screen.findByTestId('figure-overdue');
    vi.useFakeTimers();
    const disconnect = connectLiveUpdates(hub, queryClient);

    connection.emit('RecordChanged', { kind: 'dossier', id: 'd1', action: 'updated' });
    await vi.advanceTimersByTimeAsync(100);
    expect(cardCalls('dossiers')).toHaveLength(2);
    expect(cardCalls('invoices')).toHaveLength(1); // another card's kind: untouched

    for (let i = 0; i < 10; i++) {
      connection.emit('RecordChanged', { kind: 'dossier', id: `d${i}`, action: 'updated' });
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(cardCalls('dossiers')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(CARD_REFRESH_THROTTLE_MS);
    expect(cardCalls('dossiers')).toHaveLength(3);

    connection.emit('RecordChanged', { kind: 'sales-invoice', id: 'i1', action: 'created' });
    await vi.advanceTimersByTimeAsync(100);
    expect(cardCalls('invoices')).toHaveLength(2);
    disconnect();
  });

  it('explains an empty dashboard', async () => {
    stubApi([]);
    await start();
    expect((await screen.findByTestId('dashboard-empty')).textContent).toBe(
      'Nothing to show on your dashboard yet.',
    );
  });

  it('a failed index offers a retry', async () => {
    stubApi(['dossiers']);
    const index = answers.get('dashboard');
    answers.set('dashboard', () =>
      jsonResponse({ type: 'about:blank', title: 'Unavailable', status: 503 }, 503),
    );
    await start();
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The dashboard could not be loaded');
    if (index) answers.set('dashboard', index);
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('dashboard-card-dossiers')).toBeTruthy();
  });
});
