import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
  useParams,
} from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { theme } from '../components/theme.ts';

export interface RenderRouteOptions {
  /** Path pattern of the screen under test, e.g. '/things'. */
  path: string;
  /** Where the test starts, e.g. '/things?sort=-etd'. */
  url: string;
  /** The screen's search validator, as the app's router would apply it. */
  validateSearch?: (search: Record<string, unknown>) => Record<string, unknown>;
}

/** Where a row opens in tests: `<path>/$id` shows "opened <id>". */
function Opened() {
  const { id } = useParams({ strict: false }) as { id: string };
  return <p data-testid="opened">opened {id}</p>;
}

/**
 * Renders a screen at a URL inside a real TanStack router (memory history), the app's Mantine theme
 * and a fresh query client, so URL state, navigation and blockers work as in the app.
 */
export async function renderRoute(screenElement: ReactElement, options: RenderRouteOptions) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const root = createRootRoute({ component: Outlet });
  const screen = createRoute({
    getParentRoute: () => root,
    path: options.path,
    component: () => screenElement,
    ...(options.validateSearch ? { validateSearch: options.validateSearch } : {}),
  });
  const opened = createRoute({ getParentRoute: () => root, path: `${options.path}/$id`, component: Opened });
  const router = createRouter({
    routeTree: root.addChildren([screen, opened]),
    history: createMemoryHistory({ initialEntries: [options.url] }),
  });
  const result = render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  await act(() => router.load());
  return { ...result, router, queryClient };
}

/**
 * jsdom lays nothing out, so a virtualised list would think its viewport is 0 px high and render no
 * rows; this gives every element a size.
 */
export function giveElementsSize(width = 1200, height = 800) {
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(height);
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(width);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(40);
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(width);
}

/** A JSON answer for a stubbed fetch. */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': status >= 400 ? 'application/problem+json' : 'application/json',
      ...headers,
    },
  });
}

/** The API's 400 for invalid input (RFC 9457), each message on its field (`charges.1.amount`). */
export function validationProblem(errors: { field: string; message: string }[]): Response {
  return jsonResponse(
    { type: 'about:blank', title: 'Bad request', status: 400, detail: 'The request is not valid', errors },
    400,
  );
}

/** GET /api/me of a signed-in user with `role` (staff, admin…), no party, no CargoWise access. */
export function meResponse(role: string, options: { cwAccess?: boolean } = {}): Response {
  return jsonResponse({
    id: 'u1',
    Email: 'sam@fvg.local',
    name: 'Sam',
    role,
    party: null,
    access: { cw_access: options.cwAccess ?? false },
  });
}
