import type { QueryClient } from '@tanstack/react-query';
import {
  type AnyRoute,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  type RouterHistory,
  redirect,
} from '@tanstack/react-router';
import { ErrorState } from '../components/error-state.tsx';
import { NotFoundPage } from '../components/not-found-page.tsx';
import { PageLoader } from '../components/page-loader.tsx';
import {
  validateContainersSearch,
  validateIntegrationKeysSearch,
} from '../features/container-events/search.ts';
import { validateDeclarationSearch, validateDeclarationsSearch } from '../features/declarations/search.ts';
import { validateDocumentsSearch } from '../features/documents/search.ts';
import { validateDossierSearch, validateDossiersSearch } from '../features/dossiers/search.ts';
import { validatePartiesSearch, validatePartySearch } from '../features/parties/search.ts';
import { validateInvoiceSearch, validateInvoicesSearch } from '../features/sales-invoices/search.ts';
import { validateSalesOffersSearch } from '../features/sales-offers/search.ts';
import {
  validateShipmentEditSearch,
  validateShipmentSearch,
  validateShipmentsSearch,
} from '../features/shipments/api/search.ts';
import { validateStockItemSearch, validateStockSearch } from '../features/stock/api/search.ts';
import { validatePlanningSearch, validateTransportsSearch } from '../features/transports/search.ts';
import { validateUsersSearch } from '../features/users/search.ts';
import { i18n, t } from '../lib/i18n.ts';
import { safeRedirectTarget } from '../lib/redirect.ts';
import {
  checkRouteGroups,
  LOGIN_PATH,
  pathFor,
  ROUTES,
  type RouteDef,
  type RouteName,
  routeByName,
} from '../lib/route-table.ts';
import { routeTitle } from '../lib/route-text.ts';
import { loadMeResult, logout } from '../lib/session.ts';
import { pageTitle } from '../lib/title.ts';
import { decideGuard } from './guard.ts';
import { GuestLayout } from './guest-layout.tsx';
import { ROUTE_COMPONENTS } from './route-components.ts';
import { Shell } from './shell.tsx';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The route-table entry a matched route was built from. */
    routeName?: RouteName;
  }
}

export interface RouterContext {
  queryClient: QueryClient;
}

/** Search parameters of the routes that read any; everything else keeps whatever the URL carries. */
const SEARCH_VALIDATORS: Partial<
  Record<RouteName, (search: Record<string, unknown>) => Record<string, unknown>>
> = {
  login: (search) => ({ redirect: safeRedirectTarget(search.redirect) }),
  'password-reset': (search) => ({ token: typeof search.token === 'string' ? search.token : undefined }),
  search: (search) => ({
    q: typeof search.q === 'string' ? search.q : typeof search.q === 'number' ? String(search.q) : undefined,
  }),
  // Record screens: zod schemas per area (features/<area>/search.ts).
  dossiers: validateDossiersSearch,
  dossier: validateDossierSearch,
  parties: validatePartiesSearch,
  party: validatePartySearch,
  'admin-users': validateUsersSearch,
  transports: validateTransportsSearch,
  'planning-list': validatePlanningSearch,
  'container-events': validateContainersSearch,
  documents: validateDocumentsSearch,
  'sales-offers': validateSalesOffersSearch,
  'admin-integration-keys': validateIntegrationKeysSearch,
  'sales-invoices': validateInvoicesSearch,
  'sales-invoice': validateInvoiceSearch,
  declarations: validateDeclarationsSearch,
  declaration: validateDeclarationSearch,
  stock: validateStockSearch,
  'stock-item': validateStockItemSearch,
  shipments: validateShipmentsSearch,
  shipment: validateShipmentSearch,
  'shipment-edit': validateShipmentEditSearch,
};

interface BeforeLoadArgs {
  context: RouterContext;
  location: { href: string };
  preload: boolean;
}

/** The route guard of one route: loads `me` (through the query cache) and applies decideGuard. */
function guardOf(def: RouteDef<RouteName>) {
  return async ({ context, location }: BeforeLoadArgs): Promise<void> => {
    const decision = decideGuard(def, await loadMeResult(context.queryClient));
    if (decision.kind === 'allow') return;
    if (decision.to === LOGIN_PATH) {
      throw redirect({
        to: LOGIN_PATH,
        search: { redirect: safeRedirectTarget(location.href) },
        replace: true,
      });
    }
    throw redirect({ to: decision.to, replace: true });
  };
}

/** /logout: clears the session, then goes to the login screen. Never on a hover preload. */
function logoutBeforeLoad({ context, preload }: BeforeLoadArgs): void {
  if (preload) return;
  logout(context.queryClient);
  throw redirect({ to: LOGIN_PATH, replace: true });
}

/** The tab title of what is on screen: the deepest matched route of the table, or not-found. */
export function titleOfMatches(
  matches: readonly { staticData?: { routeName?: RouteName }; params?: unknown; status?: string }[],
): string {
  const leaf = matches.at(-1);
  const routeName = leaf?.staticData?.routeName;
  if (!leaf || !routeName || leaf.status === 'notFound') return pageTitle(t('shell:notFound.title'));
  return pageTitle(routeTitle(routeName), (leaf.params ?? {}) as Record<string, unknown>, {
    draftsById: routeByName(routeName).draftsById,
  });
}

export interface AppRouterOptions {
  /** Browser history by default; tests pass a memory history. */
  history?: RouterHistory;
}

export function createAppRouter(queryClient: QueryClient, options: AppRouterOptions = {}) {
  checkRouteGroups();

  const rootRoute = createRootRouteWithContext<RouterContext>()({
    component: Outlet,
    notFoundComponent: NotFoundPage,
  });
  const guestLayout = createRoute({
    getParentRoute: () => rootRoute,
    id: 'guest-layout',
    component: GuestLayout,
  });
  const authLayout = createRoute({ getParentRoute: () => rootRoute, id: 'auth-layout', component: Shell });

  const children: Record<'guest' | 'auth' | 'root', AnyRoute[]> = { guest: [], auth: [], root: [] };

  for (const def of ROUTES) {
    const parent: AnyRoute =
      def.group === 'guest' ? guestLayout : def.group === 'auth' ? authLayout : (rootRoute as AnyRoute);
    const validateSearch = SEARCH_VALIDATORS[def.name];
    const routeOptions = {
      getParentRoute: () => parent,
      path: def.path,
      staticData: { routeName: def.name },
      beforeLoad: def.group === 'public' ? logoutBeforeLoad : guardOf(def),
      component: lazyRouteComponent(ROUTE_COMPONENTS[def.name]),
      ...(validateSearch ? { validateSearch } : {}),
    };
    const route = createRoute(
      routeOptions as unknown as Parameters<typeof createRoute>[0],
    ) as unknown as AnyRoute;
    children[def.group === 'guest' ? 'guest' : def.group === 'auth' ? 'auth' : 'root'].push(route);
  }

  // `/` is no screen of its own: it leads to the dossiers, whose guard sends a signed-out visitor on
  // to /login (ADR 0009). Any other unknown path keeps the not-found page.
  const homeRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    beforeLoad: () => {
      throw redirect({ href: pathFor('dossiers'), replace: true });
    },
  });

  const routeTree = rootRoute.addChildren([
    homeRoute,
    guestLayout.addChildren(children.guest),
    authLayout.addChildren(children.auth),
    ...children.root,
  ]);

  const router = createRouter({
    routeTree,
    context: { queryClient },
    ...(options.history ? { history: options.history } : {}),
    defaultPreload: 'intent',
    defaultPendingComponent: PageLoader,
    defaultPendingMs: 300,
    defaultErrorComponent: ({ error, reset }) => <ErrorState error={error} onRetry={reset} />,
    notFoundMode: 'root',
    scrollRestoration: true,
  });

  const applyTitle = () => {
    document.title = titleOfMatches(router.state.matches);
  };
  router.subscribe('onResolved', applyTitle);
  // The profile's language applies to the tab title at once, not with the next navigation.
  i18n.on('languageChanged', applyTitle);

  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;
