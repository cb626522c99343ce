import type { SearchLink } from '@fvg/contracts';

/**
 * The list endpoint behind each list screen a dashboard figure links to. The screens name their URL
 * filters as the API names them (features/<area>/search.ts), so the link's search IS the list query,
 * less what only the screen reads (a tab, a dialog).
 */
export const LIST_ENDPOINTS: Readonly<Record<string, string>> = {
  dossiers: '/api/dossiers',
  transports: '/api/transports',
  declarations: '/api/declarations',
  'sales-invoices': '/api/sales-invoices',
  'container-events': '/api/containers',
  stock: '/api/stock',
  shipments: '/api/shipments',
};

const SCREEN_ONLY = new Set(['tab', 'open', 'new', 'edit', 'add', 'view', 'page', 'pageSize', 'sort']);

/** `GET <path>?<query>` that lists what a figure's link shows: its `total` is the figure. */
export function listRequestOf(link: SearchLink): { path: string; query: Record<string, string> } {
  const path = LIST_ENDPOINTS[link.route];
  if (!path) throw new Error(`No list endpoint for the route ${link.route}`);
  const query = Object.fromEntries(Object.entries(link.search ?? {}).filter(([k]) => !SCREEN_ONLY.has(k)));
  return { path, query };
}
