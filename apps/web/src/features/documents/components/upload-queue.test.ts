import type { Document } from '@fvg/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import type { SendOptions, UploadRequest } from '../api/documents-api.ts';
import { aDocument, DOSSIER_ID, NOT_ACCEPTED } from '../test-support.ts';
import { precheck, UploadQueue } from './upload-queue.ts';
import { resetUploadQueues, uploadQueueFor, uploadsActive } from './upload-queues.ts';

const request: UploadRequest = {
  recordType: 'dossier',
  recordId: DOSSIER_ID,
  documentType: 'cmr',
  visibleToCustomer: false,
};
const file = (name: string, size = 10) => new File(['x'.repeat(size)], name);

/** A send() the test settles by hand, one call at a time. */
function manualSend() {
  const calls: {
    file: File;
    options: SendOptions;
    resolve: (d: Document) => void;
    reject: (e: unknown) => void;
  }[] = [];
  const send = vi.fn(
    (_request: UploadRequest, f: File, options: SendOptions) =>
      new Promise<Document>((resolve, reject) => {
        calls.push({ file: f, options, resolve, reject });
        // As uploadForm does: an abort rejects with an AbortError.
        options.signal?.addEventListener('abort', () =>
          reject(new DOMException('The upload was cancelled.', 'AbortError')),
        );
      }),
  );
  return { send, calls };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const statuses = (q: UploadQueue) => q.getSnapshot().map((i) => `${i.fileName}:${i.status}`);

describe('UploadQueue', () => {
  it('sends each file on its own, two at a time, with its progress, and reports stored documents', async () => {
    const { send, calls } = manualSend();
    const onUploaded = vi.fn();
    const queue = new UploadQueue({ send, concurrency: 2, onUploaded });
    const listener = vi.fn();
    queue.subscribe(listener);

    queue.add([file('a.pdf'), file('b.pdf'), file('c.pdf')], request);
    expect(statuses(queue)).toEqual(['a.pdf:uploading', 'b.pdf:uploading', 'c.pdf:queued']);
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[0]?.[0]).toEqual(request);

    calls[0]?.options.onProgress?.({ loaded: 250, total: 1000 });
    expect(queue.getSnapshot()[0]).toMatchObject({ loaded: 250, total: 1000 });
    expect(listener).toHaveBeenCalled();

    const stored = aDocument({ fileName: 'a.pdf' });
    calls[0]?.resolve(stored);
    await flush();
    // A slot is free: the third file starts.
    expect(statuses(queue)).toEqual(['a.pdf:done', 'b.pdf:uploading', 'c.pdf:uploading']);
    expect(queue.getSnapshot()[0]).toMatchObject({ document: stored, loaded: 1000 });
    expect(onUploaded).toHaveBeenCalledWith(stored);
  });

  it('cancels a running file by aborting its request, and a waiting one before it starts; both can be retried', async () => {
    const { send, calls } = manualSend();
    const queue = new UploadQueue({ send, concurrency: 1 });
    queue.add([file('a.pdf'), file('b.pdf')], request);
    const [a, b] = queue.getSnapshot();

    queue.cancel(b?.key as string);
    queue.cancel(a?.key as string);
    expect(calls[0]?.options.signal?.aborted).toBe(true);
    await flush();
    expect(statuses(queue)).toEqual(['a.pdf:cancelled', 'b.pdf:cancelled']);
    // The waiting file never went out.
    expect(send).toHaveBeenCalledTimes(1);
    expect(queue.getSnapshot().every((i) => i.retryable)).toBe(true);

    queue.retry(b?.key as string);
    expect(statuses(queue)).toEqual(['a.pdf:cancelled', 'b.pdf:uploading']);
    expect(calls[1]?.file.name).toBe('b.pdf');
  });

  it('refuses empty and oversized files before sending them', () => {
    const { send } = manualSend();
    const queue = new UploadQueue({ send, maxBytes: 100 });
    queue.add([file('empty.pdf', 0), file('big.pdf', 101), file('fits.pdf', 100)], request);
    expect(statuses(queue)).toEqual(['empty.pdf:refused', 'big.pdf:refused', 'fits.pdf:uploading']);
    expect(queue.getSnapshot()[1]?.error).toBe(
      '“big.pdf” is 101 bytes, larger than the limit of 100 bytes per file.',
    );
    expect(send).toHaveBeenCalledTimes(1);
    expect(precheck({ name: 'x', size: 50 * 1024 * 1024 + 1 }, 50 * 1024 * 1024)).toBe(
      '“x” is 50 MB, larger than the limit of 50 MB per file.',
    );
  });

  it('shows the server’s refusal on the file and offers no retry for it; a network failure can be retried', async () => {
    const { send, calls } = manualSend();
    const queue = new UploadQueue({ send, concurrency: 2 });
    queue.add([file('setup.pdf'), file('bl.pdf')], request);
    calls[0]?.reject(new ApiError(415, NOT_ACCEPTED));
    calls[1]?.reject(
      new ApiError(0, { type: 'about:blank', title: 'Network error', status: 0, detail: 'Offline.' }),
    );
    await flush();
    const [refused, offline] = queue.getSnapshot();
    expect(refused).toMatchObject({ status: 'failed', error: NOT_ACCEPTED.detail, retryable: false });
    expect(offline).toMatchObject({ status: 'failed', error: 'Offline.', retryable: true });

    queue.retry(refused?.key as string);
    queue.retry(offline?.key as string);
    expect(statuses(queue)).toEqual(['setup.pdf:failed', 'bl.pdf:uploading']);
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('says what is wrong with the file rather than the problem’s general detail', async () => {
    const { send, calls } = manualSend();
    const queue = new UploadQueue({ send });
    queue.add([file('a.pdf')], request);
    calls[0]?.reject(
      new ApiError(400, {
        type: 'about:blank',
        title: 'Validation failed',
        status: 400,
        detail: 'The request has invalid fields.',
        errors: [{ field: 'files.0', message: '“a.pdf” is empty' }],
      }),
    );
    await flush();
    // The field's own sentence says it all; the problem's general detail is left out.
    expect(queue.getSnapshot()[0]?.error).toBe('“a.pdf” is empty.');
  });

  it('clears finished files and keeps what is still running', async () => {
    const { send, calls } = manualSend();
    const queue = new UploadQueue({ send, concurrency: 1 });
    queue.add([file('a.pdf'), file('b.pdf'), file('c.pdf')], request);
    calls[0]?.resolve(aDocument());
    await flush();
    queue.clearFinished();
    expect(statuses(queue)).toEqual(['b.pdf:uploading', 'c.pdf:queued']);
    expect(calls[1]?.options.signal?.aborted).toBe(false);
  });
});

describe('uploadQueueFor', () => {
  beforeEach(() => resetUploadQueues());
  afterEach(() => resetUploadQueues());

  it('hands out one queue per record', () => {
    const { send } = manualSend();
    const queue = uploadQueueFor('dossier', DOSSIER_ID, { send });
    expect(uploadQueueFor('dossier', DOSSIER_ID, { send })).toBe(queue);
    expect(uploadQueueFor('transport', DOSSIER_ID, { send })).not.toBe(queue);
    expect(uploadQueueFor('dossier', 'another-dossier', { send })).not.toBe(queue);
  });

  it('keeps uploads running when a zone unsubscribes; the same record’s queue shows them and they complete', async () => {
    const { send, calls } = manualSend();
    const queue = uploadQueueFor('dossier', DOSSIER_ID, { send });
    const unsubscribe = queue.subscribe(() => {});
    queue.add([file('a.pdf')], request);
    // The zone goes away.
    unsubscribe();
    expect(calls[0]?.options.signal?.aborted).toBe(false);

    const again = uploadQueueFor('dossier', DOSSIER_ID, { send });
    expect(statuses(again)).toEqual(['a.pdf:uploading']);
    calls[0]?.resolve(aDocument({ fileName: 'a.pdf' }));
    await flush();
    expect(statuses(again)).toEqual(['a.pdf:done']);
  });

  it('warns before the page unloads while uploads are running or waiting', async () => {
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event;
    };
    const { send, calls } = manualSend();
    const queue = uploadQueueFor('dossier', DOSSIER_ID, { send, concurrency: 1 });
    expect(unload().defaultPrevented).toBe(false);

    queue.add([file('a.pdf'), file('b.pdf')], request);
    expect(uploadsActive()).toBe(true);
    const event = unload();
    expect(event.defaultPrevented).toBe(true);

    calls[0]?.resolve(aDocument());
    await flush();
    // b.pdf is still sending.
    expect(unload().defaultPrevented).toBe(true);
    calls[1]?.resolve(aDocument());
    await flush();
    expect(uploadsActive()).toBe(false);
    expect(unload().defaultPrevented).toBe(false);
  });
});
