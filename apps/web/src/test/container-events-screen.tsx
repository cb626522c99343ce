import type { ContainerSummary } from '@fvg/contracts';
import { vi } from 'vitest';
import { CONTAINER, DOSSIER, timelineEvent } from '../features/container-events/components/test-events.ts';
import { validateContainersSearch } from '../features/container-events/search.ts';
import { setToken } from '../lib/session.ts';
import ContainerEventsScreen from '../routes/container-events.tsx';
import { jsonResponse, meResponse, renderRoute } from './render-route.tsx';

/* The /containers screen against a stubbed API, for the component tests of this area. */

export const latest = timelineEvent({
  eventDateTime: '2026-03-03T10:00:00Z',
  equipmentEventTypeCode: 'LOAD',
});
export const gateIn = timelineEvent();

export const summary: ContainerSummary = {
  id: 's-1',
  containerNumber: CONTAINER,
  ISOEquipmentCode: '22G1',
  dossier: { ...DOSSIER, customer: { id: 'p-acme', code: 'ACME', name: 'Acme Trading' } },
  status: 'LOAD',
  emptyIndicatorCode: 'LADEN',
  location: { UNLocationCode: 'NLRTM', facilityCode: 'ECTDE', facilityTypeCode: 'POTE' },
  eventCount: 2,
  lastEventAt: '2026-03-03T10:00:00.000Z',
  updatedAt: '2026-03-03T10:06:00.000Z',
  latestEvent: latest,
};

export const page = <T,>(items: T[]) => ({
  items,
  total: items.length,
  totalIsEstimate: false,
  page: 1,
  pageSize: 50,
  nextCursor: null,
});

/** An answer of the stub, by `METHOD /api/path`; what a test does not name answers as below. */
export type StubRoutes = Record<string, (init: RequestInit | undefined) => Response>;

/**
 * The API as the screen sees it, for a user of `role`: the container `summary` in the list, its
 * timeline (`gateIn`, `latest`), no unlinked events, no dossiers; `routes` add or replace answers.
 */
export function stubContainersApi(role: string, routes: StubRoutes = {}) {
  const defaults: StubRoutes = {
    'GET /api/me': () => meResponse(role),
    'GET /api/containers': () => jsonResponse(page([summary])),
    'GET /api/container-events/unlinked': () => jsonResponse(page([])),
    [`GET /api/containers/${CONTAINER}/events`]: () =>
      jsonResponse({ containerNumber: CONTAINER, items: [gateIn, latest], truncated: false }),
    'GET /api/dossiers': () => jsonResponse(page([])),
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const answer = routes[key] ?? defaults[key];
    return answer
      ? answer(init)
      : jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The stub's calls to one path (any method), with their parsed URL and request. */
export const callsTo = (fetchMock: ReturnType<typeof stubContainersApi>, path: string) =>
  fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://app.test'), init }))
    .filter(({ url }) => url.pathname === path);

/** Signed in, /containers at `url`, with the app's search validation. */
export function startContainersScreen(url: string) {
  setToken('a.b.c');
  return renderRoute(<ContainerEventsScreen />, {
    path: '/containers',
    url,
    validateSearch: validateContainersSearch,
  });
}
