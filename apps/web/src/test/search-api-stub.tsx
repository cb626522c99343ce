import type { SearchGroup, SearchResponse, SearchResult } from '@fvg/contracts';
import { vi } from 'vitest';
import { renderApp } from './render-app.tsx';
import { jsonResponse } from './render-route.tsx';

/* The search API as the palette and /search see it, for their component tests. */

export const container = (over: Partial<SearchResult> = {}): SearchResult => ({
  kind: 'container',
  id: 'MSCU1234565',
  title: 'MSCU1234565',
  subtitle: 'D-2026-000042 · Acme Trading · Loaded on board',
  match: 'prefix',
  matched: null,
  link: { route: 'container-events', params: {}, search: { open: 'MSCU1234565' } },
  ...over,
});

export const dossier = (over: Partial<SearchResult> = {}): SearchResult => ({
  kind: 'dossier',
  id: 'd-42',
  title: 'D-2026-000042',
  subtitle: 'Acme Trading · Shanghai → Rotterdam · Open',
  match: 'words',
  matched: 'MSCU1234565',
  link: { route: 'dossier', params: { dossierId: 'd-42' } },
  ...over,
});

export const answer = (q: string, groups: SearchGroup[]): SearchResponse => ({ q, groups });

/** What the stub answers to one `GET /api/search`, by its parsed URL; a promise may wait for its signal. */
export type SearchAnswer = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/** `me` of a user with `id`, everything else 404 like the server; the search through `search`. */
export function stubSearchApi(search: SearchAnswer, options: { userId?: string } = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    if (url.pathname === '/api/me') {
      return jsonResponse({
        id: options.userId ?? 'u1',
        Email: 'sam@fvg.local',
        name: 'Sam Staff',
        role: 'staff',
        party: null,
        access: { cw_access: false },
      });
    }
    if (url.pathname === '/api/search') return search(url, init);
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The stub's search requests, parsed, with the signal each was sent with. */
export const searchCalls = (fetchMock: ReturnType<typeof stubSearchApi>) =>
  fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://app.test'), signal: init?.signal }))
    .filter(({ url }) => url.pathname === '/api/search');

/** A request that stays open until the app aborts it (then fails as fetch does). */
export function hangUntilAborted(init: RequestInit | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
  });
}

/** The whole app (shell, router, guards) at `path`, signed in. */
export function startApp(path: string) {
  return renderApp(path, { token: 'a.b.c' });
}
