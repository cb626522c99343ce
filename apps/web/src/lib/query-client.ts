import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/api-client.ts';
import { sessionKeys } from '../lib/session.ts';

/** 4xx answers (401, 403, 404, validation…) will not change by asking again; other failures get two more tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export interface QueryClientOptions {
  /** A business query answered 401: the token expired or was revoked. */
  onUnauthorized?: () => void;
}

export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        const isSessionQuery = query.queryKey[0] === sessionKeys.all[0];
        if (isApiError(error) && error.status === 401 && !isSessionQuery) options.onUnauthorized?.();
      },
    }),
    // 'always': a request is made even when the browser says it is offline, so it fails and the
    // screen shows its error with "Try again" (and the shell its offline notice); TanStack's default
    // ('online') pauses it instead, which showed skeleton rows for as long as the connection was gone.
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
