import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aDeclaration, aListItem, DOSSIER_ID } from '../test/fixtures.ts';
import { DossierDeclarations, exitConfirmedOn } from './dossier-declarations.tsx';

const exited = aListItem({
  id: '3b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
  type: 'export',
  category: 'B1',
  status: 'exited',
  lrn: 'LRN-2026-000050',
  mrn: '26NL000396000050A1',
  dutyAndVat: null,
  lastMessage: { kind: 'exit_confirmed', at: '2026-11-12T14:00:00.000Z' },
  exitedAt: '2026-11-12T14:00:00.000Z',
});

function stubApi(items = [aListItem(), exited]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if ((init?.method ?? 'GET') === 'POST')
      return jsonResponse(aDeclaration({ id: '9b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d', type: 'import' }), 201);
    void input;
    return jsonResponse({
      items,
      total: items.length,
      totalIsEstimate: false,
      page: 1,
      pageSize: 100,
      nextCursor: null,
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (staff: boolean) =>
  renderRoute(<DossierDeclarations dossier={{ id: DOSSIER_ID, number: 'D-2026-000042' }} staff={staff} />, {
    path: '/declarations',
    url: '/declarations',
  });

beforeEach(() => localStorage.clear());

describe('the dossier’s Declarations tab', () => {
  it('lists the dossier’s declarations with LRN, MRN, type, status and last message', async () => {
    const fetchMock = stubApi();
    await start(true);
    const row = await screen.findByTestId('dossier-declaration-LRN-2026-000042');
    expect(row.textContent).toContain('26NL000396000042R3');
    expect(row.textContent).toContain('Import');
    expect(within(row).getByTestId('row-status').textContent).toBe('Accepted');
    expect(row.textContent).toContain('Accepted, MRN allocated · 12 Nov 2026');
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x');
    expect(url.searchParams.get('dossierId')).toBe(DOSSIER_ID);
  });

  it('names the exit of an export as the proof for zero-rated export VAT, and only then', async () => {
    stubApi();
    await start(true);
    const proof = await screen.findByTestId('export-exit-proof');
    expect(proof.textContent).toBe('Exit confirmed on 12 Nov 2026 — proof for zero-rated export VAT');
    expect(exitConfirmedOn(aListItem())).toBeNull();
    expect(exitConfirmedOn({ ...exited, status: 'released' })).toBeNull();
  });

  it('makes a declaration of the chosen type from the dossier and opens it', async () => {
    const fetchMock = stubApi([]);
    await start(true);
    await screen.findByTestId('dossier-declarations-empty');
    expect(screen.queryByTestId('export-exit-proof')).toBeNull();
    fireEvent.click(screen.getByTestId('new-import-declaration'));
    // Its screen goes by the LRN (issue 27 item 1).
    await screen.findByText('opened LRN-2026-000042');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ type: 'import', dossierId: DOSSIER_ID });
  });

  it('offers customers no way to make one', async () => {
    stubApi();
    await start(false);
    await screen.findByTestId('dossier-declaration-LRN-2026-000042');
    expect(screen.queryByTestId('new-import-declaration')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('export-exit-proof')).toBeTruthy());
  });
});
