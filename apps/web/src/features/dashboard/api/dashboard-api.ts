import { type DashboardCardName, dashboardCardSchema, dashboardIndexSchema } from '@fvg/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { dashboardKeys } from './keys.ts';

/** `GET /api/dashboard`: the cards this user gets, in layout order. */
export function dashboardIndexOptions() {
  return queryOptions({
    queryKey: dashboardKeys.index(),
    queryFn: ({ signal }) => api.get('dashboard', { signal, schema: dashboardIndexSchema }),
  });
}

/** `GET /api/dashboard/<card>?tz=`: one card, counted in the user's zone. */
export function dashboardCardOptions(card: DashboardCardName, timeZone: string) {
  return queryOptions({
    queryKey: dashboardKeys.cardIn(card, timeZone),
    queryFn: ({ signal }) =>
      api.get(withQuery(`dashboard/${card}`, { tz: timeZone }), { signal, schema: dashboardCardSchema }),
    // Live updates refresh a card when its records change; a minute covers a missed event.
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}
