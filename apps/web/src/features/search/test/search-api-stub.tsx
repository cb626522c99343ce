import type { SearchGroup, SearchResponse, SearchResult } from '@fvg/contracts';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import { Providers } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../app/query-client.ts';
import { createAppRouter } from '../../../app/router.tsx';
import { setToken } from '../../../lib/session.ts';
import { FakeHubConnection } from '../../../test/fake-hub-connection.ts';
import { jsonResponse } from '../../../test/render-route.tsx';

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
export async function startApp(path: string) {
  setToken('a.b.c');
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, { history: createMemoryHistory({ initialEntries: [path] }) });
  const hubOptions = {
    createConnection: () => new FakeHubConnection({ autoStart: true }),
    wakeTarget: null,
    restartDelayMs: 0,
  };
  const result = render(<Providers queryClient={queryClient} router={router} hubOptions={hubOptions} />);
  await act(() => router.load());
  return { ...result, router, queryClient };
}
