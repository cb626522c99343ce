import {
  apiErrorOf,
  apiUrl,
  authHeaders,
  isSuccessStatus,
  networkError,
  parseAnswer,
  type ResponseParser,
} from './api-client.ts';

/** Bytes of the request body sent so far. */
export interface UploadProgress {
  loaded: number;
  /** The whole body (the multipart form, slightly more than the file); 0 while unknown. */
  total: number;
}

export interface UploadOptions<T> {
  /** Aborting it aborts the request; the promise then rejects with an AbortError, as fetch does. */
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  /** Validates the 2xx answer, as apiRequest's `schema`. */
  schema?: ResponseParser<T>;
  method?: 'POST' | 'PUT';
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

/**
 * Sends a multipart form with upload progress. fetch reports no upload progress (request streams
 * would, but need HTTP/2 and are not in every browser), so this one call uses XMLHttpRequest; the
 * token, the answer's parsing and the ApiError of a failure are the API client's (lib/api-client.ts),
 * so a 413 or 415 problem reads exactly like any other. No timeout, as everywhere in the client.
 */
export function uploadForm<T = unknown>(
  path: string,
  form: FormData,
  options: UploadOptions<T> = {},
): Promise<T> {
  const { signal, onProgress, schema, method = 'POST' } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const settle = (fn: () => void) => {
      signal?.removeEventListener('abort', onAbortSignal);
      fn();
    };

    xhr.open(method, apiUrl(path));
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    // No Content-Type: the browser writes multipart/form-data with its boundary.

    xhr.upload.onprogress = (event) => {
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    };
    xhr.onload = () =>
      settle(() => {
        const answer = {
          status: xhr.status,
          statusText: xhr.statusText,
          text: xhr.responseText,
          contentType: xhr.getResponseHeader('content-type') ?? '',
          retryAfter: xhr.getResponseHeader('retry-after'),
        };
        if (!isSuccessStatus(answer.status)) {
          reject(apiErrorOf(answer));
          return;
        }
        try {
          resolve(parseAnswer(answer, schema));
        } catch (error) {
          reject(error);
        }
      });
    xhr.onerror = () => settle(() => reject(networkError()));
    xhr.onabort = () => settle(() => reject(abortError()));

    signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send(form);
  });
}

/** Whether an error is the cancellation of a request (fetch's or uploadForm's AbortError). */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
