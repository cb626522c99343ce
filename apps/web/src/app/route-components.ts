import type { ComponentType } from 'react';
import type { RouteName } from '../lib/route-table.ts';

type ScreenModule = { default: ComponentType };

/**
 * The screen of every route, loaded on demand: each screen is its own chunk, so the first load
 * carries only the shell. Typed as a Record so a route without a screen does not compile.
 */
export const ROUTE_COMPONENTS: Record<RouteName, () => Promise<ScreenModule>> = {
  login: () => import('../routes/login.tsx'),
  'password-forgot': () => import('../routes/password-forgot.tsx'),
  'password-reset': () => import('../routes/password-reset.tsx'),
  welcome: () => import('../routes/welcome.tsx'),
  logout: () => import('../routes/logout.tsx'),
  profile: () => import('../routes/profile.tsx'),
  dashboard: () => import('../routes/dashboard.tsx'),
  dossiers: () => import('../routes/dossiers.tsx'),
  dossier: () => import('../routes/dossier.tsx'),
  transports: () => import('../routes/transports.tsx'),
  documents: () => import('../routes/documents.tsx'),
  'container-events': () => import('../routes/container-events.tsx'),
  'planning-list': () => import('../routes/planning-list.tsx'),
  'sales-offers': () => import('../routes/sales-offers.tsx'),
  'sales-invoices': () => import('../routes/sales-invoices.tsx'),
  'sales-invoice': () => import('../routes/sales-invoice.tsx'),
  declarations: () => import('../routes/declarations.tsx'),
  declaration: () => import('../routes/declaration.tsx'),
  'declaration-import-alt': () => import('../routes/declaration-import-alt.tsx'),
  'declaration-export-alt': () => import('../routes/declaration-export-alt.tsx'),
  'declaration-transit-alt': () => import('../routes/declaration-transit-alt.tsx'),
  search: () => import('../routes/search.tsx'),
  stock: () => import('../routes/stock.tsx'),
  'stock-item': () => import('../routes/stock-item.tsx'),
  'stock-tree': () => import('../routes/stock-tree.tsx'),
  shipments: () => import('../routes/shipments.tsx'),
  shipment: () => import('../routes/shipment.tsx'),
  'shipment-alt': () => import('../routes/shipment-alt.tsx'),
  'shipment-edit': () => import('../routes/shipment-edit.tsx'),
  parties: () => import('../routes/parties.tsx'),
  party: () => import('../routes/party.tsx'),
  'admin-users': () => import('../routes/admin-users.tsx'),
  'admin-integration-keys': () => import('../routes/admin-integration-keys.tsx'),
  'admin-company': () => import('../routes/admin-company.tsx'),
};
