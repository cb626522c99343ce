import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback } from 'react';

export type SearchPatch = Record<string, string | number | undefined>;

export interface SetSearchOptions {
  /** Replace the history entry instead of adding one (typing in a search box). */
  replace?: boolean;
}

function withoutEmpty(search: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(search).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
}

/**
 * The current route's search parameters (already validated by the route's zod schema) and a setter
 * that merges a patch into them. Unset values (undefined, '') leave the URL.
 */
export function useRouteSearch<S extends Record<string, unknown> = Record<string, unknown>>() {
  const search = useSearch({ strict: false }) as S;
  const navigate = useNavigate();
  const setSearch = useCallback(
    (patch: SearchPatch, options: SetSearchOptions = {}) => {
      void navigate({
        to: '.',
        search: (previous: Record<string, unknown>) => withoutEmpty({ ...previous, ...patch }),
        replace: options.replace ?? false,
      } as Parameters<typeof navigate>[0]);
    },
    [navigate],
  );
  return [search, setSearch] as const;
}
