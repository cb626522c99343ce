import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { jsonResponse } from '../../../test/render-route.tsx';
import { documentKeys } from '../api/keys.ts';
import { aDocument, DOSSIER_ID, FakeXhr, NOT_ACCEPTED, TOO_LARGE } from '../test-support.ts';
import { DocumentUpload } from './document-upload.tsx';
import { resetUploadQueues } from './upload-queues.ts';

const pdf = (name: string) => new File(['%PDF-1.4 some bytes'], name, { type: 'application/pdf' });

function chooseType(label: string) {
  fireEvent.click(screen.getByTestId('upload-document-type'));
  // The dropdown is still in its opening transition in jsdom, hence `hidden`.
  fireEvent.click(screen.getByRole('option', { name: label, hidden: true }));
}

/** What the file picker (or a drop) hands over. */
function pickFiles(files: File[]) {
  const input = screen.getByLabelText('Files to upload') as HTMLInputElement;
  fireEvent.change(input, { target: { files } });
}

const items = () => screen.queryAllByTestId('upload-item');
const itemOf = (name: string) => {
  const item = items().find((el) => within(el).getByTestId('upload-name').textContent === name);
  if (!item) throw new Error(`no upload item ${name}`);
  return item;
};

describe('DocumentUpload', () => {
  beforeEach(() => {
    resetUploadQueues();
    FakeXhr.install(vi.stubGlobal);
  });

  it('asks for the document type before files can be chosen', () => {
    renderWithProviders(<DocumentUpload recordType="dossier" recordId={DOSSIER_ID} />);
    expect(screen.getByTestId('upload-choose').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('document-dropzone').textContent).toContain('Choose the document type first');
    chooseType('Bill of lading');
    expect(screen.getByTestId('upload-choose').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('document-dropzone').textContent).toContain('Drop files here');
  });

  it('uploads each file with its own progress bar; cancel aborts that request only', async () => {
    const { queryClient } = renderWithProviders(
      <DocumentUpload recordType="dossier" recordId={DOSSIER_ID} />,
    );
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    chooseType('CMR');
    fireEvent.click(screen.getByTestId('upload-visible'));
    pickFiles([pdf('one.pdf'), pdf('two.pdf')]);

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    const [one, two] = FakeXhr.sent as [FakeXhr, FakeXhr];
    const fields = one.body as FormData;
    expect(fields.get('documentType')).toBe('cmr');
    expect(fields.get('visibleToCustomer')).toBe('true');
    expect(fields.get('recordId')).toBe(DOSSIER_ID);

    act(() => one.progress(300, 600));
    const bar = within(itemOf('one.pdf')).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(within(itemOf('one.pdf')).getByTestId('upload-percent').textContent).toBe('50%');

    fireEvent.click(within(itemOf('two.pdf')).getByTestId('upload-cancel'));
    expect(two.aborted).toBe(true);
    expect(one.aborted).toBe(false);
    await waitFor(() => expect(itemOf('two.pdf').getAttribute('data-status')).toBe('cancelled'));
    expect(within(itemOf('two.pdf')).getByTestId('upload-retry')).toBeTruthy();

    act(() => one.respond(201, { items: [aDocument({ fileName: 'one.pdf' })] }));
    await waitFor(() => expect(itemOf('one.pdf').getAttribute('data-status')).toBe('done'));
    expect(within(itemOf('one.pdf')).getByTestId('upload-state').textContent).toBe('Uploaded');
    expect(within(itemOf('one.pdf')).queryByRole('progressbar')).toBeNull();
    // The lists showing the record refresh.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: documentKeys.dossierLists() });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: documentKeys.lists() });
  });

  it('shows the server’s 413 and 415 problems on the files they concern, and flags duplicates', async () => {
    renderWithProviders(<DocumentUpload recordType="dossier" recordId={DOSSIER_ID} onOpen={() => {}} />);
    chooseType('Bill of lading');
    pickFiles([pdf('big.pdf'), pdf('setup.pdf')]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    act(() => FakeXhr.sent[0]?.respond(413, TOO_LARGE));
    act(() => FakeXhr.sent[1]?.respond(415, NOT_ACCEPTED));

    await waitFor(() =>
      expect(within(itemOf('big.pdf')).getByTestId('upload-error').textContent).toBe(TOO_LARGE.detail),
    );
    expect(within(itemOf('setup.pdf')).getByRole('alert').textContent).toBe(NOT_ACCEPTED.detail);
    // The same bytes would be refused again: no retry.
    expect(within(itemOf('big.pdf')).queryByTestId('upload-retry')).toBeNull();

    pickFiles([pdf('again.pdf')]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(3));
    act(() =>
      FakeXhr.sent[2]?.respond(201, {
        items: [aDocument({ id: 'doc-2', fileName: 'again.pdf', duplicateOf: 'doc-1' })],
      }),
    );
    const warning = await within(itemOf('again.pdf')).findByTestId('upload-duplicate');
    expect(warning.textContent).toContain('already on this record');
  });

  it('checks files against the server’s limit (GET /api/documents/limits) before sending', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL) =>
      jsonResponse({ maxBytes: 10, maxFiles: 20, contentTypes: ['application/pdf'] }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<DocumentUpload recordType="dossier" recordId={DOSSIER_ID} />);
    await waitFor(() =>
      expect(screen.getByTestId('document-dropzone').textContent).toContain('up to 10 bytes each'),
    );
    expect(new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://app.test').pathname).toBe(
      '/api/documents/limits',
    );
    chooseType('Other');
    pickFiles([pdf('big.pdf')]);
    expect((await screen.findByTestId('upload-error')).textContent).toContain(
      'larger than the limit of 10 bytes',
    );
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('refuses an empty file without sending it', async () => {
    renderWithProviders(<DocumentUpload recordType="dossier" recordId={DOSSIER_ID} />);
    chooseType('Other');
    pickFiles([new File([], 'empty.pdf')]);
    expect((await screen.findByTestId('upload-error')).textContent).toBe('“empty.pdf” is empty.');
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('keeps uploads running when the zone goes away; a zone for the same record shows them again', async () => {
    const first = renderWithProviders(<DocumentUpload recordType="dossier" recordId={DOSSIER_ID} />);
    chooseType('CMR');
    pickFiles([pdf('running.pdf')]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0] as FakeXhr;
    act(() => xhr.progress(100, 400));
    first.unmount();
    // Closing the dialog / switching the tab does not cancel the upload.
    expect(xhr.aborted).toBe(false);

    renderWithProviders(<DocumentUpload recordType="dossier" recordId={DOSSIER_ID} />);
    expect(itemOf('running.pdf').getAttribute('data-status')).toBe('uploading');
    expect(within(itemOf('running.pdf')).getByTestId('upload-percent').textContent).toBe('25%');
    act(() => xhr.respond(201, { items: [aDocument({ fileName: 'running.pdf' })] }));
    await waitFor(() => expect(itemOf('running.pdf').getAttribute('data-status')).toBe('done'));
  });

  it('shows only the uploads of its own record', async () => {
    const first = renderWithProviders(<DocumentUpload recordType="dossier" recordId={DOSSIER_ID} />);
    chooseType('CMR');
    pickFiles([pdf('mine.pdf')]);
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    first.unmount();
    renderWithProviders(<DocumentUpload recordType="transport" recordId={DOSSIER_ID} />);
    expect(items()).toHaveLength(0);
  });
});
