import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeHubConnection } from '../../../test/fake-hub-connection.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { jsonResponse, meResponse } from '../../../test/render-route.tsx';
import { aReleasedShipment, SHIPMENT_ID } from './pick-list-fixtures.ts';
import { pickListTitle } from './pick-list-view.tsx';

const NOT_FOUND = { type: 'about:blank', title: 'Not found', status: 404 };

function stubApi(shipment: { status: number; body: unknown }, cwAccess = true) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/me') return meResponse('customer', { cwAccess });
    if (url === `/api/shipments/${SHIPMENT_ID}`) return jsonResponse(shipment.body, shipment.status);
    return jsonResponse(NOT_FOUND, 404);
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

const urls = (fetchMock: ReturnType<typeof stubApi>) => fetchMock.mock.calls.map(([url]) => url);

describe('/shipments-alt/$id', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the pick list, titled with the shipment number, and prints', async () => {
    stubApi({ status: 200, body: aReleasedShipment() });
    const print = vi.fn();
    vi.stubGlobal('print', print);
    await open(`/shipments-alt/${SHIPMENT_ID}`);
    expect(await screen.findByTestId('pick-list')).toBeTruthy();
    expect(screen.getAllByTestId('pick-row')).toHaveLength(3);
    expect(pickListTitle('S-2026-000012')).toBe('Pick list — S-2026-000012 · FVG');
    await waitFor(() => expect(document.title).toBe('Pick list — S-2026-000012 · FVG'));
    expect(screen.getByTestId('pick-list-back').getAttribute('href')).toBe('/shipments/S-2026-000012');
    fireEvent.click(screen.getByTestId('pick-list-print'));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('shows the app’s not-found page when the API does not know the shipment (missing or another party’s)', async () => {
    stubApi({ status: 404, body: NOT_FOUND });
    await open(`/shipments-alt/${SHIPMENT_ID}`);
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    // The root's page, not a message inside the shell.
    expect(screen.queryByTestId('navbar')).toBeNull();
  });

  it('shows the not-found page for an address that cannot name a shipment, without asking the API', async () => {
    const fetchMock = stubApi({ status: 200, body: aReleasedShipment() });
    await open('/shipments-alt/S-2026-000012');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(urls(fetchMock).some((u) => String(u).startsWith('/api/shipments'))).toBe(false);
  });

  it('shows an error, not the not-found page, when the load fails for another reason', async () => {
    stubApi({ status: 403, body: { type: 'about:blank', title: 'Forbidden', status: 403 } });
    await open(`/shipments-alt/${SHIPMENT_ID}`);
    expect(await screen.findByText('This shipment could not be loaded')).toBeTruthy();
    expect(screen.queryByTestId('not-found')).toBeNull();
  });

  it('shows “no access” to a user without warehouse access, without asking for the shipment', async () => {
    const fetchMock = stubApi({ status: 200, body: aReleasedShipment() }, false);
    await open(`/shipments-alt/${SHIPMENT_ID}`);
    expect(await screen.findByTestId('no-access')).toBeTruthy();
    expect(urls(fetchMock)).not.toContain(`/api/shipments/${SHIPMENT_ID}`);
  });
});
