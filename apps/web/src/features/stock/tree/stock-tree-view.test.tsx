import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeHubConnection } from '../../../test/fake-hub-connection.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { jsonResponse, meResponse } from '../../../test/render-route.tsx';
import { aTree } from './tree-fixtures.ts';

const STOCK_ID = '3f6c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

function stubApi(tree: { status: number; body: unknown }, cwAccess = true) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/me') return meResponse('admin', { cwAccess });
    if (url === `/api/stock/${STOCK_ID}/tree`) return jsonResponse(tree.body, tree.status);
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function open(path: string) {
  const { router } = await renderApp(path, {
    token: 'tok',
    hubConnection: new FakeHubConnection({ autoStart: true }),
  });
  return router;
}

describe('/stock/$id/tree', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('loads the record’s tree from the API and shows it with its pallets’ labels ready', async () => {
    const tree = aTree();
    tree.stock.id = STOCK_ID;
    const fetchMock = stubApi({ status: 200, body: tree });
    await open(`/stock/${STOCK_ID}/tree`);
    expect(await screen.findByTestId('hu-tree')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain(`/api/stock/${STOCK_ID}/tree`);
    expect(screen.getByTestId('stock-tree-back').getAttribute('href')).toBe(`/stock/${STOCK_ID}`);
    expect(within(screen.getByTestId('pallet-label-sheet')).getAllByTestId('pallet-label')).toHaveLength(2);
  });

  it('says the record does not exist when the API does not know it (missing or another party’s)', async () => {
    stubApi({ status: 404, body: { type: 'about:blank', title: 'Not found', status: 404 } });
    await open(`/stock/${STOCK_ID}/tree`);
    expect((await screen.findByTestId('record-not-found')).textContent).toContain(
      'This stock record does not exist',
    );
    expect(screen.queryByTestId('hu-tree')).toBeNull();
  });

  it('shows “no access” to a user without warehouse access, without asking for the tree', async () => {
    const fetchMock = stubApi({ status: 200, body: aTree() }, false);
    await open(`/stock/${STOCK_ID}/tree`);
    expect(await screen.findByTestId('no-access')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).not.toContain(`/api/stock/${STOCK_ID}/tree`);
  });
});
