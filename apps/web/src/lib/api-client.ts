import { type FieldError, type Problem, problemSchema } from '@fvg/contracts';
import { reportAnswer, reportFetchFailed, reportServerReached } from './connection.ts';
import { fieldMessage, labelFor, normalizeFieldPath, problemIssue } from './field-messages.ts';
import { getToken } from './token.ts';

/** Base address of the API: same origin `/api` unless the build sets `VITE_API_BASE`. */
export const API_BASE: string = import.meta.env.VITE_API_BASE ?? '/api';

/** Anything with a zod-like `parse`: lets callers validate answers without this file importing zod. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

export interface ApiRequestOptions<T> {
  method?: string;
  /** Sent as JSON, except FormData (multipart) and Blobs (a file, typed by the Blob), sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Validates a successful answer; a mismatch throws an ApiError. */
  schema?: ResponseParser<T>;
}

/**
 * Every answer outside 200–299, and every failure to reach the server (status 0), is thrown as
 * an ApiError carrying RFC 9457 problem details: parsed from the body when the server sent
 * problem+json (or plain JSON that matches), a fallback built from the status otherwise.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly problem: Problem;
  /** Seconds from a `Retry-After` header (429, 503), when the server sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, problem: Problem, retryAfterSeconds?: number) {
    super(problem.detail ?? problem.title);
    this.status = status;
    this.problem = problem;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  get fieldErrors(): NonNullable<Problem['errors']> {
    return this.problem.errors ?? [];
  }

  /** The server's id of the request (its log lines carry it): the reference a user quotes to support. */
  get requestId(): string | undefined {
    return this.problem.requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The specification's success range, exactly. */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status <= 299;
}

export function apiUrl(path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  const base = API_BASE.replace(/\/+$/, '');
  return `${base}/${path.replace(/^\/+/, '')}`;
}

const STATUS_TITLES: Record<number, string> = {
  0: 'Network error',
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  422: 'Unprocessable content',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A problem for answers that did not carry one (proxy error pages, empty bodies, odd statuses). */
export function fallbackProblem(status: number, statusText?: string, body?: unknown): Problem {
  let detail: string | undefined;
  if (isRecord(body) && typeof body.message === 'string') detail = body.message;
  else if (isRecord(body) && typeof body.detail === 'string') detail = body.detail;
  else if (
    typeof body === 'string' &&
    body.trim() &&
    body.length <= 300 &&
    !body.trimStart().startsWith('<')
  ) {
    detail = body.trim();
  }
  const problem: Problem = {
    type: 'about:blank',
    title: statusText?.trim() || STATUS_TITLES[status] || `HTTP ${status}`,
    status,
  };
  if (detail) problem.detail = detail;
  return problem;
}

/** `Retry-After` as seconds from now: delta-seconds or an HTTP date. */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function isJsonContentType(contentType: string): boolean {
  return /^application\/([\w.+-]*\+)?json\b/i.test(contentType.trim());
}

function parseBody(text: string, contentType: string): unknown {
  if (!text) return undefined;
  if (isJsonContentType(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * The one fetch wrapper of the app. Sends `Authorization: Bearer <token>` whenever a token is
 * stored, JSON in and out, and no timeout (the specification says none: a slow answer is waited for;
 * callers that want to give up pass an AbortSignal).
 */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, signal, schema } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json, application/problem+json',
    ...options.headers,
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body instanceof Blob) {
    // A file sent as it is (a CSV import), typed by the Blob; an explicit Content-Type header wins.
    payload = body;
    if (body.type && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
      headers['Content-Type'] = body.type;
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }

  let response: Response;
  try {
    response = await fetch(apiUrl(path), { method, headers, body: payload, signal });
  } catch (error) {
    if (isAbort(error)) throw error;
    reportFetchFailed();
    throw new ApiError(0, {
      type: 'about:blank',
      title: 'Network error',
      status: 0,
      detail: 'The server could not be reached. Check your connection and try again.',
    });
  }

  const contentType = response.headers.get('content-type') ?? '';
  let text = '';
  try {
    text = await response.text();
  } catch (error) {
    if (isAbort(error)) throw error;
  }
  const data = parseBody(text, contentType);
  reportAnswer(response.status, isRecord(data) && typeof data.type === 'string' ? data.type : undefined);

  if (!isSuccessStatus(response.status)) {
    const parsed = isRecord(data) ? problemSchema.safeParse(data) : undefined;
    const problem = parsed?.success
      ? parsed.data
      : fallbackProblem(response.status, response.statusText, data);
    // An answer that is not our problem+json (a proxy's page) may still carry the server's id.
    problem.requestId ??= response.headers.get('x-request-id') ?? undefined;
    if (problem.requestId === undefined) delete problem.requestId;
    throw new ApiError(response.status, problem, parseRetryAfter(response.headers.get('retry-after')));
  }

  if (!schema) return data as T;
  try {
    return schema.parse(data);
  } catch {
    throw new ApiError(response.status, {
      type: 'about:blank',
      title: 'Unexpected answer',
      status: response.status,
      detail: 'The server answered in a shape this version of the app does not understand.',
    });
  }
}

type BodyLessOptions<T> = Omit<ApiRequestOptions<T>, 'method' | 'body'>;

/** Shorthands over apiRequest. */
export const api = {
  get: <T = unknown>(path: string, options?: BodyLessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: BodyLessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: BodyLessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: BodyLessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, options?: BodyLessOptions<T>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/**
 * A sentence for the user from any error: a validation problem's field errors in plain words with
 * their fields' names (lib/field-messages.ts), otherwise the problem's detail (or title), a wait hint
 * for 429, a generic sentence for errors that are not ApiErrors. Forms put field errors on their
 * fields instead (lib/form-errors.ts).
 */
export function problemMessage(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong. Please try again.';
  if (error.status === 429) {
    if (error.retryAfterSeconds !== undefined) {
      return `Too many attempts, try again in ${error.retryAfterSeconds} s.`;
    }
    return error.problem.detail ?? 'Too many attempts, try again later.';
  }
  if (error.status === 400 && error.fieldErrors.length > 0) return fieldErrorsSentence(error.fieldErrors);
  return error.problem.detail ?? error.problem.title;
}

/*
 * Pieces for the few calls that cannot go through apiRequest (uploads over XMLHttpRequest for their
 * progress, files read as blobs), so that they send the token and report failures exactly as
 * apiRequest does: one ApiError shape for every screen and form.
 */

/** The request headers every API call carries: the bearer token when one is stored. */
export function authHeaders(accept = 'application/json, application/problem+json'): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** The ApiError of a server that could not be reached (status 0); the offline notice hears of it. */
export function networkError(): ApiError {
  reportFetchFailed();
  return new ApiError(0, {
    type: 'about:blank',
    title: 'Network error',
    status: 0,
    detail: 'The server could not be reached. Check your connection and try again.',
  });
}

/** A received answer, whatever carried it. */
export interface RawAnswer {
  status: number;
  statusText?: string;
  text: string;
  contentType: string;
  retryAfter?: string | null;
}

/** The ApiError of an answer outside 200–299: its problem+json, or a fallback built from the status. */
export function apiErrorOf(answer: RawAnswer): ApiError {
  const data = parseBody(answer.text, answer.contentType);
  const parsed = isRecord(data) ? problemSchema.safeParse(data) : undefined;
  const problem = parsed?.success ? parsed.data : fallbackProblem(answer.status, answer.statusText, data);
  reportAnswer(answer.status, problem.type);
  return new ApiError(answer.status, problem, parseRetryAfter(answer.retryAfter));
}

/** A 2xx answer's body, parsed and validated as apiRequest does (a mismatch is an ApiError). */
export function parseAnswer<T>(answer: RawAnswer, schema?: ResponseParser<T>): T {
  const data = parseBody(answer.text, answer.contentType);
  if (!schema) return data as T;
  try {
    return schema.parse(data);
  } catch {
    throw new ApiError(answer.status, {
      type: 'about:blank',
      title: 'Unexpected answer',
      status: answer.status,
      detail: 'The server answered in a shape this version of the app does not understand.',
    });
  }
}

export interface BlobAnswer {
  blob: Blob;
  /** The Content-Type the server sent. */
  contentType: string;
}

/**
 * A file the API serves (a document's content), read as a blob with the bearer token, which an
 * `<img src>` or a link could not send. Failures throw an ApiError like every other call.
 */
export async function apiBlob(path: string, options: { signal?: AbortSignal } = {}): Promise<BlobAnswer> {
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: 'GET',
      headers: authHeaders('*/*'),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    reportServerReached();
  } catch (error) {
    if (isAbort(error)) throw error;
    throw networkError();
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (!isSuccessStatus(response.status)) {
    const text = await response.text().catch(() => '');
    throw apiErrorOf({
      status: response.status,
      statusText: response.statusText,
      text,
      contentType,
      retryAfter: response.headers.get('retry-after'),
    });
  }
  try {
    return { blob: await response.blob(), contentType };
  } catch (error) {
    if (isAbort(error)) throw error;
    throw networkError();
  }
}

/**
 * 'Enter a UN/LOCODE such as NLRTM. This email is already in use.': each field error worded by its
 * rule's code, or the server's own sentence.
 */
function fieldErrorsSentence(errors: readonly FieldError[]): string {
  return errors
    .map((e) => fieldMessage(problemIssue(e), labelFor(normalizeFieldPath(e.field))).replace(/\.?$/, '.'))
    .join(' ');
}
