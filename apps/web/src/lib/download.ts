import { problemSchema } from '@fvg/contracts';
import { ApiError, apiUrl, fallbackProblem } from './api-client.ts';
import { type QueryParams, withQuery } from './query-string.ts';
import { getToken } from './token.ts';

/** The file name of a `Content-Disposition: attachment; filename="…"` header (RFC 6266, incl. filename*). */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = plain?.[2] ?? plain?.[1];
  return name?.trim() || undefined;
}

async function problemOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  const parsed = problemSchema.safeParse(body);
  return new ApiError(
    response.status,
    parsed.success ? parsed.data : fallbackProblem(response.status, response.statusText, body),
  );
}

export interface DownloadResult {
  filename: string;
  size: number;
}

/**
 * Downloads a file the API streams (exports, documents). The API wants the bearer token in a
 * header, which a plain link cannot send, so the file is fetched, held as a blob and handed to the
 * browser through a temporary object URL. Failures throw an ApiError like every other call.
 */
export async function downloadFile(
  path: string,
  params: QueryParams,
  fallbackName: string,
  signal?: AbortSignal,
): Promise<DownloadResult> {
  const headers: Record<string, string> = { Accept: '*/*' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(apiUrl(withQuery(path, params)), { method: 'GET', headers, signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, {
      type: 'about:blank',
      title: 'Network error',
      status: 0,
      detail: 'The server could not be reached. Check your connection and try again.',
    });
  }
  if (!response.ok) throw await problemOf(response);

  const blob = await response.blob();
  const filename = filenameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download manager; the URL is not needed after this task.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return { filename, size: blob.size };
}
