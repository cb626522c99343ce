import type { ListResponse } from '@fvg/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { api } from '../../lib/api-client.ts';
import { withQuery } from '../../lib/query-string.ts';
import { setToken } from '../../lib/token.ts';
import { giveElementsSize, jsonResponse, renderRoute } from '../../test/render-route.tsx';
import type { RecordColumn } from './data-table.tsx';
import type { FilterDef } from './filter-bar.tsx';
import { type ListConfig, ListPage } from './list-page.tsx';
import { listSearchShape, searchEnumList, searchText, searchValidator } from './list-search.ts';

interface Thing {
  id: string;
  number: string;
  status: string;
  etd: string | null;
}

const columns: RecordColumn<Thing>[] = [
  { id: 'number', header: 'Number', sortField: 'number', required: true, cell: (t) => t.number },
  { id: 'status', header: 'Status', cell: (t) => t.status },
  { id: 'etd', header: 'ETD', sortField: 'etd', sortDescFirst: true, cell: (t) => t.etd ?? '—' },
];

const filters: FilterDef[] = [
  {
    kind: 'multiselect',
    key: 'status',
    label: 'Status',
    options: [
      { value: 'booked', label: 'Booked' },
      { value: 'in_transit', label: 'In transit' },
    ],
  },
  {
    kind: 'text',
    key: 'container',
    label: 'Container',
    normalize: (s) => s.toUpperCase().replace(/\s/g, ''),
  },
];

const config: ListConfig<Thing> = {
  id: 'things',
  path: 'things',
  label: 'Things',
  plural: 'things',
  columns,
  filters,
  defaultSort: '-etd',
  searchPlaceholder: 'Search things',
  getRowId: (t) => t.id,
  getRowTestId: (t) => `row-${t.number}`,
  rowHref: (t) => `/things/${t.number}`,
  listKey: (params) => ['things', 'list', params],
  fetchList: (params, signal) => api.get<ListResponse<Thing>>(withQuery('things', params), { signal }),
};

const validateSearch = searchValidator(
  z.object({
    ...listSearchShape(['number', 'etd']),
    status: searchEnumList(['booked', 'in_transit']),
    container: searchText(11),
  }),
);

const things = (n: number, from = 1): Thing[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `id-${from + i}`,
    number: `T-${from + i}`,
    status: 'booked',
    etd: '2026-05-01',
  }));

const page = (items: Thing[], total = items.length, extra: Partial<ListResponse<Thing>> = {}) => ({
  items,
  total,
  totalIsEstimate: false,
  page: 1,
  pageSize: 50,
  nextCursor: null,
  ...extra,
});

function stubList(answer: (url: URL) => Response | Promise<Response>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) =>
    answer(new URL(String(input), 'http://app.test')),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The query of each list request, as a plain object. */
const requests = (fetchMock: ReturnType<typeof stubList>) =>
  fetchMock.mock.calls.map(([input]) => {
    const url = new URL(String(input), 'http://app.test');
    return { path: url.pathname, ...Object.fromEntries(url.searchParams) };
  });

const start = (url: string) =>
  renderRoute(<ListPage config={config} />, { path: '/things', url, validateSearch });

describe('ListPage', () => {
  beforeEach(() => giveElementsSize());

  it('sends the URL state (page, sort, search, filters) with the request and drops unknown parameters', async () => {
    const fetchMock = stubList(() => jsonResponse(page(things(3))));
    await start(
      '/things?page=3&sort=-etd,number&status=booked,in_transit,bogus&container=MSKU6011672&q=abc&x=1',
    );

    await screen.findByTestId('row-T-1');
    expect(requests(fetchMock)).toEqual([
      {
        path: '/api/things',
        page: '3',
        pageSize: '50',
        sort: '-etd,number',
        q: 'abc',
        status: 'booked,in_transit',
        container: 'MSKU6011672',
      },
    ]);
    expect(screen.getByTestId('header-etd').getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByTestId('header-number').getAttribute('aria-sort')).toBe('ascending');
    expect((screen.getByTestId('list-search') as HTMLInputElement).value).toBe('abc');
  });

  it('sorts by a header click, adds a column on shift-click, and starts again at page 1', async () => {
    const fetchMock = stubList(() => jsonResponse(page(things(3))));
    const { router } = await start('/things?page=2');
    await screen.findByTestId('row-T-1');
    // The default order shows in the header without being in the URL.
    expect(screen.getByTestId('header-etd').getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(screen.getByTestId('sort-number'));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'number' }));
    await waitFor(() => expect(requests(fetchMock).at(-1)).toMatchObject({ sort: 'number', page: '1' }));

    fireEvent.click(screen.getByTestId('sort-etd'), { shiftKey: true });
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: 'number,-etd' }));
    await waitFor(() => expect(requests(fetchMock).at(-1)).toMatchObject({ sort: 'number,-etd' }));

    // A plain click starts a new order with that column alone.
    fireEvent.click(screen.getByTestId('sort-number'));
    await waitFor(() => expect(router.state.location.search).toEqual({ sort: '-number' }));
  });

  it('puts filters and the (debounced) search text into the URL and the request', async () => {
    const fetchMock = stubList(() => jsonResponse(page(things(2))));
    const { router } = await start('/things?page=4');
    await screen.findByTestId('row-T-1');

    const container = screen.getByTestId('filter-container');
    fireEvent.change(container, { target: { value: 'msku 6011672' } });
    fireEvent.keyDown(container, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.search).toEqual({ container: 'MSKU6011672' }));

    fireEvent.change(screen.getByTestId('list-search'), { target: { value: 'acme' } });
    // Nothing is sent per keystroke: the search waits for the user to pause.
    expect(router.state.location.search).toEqual({ container: 'MSKU6011672' });
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ container: 'MSKU6011672', q: 'acme' }),
    );
    await waitFor(() =>
      expect(requests(fetchMock).at(-1)).toMatchObject({ page: '1', q: 'acme', container: 'MSKU6011672' }),
    );
  });

  it('pages with the paging control and shows the total, "about" when estimated', async () => {
    const fetchMock = stubList((url) =>
      url.searchParams.get('page') === '2'
        ? jsonResponse(page(things(50, 51), 12_345, { totalIsEstimate: true, page: 2 }))
        : jsonResponse(page(things(50), 120)),
    );
    const { router } = await start('/things');
    await screen.findByTestId('row-T-1');
    expect(screen.getByTestId('paging-total').textContent).toBe('1–50 of 120');

    fireEvent.click(screen.getByTestId('paging-next'));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2 }));
    await screen.findByTestId('row-T-51');
    expect(screen.getByTestId('paging-total').textContent).toBe('51–100 of about 12,345');
    expect(requests(fetchMock).at(-1)).toMatchObject({ page: '2', pageSize: '50' });
  });

  it('shows an empty state that clears the filters', async () => {
    const fetchMock = stubList((url) =>
      url.searchParams.has('status') ? jsonResponse(page([])) : jsonResponse(page(things(1))),
    );
    const { router } = await start('/things?status=in_transit&q=zzz');
    const empty = await screen.findByTestId('list-empty');
    expect(within(empty).getByText('No things match')).toBeTruthy();

    fireEvent.click(screen.getByTestId('clear-filters'));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    await screen.findByTestId('row-T-1');
    expect(requests(fetchMock).at(-1)).toEqual({ path: '/api/things', page: '1', pageSize: '50' });
  });

  it('says there is nothing yet, without a clear button, when no filter is set', async () => {
    stubList(() => jsonResponse(page([])));
    await start('/things');
    const empty = await screen.findByTestId('list-empty');
    expect(within(empty).getByText('No things yet')).toBeTruthy();
    expect(screen.queryByTestId('clear-filters')).toBeNull();
  });

  it('shows the server problem and loads again on retry', async () => {
    let calls = 0;
    stubList(() => {
      calls += 1;
      return calls === 1
        ? jsonResponse(
            {
              type: 'about:blank',
              title: 'Service unavailable',
              status: 503,
              detail: 'The database is busy',
            },
            503,
          )
        : jsonResponse(page(things(2)));
    });
    await start('/things');
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The database is busy');
    expect(screen.queryByTestId('data-table')).toBeNull();

    fireEvent.click(within(error).getByText('Try again'));
    await screen.findByTestId('row-T-2');
    expect(screen.queryByTestId('error-state')).toBeNull();
  });

  it('moves a focused row with the arrow keys and opens it with Enter', async () => {
    stubList(() => jsonResponse(page(things(3))));
    const { router } = await start('/things');
    await screen.findByTestId('row-T-3');
    const grid = screen.getByTestId('data-table');
    const selected = () =>
      screen.getAllByRole('row').filter((r) => r.getAttribute('aria-selected') === 'true');

    grid.focus();
    expect(selected()).toHaveLength(0);
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    expect(selected().map((r) => r.dataset.testid)).toEqual(['row-T-2']);
    expect(grid.getAttribute('aria-activedescendant')).toBe(screen.getByTestId('row-T-2').id);
    fireEvent.keyDown(grid, { key: 'ArrowUp' });
    fireEvent.keyDown(grid, { key: 'ArrowUp' });
    expect(selected().map((r) => r.dataset.testid)).toEqual(['row-T-1']);
    fireEvent.keyDown(grid, { key: 'End' });
    expect(selected().map((r) => r.dataset.testid)).toEqual(['row-T-3']);

    fireEvent.keyDown(grid, { key: 'Enter' });
    expect((await screen.findByTestId('opened')).textContent).toBe('opened T-3');
    expect(router.state.location.pathname).toBe('/things/T-3');
  });

  it('exports the filtered list (all pages) with the bearer token and hands the file to the browser', async () => {
    setToken('tok-1');
    const fetchMock = stubList((url) =>
      url.searchParams.get('format') === 'csv'
        ? new Response('Number\r\nT-1\r\n', {
            status: 200,
            headers: {
              'content-type': 'text/csv',
              'content-disposition': 'attachment; filename="things-2026.csv"',
            },
          })
        : jsonResponse(page(things(2))),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:things');
    const revokeObjectURL = vi.fn();
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    onTestFinished(() => {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    });
    const downloads: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(`${this.download} ${this.href}`);
    });

    await start('/things?sort=number&status=booked&page=2&q=abc');
    await screen.findByTestId('row-T-1');
    fireEvent.click(screen.getByTestId('export-menu'));
    fireEvent.click(await screen.findByTestId('export-csv'));

    await waitFor(() => expect(downloads).toEqual(['things-2026.csv blob:things']));
    const [input, init] = fetchMock.mock.calls.at(-1) as [string, RequestInit];
    // The list's filters and order, no paging, and how the user reads dates (the test's zone is UTC).
    expect(input).toBe(
      '/api/things?sort=number&q=abc&status=booked&format=csv&tz=UTC&dateFormat=D+MMM+YYYY&timeFormat=HH%3Amm',
    );
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
    const blob = createObjectURL.mock.calls[0]?.[0] as Blob;
    expect(await blob.text()).toBe('Number\r\nT-1\r\n');
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:things');
  });
});
