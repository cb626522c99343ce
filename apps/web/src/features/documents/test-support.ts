import type { Document } from '@fvg/contracts';

/*
 * Test helpers of the documents area: a document as the API answers it, and a stand-in for
 * XMLHttpRequest that the test drives (progress, answer, network failure), since jsdom's would try
 * to reach a server.
 */

export const DOSSIER_ID = '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60';

export function aDocument(over: Partial<Document> = {}): Document {
  return {
    id: '0190f5d2-0000-7000-8000-000000000001',
    recordType: 'dossier',
    recordId: DOSSIER_ID,
    dossier: { id: DOSSIER_ID, number: 'D-2026-000042' },
    fileName: 'BL 4711.pdf',
    contentType: 'application/pdf',
    size: 52_000,
    sha256: 'ab'.repeat(32),
    documentType: 'bill_of_lading',
    visibleToCustomer: false,
    duplicateOf: null,
    uploadedBy: { id: 'u-1', name: 'Sam Staff' },
    uploadedAt: '2026-04-01T10:00:00.000Z',
    updatedAt: '2026-04-01T10:00:00.000Z',
    version: 1,
    ...over,
  };
}

export class FakeXhr {
  /** Every request sent, in order. */
  static sent: FakeXhr[] = [];

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  private responseHeaders: Record<string, string> = {};
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  /** Installs the fake as the global XMLHttpRequest (undone by the test setup's unstubAllGlobals). */
  static install(stub: (name: string, value: unknown) => void): void {
    FakeXhr.sent = [];
    stub('XMLHttpRequest', FakeXhr);
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  send(body: unknown): void {
    this.body = body;
    FakeXhr.sent.push(this);
  }

  abort(): void {
    this.aborted = true;
    this.onabort?.();
  }

  /** The browser reports bytes sent. */
  progress(loaded: number, total: number): void {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent);
  }

  /** The server answers (JSON, or problem+json for statuses from 400). */
  respond(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.responseHeaders = {
      'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    };
    this.onload?.();
  }

  /** The connection broke. */
  fail(): void {
    this.onerror?.();
  }
}

/** The problem the API answers for a file over DOCUMENT_MAX_BYTES. */
export const TOO_LARGE = {
  type: 'about:blank',
  title: 'Payload too large',
  status: 413,
  detail: '“big.pdf” is larger than the limit of 50 MB (52428800 bytes) per file.',
  errors: [{ field: 'files.0', message: 'Larger than 50 MB' }],
};

/** The problem the API answers for bytes of a type it does not accept. */
export const NOT_ACCEPTED = {
  type: 'about:blank',
  title: 'Unsupported media type',
  status: 415,
  detail:
    '“setup.pdf” is not an accepted type: it is a Windows executable (application/x-msdownload). Documents can be PDF, images (PNG, JPEG, GIF, WebP, TIFF), Office documents, XML, CSV or e-mails (EML).',
  errors: [{ field: 'files.0', message: 'application/x-msdownload is not accepted' }],
};
