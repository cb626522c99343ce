import type { Document } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aDocument } from '../test-support.ts';
import { DocumentDetail } from './document-detail.tsx';

const xlsx = aDocument({
  id: 'doc-x',
  fileName: 'packing list.xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  documentType: 'packing_list',
  version: 3,
});
const png = aDocument({ id: 'doc-p', fileName: 'seal.png', contentType: 'image/png', version: 1 });

/** The documents API for one document: detail, PATCH, DELETE, content and history. */
function stubApi(start: Document) {
  let current = start;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const method = init?.method ?? 'GET';
    if (url.pathname.endsWith('/content')) {
      return new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: current.contentType }), {
        status: 200,
        headers: { 'content-type': current.contentType },
      });
    }
    if (url.pathname.endsWith('/history')) return jsonResponse([]);
    if (method === 'PATCH') {
      const body = JSON.parse(String(init?.body)) as Partial<Document> & { version: number };
      if (body.version !== current.version)
        return jsonResponse(
          { type: 'about:blank', title: 'Conflict', status: 409, detail: 'Changed by someone else.' },
          409,
        );
      current = { ...current, ...body, version: current.version + 1 };
      return jsonResponse(current);
    }
    if (method === 'DELETE') return new Response(null, { status: 204 });
    return jsonResponse(current);
  });
  vi.stubGlobal('fetch', fetchMock);
  const calls = (method: string) =>
    fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method) as [string, RequestInit][];
  return { fetchMock, calls };
}

async function start(document: Document, staff: boolean, editing = false) {
  const onEdit = vi.fn();
  const onDeleted = vi.fn();
  const view = await renderRoute(
    <DocumentDetail id={document.id} staff={staff} editing={editing} onEdit={onEdit} onDeleted={onDeleted} />,
    { path: '/documents', url: '/documents' },
  );
  return { view, onEdit, onDeleted };
}

describe('DocumentDetail', () => {
  const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
  const createObjectURL = vi.fn((_blob: Blob) => 'blob:preview-1');
  const revokeObjectURL = vi.fn();
  beforeEach(() => {
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
    createObjectURL.mockClear();
    revokeObjectURL.mockClear();
  });
  afterEach(() => {
    URL.createObjectURL = original.create;
    URL.revokeObjectURL = original.revoke;
  });

  it('offers a download instead of a preview for types a browser cannot show, and fetches no content', async () => {
    const { fetchMock } = stubApi(xlsx);
    await start(xlsx, false);
    const none = await screen.findByTestId('preview-none');
    expect(none.textContent).toContain('No preview for this type');
    expect(none.textContent).toContain('Excel workbook');
    expect(within(none).getByRole('button', { name: /Download packing list.xlsx/ })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/content'))).toBe(false);
    // Customers read: no edit, no delete.
    expect(screen.queryByTestId('edit-document')).toBeNull();
    expect(screen.queryByTestId('delete-document')).toBeNull();
    expect(screen.getByTestId('document-download')).toBeTruthy();
  });

  it('shows an image through an object URL of the bytes read with the token, and revokes it when closed', async () => {
    const { fetchMock } = stubApi(png);
    const { view } = await start(png, true);
    const img = (await screen.findByTestId('image-preview')) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('blob:preview-1');
    expect(img.getAttribute('alt')).toBe('seal.png');
    const content = fetchMock.mock.calls.find(([u]) => String(u).includes('/content'));
    expect(String(content?.[0])).toBe('/api/documents/doc-p/content?inline=1');
    view.unmount();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
  });

  it('shows the server’s reason when the file is gone from storage (410), with the record still there', async () => {
    const gone = {
      type: 'about:blank',
      title: 'Gone',
      status: 410,
      detail: 'The file of “seal.png” is missing from storage.',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).includes('/content') ? jsonResponse(gone, 410) : jsonResponse(png),
      ),
    );
    await start(png, true);
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The preview could not be loaded');
    expect(error.textContent).toContain('missing from storage');
    expect(screen.getByTestId('document-name').textContent).toBe('seal.png');
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it('lets staff change the type and visibility, sending only what changed with the version read', async () => {
    const { calls } = stubApi(xlsx);
    const { onEdit } = await start(xlsx, true, true);
    const visible = await screen.findByTestId('field-visibleToCustomer');
    fireEvent.click(visible);
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(onEdit).toHaveBeenCalledWith(false));
    const [url, init] = calls('PATCH')[0] as [string, RequestInit];
    expect(url).toBe('/api/documents/doc-x');
    expect(JSON.parse(String(init.body))).toEqual({ visibleToCustomer: true, version: 3 });
  });

  it('asks before deleting, then deletes and closes', async () => {
    const { calls } = stubApi(xlsx);
    const { onDeleted } = await start(xlsx, true);
    fireEvent.click(await screen.findByTestId('delete-document'));
    const dialog = await screen.findByRole('dialog');
    expect(calls('DELETE')).toHaveLength(0);
    expect(dialog.textContent).toContain('“packing list.xlsx” and its file are removed for good.');
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(calls('DELETE')[0]?.[0]).toBe('/api/documents/doc-x');
  });

  it('says so when the document is gone', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          { type: 'about:blank', title: 'Not found', status: 404, detail: 'This document does not exist.' },
          404,
        ),
      ),
    );
    await start(xlsx, true);
    const missing = await screen.findByTestId('record-not-found');
    expect(missing.textContent).toContain('This document does not exist');
    // Nothing to try again: the record is not there.
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
