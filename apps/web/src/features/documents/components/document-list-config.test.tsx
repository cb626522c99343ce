import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ListPage } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { validateDocumentsSearch } from '../search.ts';
import { aDocument, DOSSIER_ID } from '../test-support.ts';
import { documentListConfig } from './document-list-config.tsx';

const dossiers: LookupSource = {
  key: ['dossiers', 'picker'],
  search: async () => [],
  byId: async (id) => ({ value: id, label: 'D-2026-000042 · Acme Trading' }),
};

const page = (items: unknown[]) => ({
  items,
  total: items.length,
  totalIsEstimate: false,
  page: 1,
  pageSize: 50,
  nextCursor: null,
});

function stubList(items: unknown[]) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    jsonResponse(page(items)),
  );
  vi.stubGlobal('fetch', fetchMock);
  const listCalls = () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://app.test'))
      .filter((url) => url.pathname === '/api/documents')
      .map((url) => Object.fromEntries(url.searchParams));
  return { fetchMock, listCalls };
}

describe('documents list', () => {
  beforeEach(() => giveElementsSize());

  it('sends the URL’s filters, order and paging to GET /api/documents as the API names them', async () => {
    const { listCalls } = stubList([
      aDocument(),
      aDocument({
        id: 'doc-2',
        fileName: 'photo.png',
        contentType: 'image/png',
        documentType: 'proof_of_delivery',
        visibleToCustomer: true,
        duplicateOf: 'doc-9',
        size: 3 * 1024 * 1024,
      }),
    ]);
    const onOpen = vi.fn();
    await renderRoute(
      <ListPage config={documentListConfig({ staff: true, dossierLookup: dossiers })} onOpen={onOpen} />,
      {
        path: '/documents',
        url: `/documents?page=2&sort=-size&type=cmr,bogus,eur1&recordType=transport&recordId=${DOSSIER_ID}&dossierId=${DOSSIER_ID}&uploadedFrom=2026-04-01&uploadedTo=2026-04-30&visibleToCustomer=true&q=BL&open=x&nope=1`,
        validateSearch: validateDocumentsSearch,
      },
    );

    const row = await screen.findByTestId('row-document-doc-2');
    expect(row.textContent).toContain('photo.png');
    expect(row.textContent).toContain('Proof of delivery');
    expect(row.textContent).toContain('D-2026-000042');
    expect(row.textContent).toContain('3 MB');
    expect(within(row).getByTestId('visible-badge')).toBeTruthy();
    expect(within(row).getByTestId('duplicate-badge')).toBeTruthy();
    expect(screen.getByTestId(`row-document-${aDocument().id}`).textContent).toContain('Internal');

    expect(listCalls()).toEqual([
      {
        page: '2',
        pageSize: '50',
        sort: '-size',
        q: 'BL',
        type: 'cmr,eur1',
        recordType: 'transport',
        dossierId: DOSSIER_ID,
        recordId: DOSSIER_ID,
        uploadedFrom: '2026-04-01',
        uploadedTo: '2026-04-30',
        visibleToCustomer: 'true',
        // The upload days are the browser's days.
        tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    ]);

    fireEvent.click(row);
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 'doc-2' }));
  });

  it('shows a record filter set by a link as a chip that removes it', async () => {
    const { listCalls } = stubList([aDocument()]);
    await renderRoute(<ListPage config={documentListConfig({ staff: true, dossierLookup: dossiers })} />, {
      path: '/documents',
      url: `/documents?recordType=transport&recordId=${DOSSIER_ID}`,
      validateSearch: validateDocumentsSearch,
    });
    const chip = await screen.findByTestId('filter-recordId');
    expect(chip.textContent).toContain(`Record: ${DOSSIER_ID.slice(0, 8)}…`);
    expect(listCalls()[0]).toMatchObject({ recordType: 'transport', recordId: DOSSIER_ID });
    fireEvent.click(within(chip).getByRole('button', { name: 'Remove the filter Record' }));
    await waitFor(() =>
      expect(listCalls().at(-1)).toEqual({ page: '1', pageSize: '50', recordType: 'transport' }),
    );
    expect(screen.queryByTestId('filter-recordId')).toBeNull();
  });

  it('shows customers neither the visibility column nor its filter', async () => {
    const { listCalls } = stubList([aDocument({ visibleToCustomer: true })]);
    await renderRoute(<ListPage config={documentListConfig({ staff: false, dossierLookup: dossiers })} />, {
      path: '/documents',
      url: '/documents?visibleToCustomer=false',
      validateSearch: validateDocumentsSearch,
    });
    await screen.findByTestId(`row-document-${aDocument().id}`);
    expect(screen.queryByTestId('header-visibleToCustomer')).toBeNull();
    expect(screen.queryByTestId('filter-visibleToCustomer')).toBeNull();
    expect(screen.getByTestId('filter-type')).toBeTruthy();
    expect(screen.getByTestId('filter-dossierId')).toBeTruthy();
    // The record filter appears only when a link set it.
    expect(screen.queryByTestId('filter-recordId')).toBeNull();
    // A filter the screen does not offer is not sent either.
    expect(listCalls()).toEqual([{ page: '1', pageSize: '50' }]);
  });

  it('offers to clear the filters when nothing matches', async () => {
    stubList([]);
    await renderRoute(<ListPage config={documentListConfig({ staff: true, dossierLookup: dossiers })} />, {
      path: '/documents',
      url: '/documents?type=cmr',
      validateSearch: validateDocumentsSearch,
    });
    expect((await screen.findByTestId('list-empty')).textContent).toContain('No documents match');
    expect(screen.getByTestId('clear-filters')).toBeTruthy();
  });
});
