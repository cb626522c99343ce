import { DOCUMENT_DEFAULT_MAX_BYTES, type Document } from '@fvg/contracts';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { isAbortError } from '../../../lib/upload.ts';
import type { SendOptions, UploadRequest } from '../api/documents-api.ts';
import { formatBytes } from './document-meta.ts';

/**
 * queued → uploading → done | failed | cancelled; `refused` never left the browser (the pre-check
 * found it empty or over the size limit).
 */
export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled' | 'refused';

export interface UploadItem {
  key: string;
  fileName: string;
  size: number;
  request: UploadRequest;
  status: UploadStatus;
  /** Bytes of the request sent so far, and its whole size (0 while unknown). */
  loaded: number;
  total: number;
  /** Why it failed or was refused: the server's problem, or the pre-check's sentence. */
  error?: string;
  /** Sending it again may work (cancelled, network or server trouble); not after a refusal of the file itself. */
  retryable: boolean;
  /** The stored document, once done. */
  document?: Document;
}

export type SendFile = (request: UploadRequest, file: File, options: SendOptions) => Promise<Document>;

export interface UploadQueueOptions {
  send: SendFile;
  /** Requests at a time: a few in parallel, so a drop of many files neither crawls nor floods the connection. */
  concurrency?: number;
  /**
   * The size limit of the pre-check. The server's limit (DOCUMENT_MAX_BYTES) is the authority: a
   * larger file it refuses comes back as its 413 problem.
   */
  maxBytes?: number;
  /** Called when a file is stored (the screen refreshes its lists). */
  onUploaded?: (document: Document) => void;
}

/**
 * The sentence of a failed upload: the problem's detail, and for a validation problem (whose detail
 * is general) the field messages it leaves out. A 413 or 415 names the file and the reason already.
 */
export function uploadErrorMessage(error: unknown): string {
  const message = problemMessage(error);
  if (!isApiError(error) || error.status !== 400) return message;
  const extra = error.fieldErrors
    .map((e) => e.message)
    .filter((text) => !message.includes(text) && !message.includes(text.replace(/[“”]/g, '')));
  return extra.length ? `${message} ${extra.join('. ')}.` : message;
}

/** Refusals the browser can tell before sending a byte; the server checks again (and the type). */
export function precheck(file: Pick<File, 'name' | 'size'>, maxBytes: number): string | undefined {
  if (file.size === 0) return `“${file.name}” is empty.`;
  if (file.size > maxBytes)
    return `“${file.name}” is ${formatBytes(file.size)}, larger than the limit of ${formatBytes(maxBytes)} per file.`;
  return undefined;
}

/** A refusal of the request itself (400, 403, 413, 415…) answers the same again; the rest may not. */
function mayWorkAgain(error: unknown): boolean {
  if (!isApiError(error)) return true;
  const { status } = error;
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

interface Pending {
  file: File;
  controller?: AbortController;
}

let sequence = 0;

/**
 * The uploads of one record, outside React (see upload-queues.ts): each file its own request with progress, a few at a
 * time, each cancellable (the request is aborted), failed and cancelled ones retryable. Components
 * read it through useSyncExternalStore (subscribe / getSnapshot).
 */
export class UploadQueue {
  private items: readonly UploadItem[] = [];
  private readonly files = new Map<string, Pending>();
  private readonly listeners = new Set<() => void>();
  private readonly concurrency: number;
  private maxBytes: number;

  constructor(private options: UploadQueueOptions) {
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.maxBytes = options.maxBytes ?? DOCUMENT_DEFAULT_MAX_BYTES;
  }

  /** New send / onUploaded / limit for files from now on (a zone for the same record mounted again). */
  configure(options: UploadQueueOptions): void {
    this.options = { ...this.options, ...options };
    if (options.maxBytes !== undefined) this.maxBytes = options.maxBytes;
  }

  /** The server's limit once known (files already queued keep the check they had). */
  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): readonly UploadItem[] => this.items;

  /** Queues files for one record and type; those the pre-check refuses are listed as refused. */
  add(files: readonly File[], request: UploadRequest): void {
    const added = files.map((file): UploadItem => {
      const key = `upload-${++sequence}`;
      const refused = precheck(file, this.maxBytes);
      if (!refused) this.files.set(key, { file });
      return {
        key,
        fileName: file.name,
        size: file.size,
        request,
        status: refused ? 'refused' : 'queued',
        loaded: 0,
        total: file.size,
        retryable: false,
        ...(refused ? { error: refused } : {}),
      };
    });
    this.set([...this.items, ...added]);
    this.pump();
  }

  /** Stops a file: a queued one never starts, a running request is aborted. */
  cancel(key: string): void {
    const item = this.find(key);
    if (!item) return;
    if (item.status === 'uploading') {
      // The request's AbortError settles it as cancelled.
      this.files.get(key)?.controller?.abort();
    } else if (item.status === 'queued') {
      this.update(key, { status: 'cancelled', retryable: true });
    }
  }

  /** Sends a failed or cancelled file again. */
  retry(key: string): void {
    const item = this.find(key);
    if (!item?.retryable || !this.files.has(key)) return;
    this.update(key, { status: 'queued', loaded: 0, error: undefined, retryable: false });
    this.pump();
  }

  /** Takes a finished file off the list. */
  dismiss(key: string): void {
    const item = this.find(key);
    if (!item || item.status === 'uploading' || item.status === 'queued') return;
    this.files.delete(key);
    this.set(this.items.filter((i) => i.key !== key));
  }

  /** Takes every finished file off the list. */
  clearFinished(): void {
    const finished = (i: UploadItem) => i.status !== 'uploading' && i.status !== 'queued';
    for (const item of this.items) if (finished(item)) this.files.delete(item.key);
    this.set(this.items.filter((i) => !finished(i)));
  }

  /** Aborts everything still queued or running (the queue is being forgotten). */
  abortAll(): void {
    for (const item of this.items) {
      if (item.status === 'queued') this.update(item.key, { status: 'cancelled', retryable: true });
      if (item.status === 'uploading') this.files.get(item.key)?.controller?.abort();
    }
  }

  private find(key: string): UploadItem | undefined {
    return this.items.find((i) => i.key === key);
  }

  private set(items: readonly UploadItem[]): void {
    this.items = items;
    for (const listener of this.listeners) listener();
  }

  private update(key: string, patch: Partial<UploadItem>): void {
    this.set(
      this.items.map((item) => {
        if (item.key !== key) return item;
        const next = { ...item, ...patch };
        if ('error' in patch && patch.error === undefined) delete next.error;
        return next;
      }),
    );
  }

  /** Starts queued files while fewer than `concurrency` are running. */
  private pump(): void {
    let running = this.items.filter((i) => i.status === 'uploading').length;
    for (const item of this.items) {
      if (running >= this.concurrency) return;
      if (item.status !== 'queued') continue;
      running++;
      void this.start(item);
    }
  }

  private async start(item: UploadItem): Promise<void> {
    const pending = this.files.get(item.key);
    if (!pending) return;
    const controller = new AbortController();
    pending.controller = controller;
    this.update(item.key, { status: 'uploading', loaded: 0 });
    try {
      const document = await this.options.send(item.request, pending.file, {
        signal: controller.signal,
        onProgress: ({ loaded, total }) => {
          if (!controller.signal.aborted) this.update(item.key, { loaded, total: total || item.size });
        },
      });
      const current = this.find(item.key);
      this.update(item.key, { status: 'done', loaded: current?.total ?? item.size, document });
      // Nothing left to retry: the bytes need not stay in memory.
      this.files.delete(item.key);
      this.options.onUploaded?.(document);
    } catch (error) {
      if (isAbortError(error) || controller.signal.aborted)
        this.update(item.key, { status: 'cancelled', retryable: true });
      else {
        const retryable = mayWorkAgain(error);
        if (!retryable) this.files.delete(item.key);
        this.update(item.key, { status: 'failed', error: uploadErrorMessage(error), retryable });
      }
    } finally {
      pending.controller = undefined;
      this.pump();
    }
  }
}
