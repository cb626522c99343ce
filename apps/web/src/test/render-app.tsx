import { createMemoryHistory } from '@tanstack/react-router';
import { act, render } from '@testing-library/react';
import { Providers } from '../app/providers.tsx';
import { createAppRouter } from '../app/router.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { setToken } from '../lib/session.ts';
import { FakeHubConnection } from './fake-hub-connection.ts';

export interface RenderAppOptions {
  /** Signs in with this token first (the API stub answers /api/me); none: as a visitor. */
  token?: string;
  /** The hub connection the app gets; by default a fresh fake one per connect, started at once. */
  hubConnection?: FakeHubConnection;
}

/**
 * The whole app (providers, router, guards, shell) at `path` in memory history, for tests of a
 * screen that runs outside the shell or of what the router decides. Tests of features use this
 * instead of importing app/ themselves (ADR 0056: only src/test/ may import every layer).
 */
export async function renderApp(path: string, options: RenderAppOptions = {}) {
  if (options.token !== undefined) setToken(options.token);
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, { history: createMemoryHistory({ initialEntries: [path] }) });
  const hubOptions = {
    createConnection: () => options.hubConnection ?? new FakeHubConnection({ autoStart: true }),
    wakeTarget: null,
    restartDelayMs: 0,
  };
  const result = render(<Providers queryClient={queryClient} router={router} hubOptions={hubOptions} />);
  await act(() => router.load());
  return { ...result, router, queryClient };
}
