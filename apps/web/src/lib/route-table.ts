/*
 * Every route of the specification (§2) as plain data: no React here, so end-to-end tests and
 * tools can import it. The router (app/router.tsx), the guard, the tab title and the navbar read it.
 * The words (screen titles, descriptions, navbar labels) are in the catalogue
 * (locales/en/routes.json: `title.<name>`, `description.<area>`, `nav.<name>`; ADR 0038), read
 * through route-text.ts, so this table stays language-free.
 *
 * Groups:
 * - 'guest': only for visitors who are not signed in; a signed-in user is sent to the dossiers list,
 *   except on routes marked `exemptFromSignedInRedirect` (the password reset link must work even
 *   while someone is signed in in that browser).
 * - 'auth': only for signed-in users; the others are sent to /login.
 * - 'public': neither. Only /logout: it has to run whoever opens it (signed in or not) and must not
 *   fetch the user record first, so no guard applies. It is an explicit setting, so it is not
 *   reported as a missing group.
 * A route whose group is missing is reported by checkRouteGroups() at start-up, and the guard
 * treats it like an auth route (fail closed).
 */

import type { Role } from '@fvg/contracts';

export type RouteGroup = 'guest' | 'auth' | 'public';
export const ROUTE_GROUPS: readonly RouteGroup[] = ['guest', 'auth', 'public'];

export type DeclarationTag = 'import' | 'export' | 'transit';

export interface RouteDef<N extends string = string> {
  /** Stable name, used for pathFor() and as the React component key. */
  readonly name: N;
  /** TanStack Router path; parameters are written `$name`. */
  readonly path: string;
  readonly group: RouteGroup | undefined;
  /** Parameter names of the path, in order. */
  readonly params: readonly string[];
  /** Guest routes only: a signed-in user may still open it. */
  readonly exemptFromSignedInRedirect?: boolean;
  /** Warehouse routes: shown only to users with the cw_access flag. */
  readonly requiresCwAccess?: boolean;
  /** What the area is for, shown on its placeholder screen (the catalogue's `description.<area>`). */
  readonly description?: RouteDescription;
  /** Alternate declaration views carry the declaration type as a tag. */
  readonly tag?: DeclarationTag;
  /** Only these roles use the screen (every signed-in role when absent); the others see "No access". */
  readonly roles?: readonly Role[];
  /**
   * Its records get their number when issued: an id in the address is a draft's, and the tab title says
   * "draft" rather than the id (issue 27 item 1).
   */
  readonly draftsById?: boolean;
}

type RouteInput<N extends string> = Omit<RouteDef<N>, 'params'>;

export function paramsOfPath(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith('$'))
    .map((segment) => segment.slice(1));
}

function route<const N extends string>(input: RouteInput<N>): RouteDef<N> {
  return { ...input, params: paramsOfPath(input.path) };
}

/** The areas whose description (locales/en/routes.json `description.<area>`) a placeholder screen shows. */
export type RouteDescription =
  | 'dossiers'
  | 'transports'
  | 'documents'
  | 'containers'
  | 'planning'
  | 'offers'
  | 'invoices'
  | 'declarations'
  | 'declarationAlt'
  | 'search'
  | 'stock'
  | 'shipments'
  | 'parties'
  | 'users'
  | 'integrationKeys'
  | 'company'
  | 'dashboard';

const ROUTE_DATA = [
  // Guest-only screens.
  route({ name: 'login', path: '/login', group: 'guest' }),
  route({ name: 'password-forgot', path: '/password-forgot', group: 'guest' }),
  route({
    name: 'password-reset',
    path: '/guest/password/reset',
    group: 'guest',
    exemptFromSignedInRedirect: true,
  }),
  route({ name: 'welcome', path: '/welcome', group: 'guest' }),

  // Clears the session and goes to /login.
  route({ name: 'logout', path: '/logout', group: 'public' }),

  // Signed-in screens, inside the shell.
  route({ name: 'profile', path: '/profile', group: 'auth' }),
  route({
    name: 'dashboard',
    path: '/dashboard',
    group: 'auth',
    description: 'dashboard',
  }),
  route({
    name: 'dossiers',
    path: '/dossiers',
    group: 'auth',
    description: 'dossiers',
  }),
  route({
    name: 'dossier',
    path: '/dossiers/$dossierId',
    group: 'auth',
    description: 'dossiers',
  }),
  route({
    name: 'transports',
    path: '/transports',
    group: 'auth',
    description: 'transports',
  }),
  route({
    name: 'documents',
    path: '/documents',
    group: 'auth',
    description: 'documents',
  }),
  route({
    name: 'container-events',
    path: '/containers',
    group: 'auth',
    description: 'containers',
  }),
  route({
    name: 'planning-list',
    path: '/planning/list',
    group: 'auth',
    description: 'planning',
    // Internal planning (its flags name other parties' legs on the same vehicle): the API refuses it too.
    roles: ['admin', 'staff'],
  }),
  route({
    name: 'sales-offers',
    path: '/sales-offers',
    group: 'auth',
    description: 'offers',
  }),
  route({
    name: 'sales-invoices',
    path: '/sales-invoices',
    group: 'auth',
    description: 'invoices',
  }),
  route({
    name: 'sales-invoice',
    path: '/sales-invoices/$id',
    group: 'auth',
    description: 'invoices',
    draftsById: true,
  }),
  route({
    name: 'declarations',
    path: '/declarations',
    group: 'auth',
    description: 'declarations',
  }),
  route({
    name: 'declaration',
    path: '/declarations/$id',
    group: 'auth',
    description: 'declarations',
  }),
  route({
    name: 'declaration-import-alt',
    path: '/declarations/import/$id/alt',
    group: 'auth',
    description: 'declarationAlt',
    tag: 'import',
  }),
  route({
    name: 'declaration-export-alt',
    path: '/declarations/export/$id/alt',
    group: 'auth',
    description: 'declarationAlt',
    tag: 'export',
  }),
  route({
    name: 'declaration-transit-alt',
    path: '/declarations/transit/$id/alt',
    group: 'auth',
    description: 'declarationAlt',
    tag: 'transit',
  }),
  route({
    name: 'search',
    path: '/search',
    group: 'auth',
    description: 'search',
  }),
  route({
    name: 'stock',
    path: '/stock',
    group: 'auth',
    description: 'stock',
    requiresCwAccess: true,
  }),
  route({
    name: 'stock-item',
    path: '/stock/$id',
    group: 'auth',
    description: 'stock',
    requiresCwAccess: true,
  }),
  route({
    name: 'stock-tree',
    path: '/stock/$id/tree',
    group: 'auth',
    description: 'stock',
    requiresCwAccess: true,
  }),
  route({
    name: 'shipments',
    path: '/shipments',
    group: 'auth',
    description: 'shipments',
    requiresCwAccess: true,
  }),
  route({
    name: 'shipment',
    path: '/shipments/$id',
    group: 'auth',
    description: 'shipments',
    requiresCwAccess: true,
  }),
  route({
    name: 'shipment-alt',
    path: '/shipments-alt/$id',
    group: 'auth',
    description: 'shipments',
    requiresCwAccess: true,
  }),
  route({
    name: 'shipment-edit',
    path: '/shipments/$id/edit',
    group: 'auth',
    description: 'shipments',
    requiresCwAccess: true,
  }),

  // Product additions (docs/product.md), not in the specification's route table: the parties the
  // dossiers refer to, and the admin's user management. Signed-in screens like the others.
  route({
    name: 'parties',
    path: '/parties',
    group: 'auth',
    description: 'parties',
  }),
  route({
    name: 'party',
    path: '/parties/$id',
    group: 'auth',
    description: 'parties',
  }),
  route({
    name: 'admin-users',
    path: '/admin/users',
    group: 'auth',
    description: 'users',
  }),
  route({
    name: 'admin-integration-keys',
    path: '/admin/integration-keys',
    group: 'auth',
    description: 'integrationKeys',
  }),
  route({
    name: 'admin-company',
    path: '/admin/company',
    group: 'auth',
    description: 'company',
  }),
];

/** Routes the product adds to the specification's table (see the comment above them). */
export const PRODUCT_ROUTES: readonly RouteName[] = [
  'parties',
  'party',
  'admin-users',
  'admin-integration-keys',
  'admin-company',
];

export type RouteName = (typeof ROUTE_DATA)[number]['name'];

export const ROUTES: readonly RouteDef<RouteName>[] = ROUTE_DATA;

const ROUTES_BY_NAME: ReadonlyMap<string, RouteDef<RouteName>> = new Map(
  ROUTES.map((def) => [def.name, def] as const),
);

/** Where a signed-in user lands; where guest routes send a signed-in user. */
export const HOME_PATH = '/dossiers';
/** Where auth routes send a signed-out user. */
export const LOGIN_PATH = '/login';

export function isRouteName(name: string): name is RouteName {
  return ROUTES_BY_NAME.has(name);
}

/** The route of that name; throws for a name that does not exist (specification §8). */
export function routeByName(name: RouteName): RouteDef<RouteName> {
  const def = ROUTES_BY_NAME.get(name);
  if (!def) throw new Error(`Unknown route name "${name}"`);
  return def;
}

/** The list a record screen belongs to: the route one path segment up (`/dossiers/$dossierId` → `/dossiers`). */
export function listRouteOf(name: RouteName): RouteDef<RouteName> | undefined {
  const parent = routeByName(name).path.split('/').slice(0, -1).join('/');
  return ROUTES.find((r) => r.path === parent);
}

/**
 * The path of a named route with its parameters filled in (URL-encoded), e.g.
 * pathFor('dossier', { dossierId: 'D-1' }) → '/dossiers/D-1'. Throws for an unknown name or a
 * missing parameter.
 */
export function pathFor(name: RouteName, params: Readonly<Record<string, string | number>> = {}): string {
  const def = routeByName(name);
  return def.path.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_match, param: string) => {
    const value = params[param];
    if (value === undefined || value === '') {
      throw new Error(`Missing parameter "${param}" for route "${name}"`);
    }
    return encodeURIComponent(String(value));
  });
}

/** Logs (console.error by default) every route without a valid group; returns those routes. */
export function checkRouteGroups(
  routes: readonly RouteDef[] = ROUTES,
  log: (message: string) => void = console.error,
): RouteDef[] {
  const invalid = routes.filter((def) => def.group === undefined || !ROUTE_GROUPS.includes(def.group));
  for (const def of invalid) log(`Route "${def.name}" (${def.path}) has no group setting (guest or auth).`);
  return invalid;
}

export interface NavEntry {
  readonly route: RouteName;
  /** data-testid of the navbar link. */
  readonly testId: string;
  /** Path prefixes under which the entry shows as active. */
  readonly activeOn: readonly string[];
  readonly requiresCwAccess?: boolean;
  /** Shown only to these roles (all roles when absent). */
  readonly roles?: readonly Role[];
}

/** The shell's navbar, in order. Warehouse entries only show with cw_access; some only to some roles. */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { route: 'dashboard', testId: 'nav-dashboard', activeOn: ['/dashboard'] },
  { route: 'dossiers', testId: 'nav-dossiers', activeOn: ['/dossiers'] },
  { route: 'transports', testId: 'nav-transports', activeOn: ['/transports'] },
  {
    route: 'planning-list',
    testId: 'nav-planning',
    activeOn: ['/planning'],
    roles: ['admin', 'staff'],
  },
  { route: 'documents', testId: 'nav-documents', activeOn: ['/documents'] },
  { route: 'container-events', testId: 'nav-containers', activeOn: ['/containers'] },
  { route: 'sales-offers', testId: 'nav-sales-offers', activeOn: ['/sales-offers'] },
  {
    route: 'sales-invoices',
    testId: 'nav-sales-invoices',
    activeOn: ['/sales-invoices'],
  },
  { route: 'declarations', testId: 'nav-declarations', activeOn: ['/declarations'] },
  {
    route: 'parties',
    testId: 'nav-parties',
    activeOn: ['/parties'],
    roles: ['admin', 'staff'],
  },
  { route: 'search', testId: 'nav-search', activeOn: ['/search'] },
  { route: 'stock', testId: 'nav-stock', activeOn: ['/stock'], requiresCwAccess: true },
  {
    route: 'shipments',
    testId: 'nav-shipments',
    activeOn: ['/shipments', '/shipments-alt'],
    requiresCwAccess: true,
  },
  {
    route: 'admin-users',
    testId: 'nav-admin-users',
    activeOn: ['/admin/users'],
    roles: ['admin'],
  },
  {
    route: 'admin-integration-keys',
    testId: 'nav-admin-integration-keys',
    activeOn: ['/admin/integration-keys'],
    roles: ['admin'],
  },
  {
    route: 'admin-company',
    testId: 'nav-admin-company',
    activeOn: ['/admin/company'],
    roles: ['admin'],
  },
];

/** The navbar entries a user sees: warehouse entries need cw_access, role-bound entries the role. */
export function navEntriesFor(user: { role?: Role | undefined; cwAccess: boolean }): NavEntry[] {
  return NAV_ENTRIES.filter(
    (entry) =>
      (!entry.requiresCwAccess || user.cwAccess) &&
      (!entry.roles || (user.role !== undefined && entry.roles.includes(user.role))),
  );
}

/** Whether a pathname lies under one of the prefixes (segment-wise: '/stock' matches '/stock/1', not '/stocks'). */
export function isUnderPath(pathname: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}
