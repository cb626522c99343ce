import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aDocument, DOSSIER_ID } from '../test-support.ts';
import { DossierDocuments, RecordDocuments } from './dossier-documents.tsx';

const doc = aDocument({
  contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  fileName: 'invoice.docx',
});

function stubApi(items: unknown[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://app.test');
    if (url.pathname === `/api/dossiers/${DOSSIER_ID}/documents`)
      return jsonResponse({
        items,
        total: items.length,
        totalIsEstimate: false,
        page: 1,
        pageSize: 200,
        nextCursor: null,
      });
    if (url.pathname === `/api/documents/${doc.id}`) return jsonResponse(doc);
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (staff: boolean) =>
  renderRoute(<DossierDocuments dossierId={DOSSIER_ID} staff={staff} />, {
    path: '/dossiers/D-2026-000042',
    url: '/dossiers/D-2026-000042?tab=documents',
  });

describe('DossierDocuments', () => {
  beforeEach(() => giveElementsSize());

  it('lists the dossier’s documents under the upload zone (staff) and opens one in a dialog', async () => {
    const fetchMock = stubApi([doc]);
    await start(true);
    expect(screen.getByTestId('document-upload')).toBeTruthy();
    const row = await screen.findByTestId(`row-document-${doc.id}`);
    expect(row.textContent).toContain('invoice.docx');
    expect(screen.getByTestId('dossier-documents-count').textContent).toBe('1 document');
    const list = fetchMock.mock.calls.map(([u]) => String(u)).find((u) => u.includes('/documents?'));
    expect(list).toBe(`/api/dossiers/${DOSSIER_ID}/documents?page=1&pageSize=200&sort=-uploadedAt`);

    fireEvent.click(row);
    expect(await screen.findByTestId('document-detail')).toBeTruthy();
    expect(await screen.findByTestId('preview-none')).toBeTruthy();
  });

  it('gives customers the list without an upload zone, and says when there is nothing yet', async () => {
    stubApi([]);
    await start(false);
    expect((await screen.findByTestId('dossier-documents-empty')).textContent).toContain('No documents yet');
    expect(screen.queryByTestId('document-upload')).toBeNull();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL) =>
      jsonResponse(
        { type: 'about:blank', title: 'Internal server error', status: 500, detail: 'Boom.' },
        500,
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await start(true);
    expect((await screen.findByTestId('error-state')).textContent).toContain('Boom.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    // The list is asked again (the upload zone's limits request is another one).
    const listCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/dossiers/')).length;
    await waitFor(() => expect(listCalls()).toBe(2));
  });

  it('lists a transport leg’s documents through the documents list filtered to the leg', async () => {
    const legId = '6f1e2d3c-4b5a-4968-8776-655443322110';
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://app.test');
      if (url.pathname === '/api/documents')
        return jsonResponse({
          items: [doc],
          total: 1,
          totalIsEstimate: false,
          page: 1,
          pageSize: 200,
          nextCursor: null,
        });
      return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    await renderRoute(<RecordDocuments recordType="transport" recordId={legId} staff={false} />, {
      path: '/transports',
      url: `/transports?open=${legId}`,
    });
    expect(await screen.findByTestId(`row-document-${doc.id}`)).toBeTruthy();
    expect(screen.getByTestId('transport-documents-count').textContent).toBe('1 document');
    const list = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://app.test');
    expect(Object.fromEntries(list.searchParams)).toEqual({
      page: '1',
      pageSize: '200',
      sort: '-uploadedAt',
      recordType: 'transport',
      recordId: legId,
    });
  });
});
