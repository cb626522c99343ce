import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, problemMessage } from '../../../lib/api-client.ts';
import { setToken } from '../../../lib/token.ts';
import { isAbortError } from '../../../lib/upload.ts';
import { aDocument, DOSSIER_ID, FakeXhr, NOT_ACCEPTED, TOO_LARGE } from '../test-support.ts';
import { type UploadRequest, uploadDocument } from './documents-api.ts';

const request: UploadRequest = {
  recordType: 'dossier',
  recordId: DOSSIER_ID,
  documentType: 'bill_of_lading',
  visibleToCustomer: true,
};
const pdf = () => new File(['%PDF-1.4 test'], 'BL 4711.pdf', { type: 'application/pdf' });

describe('uploadDocument (one file per request, over XMLHttpRequest)', () => {
  beforeEach(() => FakeXhr.install(vi.stubGlobal));

  it('posts the fields before the file, with the token, and reports progress until the stored document', async () => {
    setToken('tok-1');
    const progress: [number, number][] = [];
    const done = uploadDocument(request, pdf(), { onProgress: (p) => progress.push([p.loaded, p.total]) });
    const xhr = FakeXhr.sent[0] as FakeXhr;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/documents');
    expect(xhr.headers.Authorization).toBe('Bearer tok-1');
    // The browser sets the multipart Content-Type with its boundary.
    expect(Object.keys(xhr.headers).some((h) => h.toLowerCase() === 'content-type')).toBe(false);
    const form = xhr.body as FormData;
    expect([...form.keys()]).toEqual([
      'recordType',
      'recordId',
      'documentType',
      'visibleToCustomer',
      'files',
    ]);
    expect(form.get('visibleToCustomer')).toBe('true');
    expect((form.get('files') as File).name).toBe('BL 4711.pdf');

    xhr.progress(100, 400);
    xhr.progress(400, 400);
    const stored = aDocument({ visibleToCustomer: true });
    xhr.respond(201, { items: [stored] });
    await expect(done).resolves.toEqual(stored);
    expect(progress).toEqual([
      [100, 400],
      [400, 400],
    ]);
  });

  it('turns a 413 and a 415 into ApiErrors carrying the server’s problem', async () => {
    const large = uploadDocument(request, pdf());
    FakeXhr.sent[0]?.respond(413, TOO_LARGE);
    const error = await large.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(413);
    expect((error as ApiError).fieldErrors).toEqual(TOO_LARGE.errors);
    expect(problemMessage(error)).toBe(TOO_LARGE.detail);

    const refused = uploadDocument(request, pdf());
    FakeXhr.sent[1]?.respond(415, NOT_ACCEPTED);
    await expect(refused).rejects.toMatchObject({ status: 415, message: NOT_ACCEPTED.detail });
  });

  it('keeps a fallback problem for answers that are not problem+json, and status 0 for a broken connection', async () => {
    const proxy = uploadDocument(request, pdf());
    FakeXhr.sent[0]?.respond(502, '<html>Bad gateway</html>', { 'content-type': 'text/html' });
    await expect(proxy).rejects.toMatchObject({ status: 502, problem: { title: 'Bad gateway' } });

    const offline = uploadDocument(request, pdf());
    FakeXhr.sent[1]?.fail();
    await expect(offline).rejects.toMatchObject({ status: 0, problem: { title: 'Network error' } });
  });

  it('aborts the request when the signal aborts, and rejects with an AbortError', async () => {
    const controller = new AbortController();
    const upload = uploadDocument(request, pdf(), { signal: controller.signal });
    const xhr = FakeXhr.sent[0] as FakeXhr;
    xhr.progress(10, 400);
    controller.abort();
    expect(xhr.aborted).toBe(true);
    const error = await upload.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);

    // Already aborted: nothing is sent at all.
    await expect(uploadDocument(request, pdf(), { signal: controller.signal })).rejects.toSatisfy(
      isAbortError,
    );
    expect(FakeXhr.sent).toHaveLength(1);
  });

  it('refuses an answer in a shape it does not know', async () => {
    const upload = uploadDocument(request, pdf());
    FakeXhr.sent[0]?.respond(201, { items: [{ id: 'x' }] });
    await expect(upload).rejects.toMatchObject({ problem: { title: 'Unexpected answer' } });
  });
});
