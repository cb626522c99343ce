import { describe, expect, it, vi } from 'vitest';
import routesCatalogue from '../locales/en/routes.json';
import {
  checkRouteGroups,
  NAV_ENTRIES,
  navEntriesFor,
  PRODUCT_ROUTES,
  pathFor,
  ROUTES,
  type RouteDef,
  type RouteName,
  routeByName,
} from './route-table.ts';
import { routeTitle } from './route-text.ts';

const SPEC_AUTH_PATHS = [
  '/profile',
  '/dashboard',
  '/dossiers',
  '/dossiers/$dossierId',
  '/transports',
  '/documents',
  '/containers',
  '/planning/list',
  '/sales-offers',
  '/sales-invoices',
  '/sales-invoices/$id',
  '/declarations',
  '/declarations/$id',
  '/declarations/import/$id/alt',
  '/declarations/export/$id/alt',
  '/declarations/transit/$id/alt',
  '/search',
  '/stock',
  '/stock/$id',
  '/stock/$id/tree',
  '/shipments',
  '/shipments/$id',
  '/shipments-alt/$id',
  '/shipments/$id/edit',
];

/** Product additions (docs/product.md), marked as such in the table. */
const PRODUCT_AUTH_PATHS = [
  '/parties',
  '/parties/$id',
  '/admin/users',
  '/admin/integration-keys',
  '/admin/company',
];

describe('route table', () => {
  it('holds every route of the specification in its group', () => {
    const byGroup = (group: string) => ROUTES.filter((def) => def.group === group).map((def) => def.path);
    expect(byGroup('guest').sort()).toEqual([
      '/guest/password/reset',
      '/login',
      '/password-forgot',
      '/welcome',
    ]);
    expect(byGroup('auth').sort()).toEqual([...SPEC_AUTH_PATHS, ...PRODUCT_AUTH_PATHS].sort());
    expect(ROUTES.filter((def) => PRODUCT_ROUTES.includes(def.name)).map((def) => def.path)).toEqual(
      PRODUCT_AUTH_PATHS,
    );
    expect(byGroup('public')).toEqual(['/logout']);
  });

  it('has unique names and paths', () => {
    expect(new Set(ROUTES.map((def) => def.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((def) => def.path)).size).toBe(ROUTES.length);
  });

  it('names /containers container-events and exempts only the reset route', () => {
    expect(pathFor('container-events')).toBe('/containers');
    expect(ROUTES.filter((def) => def.exemptFromSignedInRedirect).map((def) => def.name)).toEqual([
      'password-reset',
    ]);
  });

  it('gates exactly the warehouse routes behind cw_access', () => {
    const gated = ROUTES.filter((def) => def.requiresCwAccess).map((def) => def.path);
    expect(gated.sort()).toEqual(SPEC_AUTH_PATHS.filter((path) => /^\/(stock|shipments)/.test(path)).sort());
    expect(NAV_ENTRIES.filter((entry) => entry.requiresCwAccess).map((entry) => entry.route)).toEqual([
      'stock',
      'shipments',
    ]);
  });

  it('lists the parameter names of each path', () => {
    const params = Object.fromEntries(ROUTES.map((def) => [def.name, def.params]));
    expect(params.dossier).toEqual(['dossierId']);
    expect(params['stock-tree']).toEqual(['id']);
    expect(params.dossiers).toEqual([]);
  });

  it('gives every route a title, every navbar entry a label and every description its words in the catalogue', () => {
    expect(ROUTES.filter((def) => !(def.name in routesCatalogue.title))).toEqual([]);
    expect(NAV_ENTRIES.filter((entry) => !(entry.route in routesCatalogue.nav))).toEqual([]);
    const areas = ROUTES.flatMap((def) => (def.description ? [def.description] : []));
    expect(areas.filter((area) => !(area in routesCatalogue.description))).toEqual([]);
    expect(routeTitle('dossier')).toBe('Dossier');
  });
});

describe('pathFor', () => {
  it('builds paths with parameters', () => {
    expect(pathFor('dossiers')).toBe('/dossiers');
    expect(pathFor('dossier', { dossierId: 'D-2026-000123' })).toBe('/dossiers/D-2026-000123');
    expect(pathFor('stock-tree', { id: 42 })).toBe('/stock/42/tree');
    expect(pathFor('declaration-transit-alt', { id: 'a b/c' })).toBe('/declarations/transit/a%20b%2Fc/alt');
  });

  it('throws a clear error for a missing route name', () => {
    expect(() => pathFor('no-such-route' as RouteName)).toThrowError(
      new Error('Unknown route name "no-such-route"'),
    );
  });

  it('throws for a missing parameter', () => {
    expect(() => pathFor('shipment')).toThrowError('Missing parameter "id" for route "shipment"');
  });
});

describe('checkRouteGroups', () => {
  it('finds nothing wrong with the table', () => {
    const log = vi.fn();
    expect(checkRouteGroups(ROUTES, log)).toEqual([]);
    expect(log).not.toHaveBeenCalled();
  });

  it('logs an error for a route without a group', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stray: RouteDef = { name: 'stray', path: '/stray', group: undefined, params: [] };
    expect(checkRouteGroups([...ROUTES, stray])).toEqual([stray]);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toContain('"stray"');
  });
});

describe('navEntriesFor', () => {
  it('shows parties to staff and admins, users and integration keys to admins, warehouse entries with cw_access', () => {
    const routes = (user: Parameters<typeof navEntriesFor>[0]) => navEntriesFor(user).map((e) => e.route);
    expect(routes({ role: 'customer', cwAccess: false })).not.toContain('parties');
    expect(routes({ role: 'customer', cwAccess: false })).not.toContain('admin-users');
    expect(routes({ role: 'customer', cwAccess: true })).toContain('stock');
    expect(routes({ role: 'staff', cwAccess: false })).toContain('parties');
    expect(routes({ role: 'staff', cwAccess: false })).not.toContain('admin-users');
    expect(routes({ role: 'staff', cwAccess: false })).not.toContain('admin-integration-keys');
    expect(routes({ role: 'customer', cwAccess: true })).not.toContain('admin-integration-keys');
    expect(routes({ role: 'staff', cwAccess: false })).not.toContain('stock');
    expect(routes({ role: 'admin', cwAccess: false })).toEqual(
      expect.arrayContaining(['dossiers', 'parties', 'admin-users', 'admin-integration-keys']),
    );
    expect(routes({ role: undefined, cwAccess: false })).not.toContain('parties');
  });

  it('keeps the planning (internal) from customers, in the navbar and on its route', () => {
    const routes = (user: Parameters<typeof navEntriesFor>[0]) => navEntriesFor(user).map((e) => e.route);
    expect(routes({ role: 'customer', cwAccess: true })).not.toContain('planning-list');
    expect(routes({ role: 'staff', cwAccess: false })).toContain('planning-list');
    expect(routes({ role: 'admin', cwAccess: false })).toContain('planning-list');
    expect(routeByName('planning-list').roles).toEqual(['admin', 'staff']);
  });
});
