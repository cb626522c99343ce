import type { RowData } from '@tanstack/react-table';
import { beforeEach, vi } from 'vitest';
import { type ListConfig, ListPage } from '../components/records/list-page.tsx';
import type { LookupSource } from '../components/records/record-select.tsx';
import { giveElementsSize, jsonResponse, type RenderRouteOptions, renderRoute } from './render-route.tsx';

/*
 * The setup every list test of an area shares: a fetch stub answering one page of rows, the list
 * rendered on its route with the area's URL validator, and a clean slate of remembered columns.
 */

/** A lookup that finds nothing: the filters a test does not pick from. */
export const emptyLookup: LookupSource = { key: ['lookup'], search: async () => [], byId: async () => null };

/** Stubs fetch: every call answers one page holding these rows. Returns the mock, to read what was asked. */
export function stubListPage(items: readonly unknown[]) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    jsonResponse({
      items,
      total: items.length,
      totalIsEstimate: false,
      page: 1,
      pageSize: 50,
      nextCursor: null,
    }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The area's list (ListPage with its config) on its route, at a URL (the route's path by default). */
export function renderList<T extends RowData>(
  config: ListConfig<T>,
  { path, url = path, validateSearch }: Omit<RenderRouteOptions, 'url'> & { url?: string },
) {
  return renderRoute(<ListPage config={config} />, {
    path,
    url,
    ...(validateSearch ? { validateSearch } : {}),
  });
}

/** Before each test: no remembered column choice, and sized elements so the virtual rows render. */
export function freshListEachTest() {
  beforeEach(() => {
    localStorage.clear();
    giveElementsSize();
  });
}
