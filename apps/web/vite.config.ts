import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';
import { zodWithoutJsonSchema } from './build/zod-without-json-schema.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The API server of `npm run dev` (apps/api); the dev server forwards /api to it, hub WebSockets included. */
const apiProxy = {
  '/api': { target: 'http://localhost:3000', ws: true },
};

/*
 * Chunks (ADR 0023; `npm run bench:web` measures the first load of /dossiers against its budget):
 * - the first load (`$initial`: statically reachable from the entry) in a few long-lived vendor chunks
 *   that change only with dependency updates, and one `shell` chunk with the app's own start code;
 * - `list`: what every list screen needs at first paint (ListPage, DataTable, FilterBar, their
 *   Mantine inputs, TanStack Table and Virtual), one chunk shared by all lists;
 * - `dialogs`: Mantine's Modal with RecordModal's and ConfirmDialog's frames, loaded when one opens;
 * - `forms`: react-hook-form and the shared form pieces, loaded when a dialog or an edit opens
 *   (forms are lazy: lib/lazy-component.ts); `dates`: the date pickers and dayjs, loaded with a form
 *   or when a date filter is reached for;
 * - `data-<area>`: an area's query keys, queries, mutations, value labels and its contract module
 *   (packages/contracts/src/<area>.ts), loaded with the first screen that reads them; `contracts`: the
 *   schema pieces areas share; `data`: the lib helpers and the hub's SignalR client. The router and
 *   the shell read an area's enums from its zod-free `<area>-values.ts`, so no area's schemas ride in
 *   the shell (ADR 0023, second pass);
 * - `icons`: every icon in one chunk (a few hundred bytes each: as separate chunks their requests
 *   cost more than their code);
 * - everything else per screen, split by the dynamic imports of app/route-components.ts.
 * A group takes its modules' dependencies along unless a group of higher priority has them.
 */
const initialVendor = (name: string, test: RegExp, priority: number) => ({
  name,
  test,
  priority,
  tags: ['$initial' as const],
});
const sourceFile = (dir: string, files: string[]) =>
  new RegExp(`[\\\\/]src[\\\\/]${dir}[\\\\/](${files.join('|')})\\.tsx?$`);
const LIST_MODULES = [
  sourceFile('components/records', [
    'list-page',
    'data-table',
    'filter-bar',
    'paging-control',
    'export-menu',
    'status-badge',
    'record-modal',
  ]),
  sourceFile('components', ['screen-frame', 'admin-screen']),
];
const FORM_MODULES = [
  /node_modules[\\/](react-hook-form|@hookform)[\\/]/,
  sourceFile('components/records', ['record-form', 'form-fields']),
];
const DIALOG_MODULES = [sourceFile('components/records', ['record-modal-dialog', 'confirm-dialog'])];
/** An area's queries, mutations and value labels: `data-<area>`, loaded with the first screen that reads it. */
const AREA_DATA = /[\\/]src[\\/]features[\\/]([^\\/]+)[\\/](api[\\/]|components[\\/][^\\/]+-meta\.ts$)/;
/** An area's schemas (packages/contracts/src/<area>.ts) travel with its queries. */
const AREA_CONTRACTS =
  /[\\/]packages[\\/]contracts[\\/]src[\\/](company|container-events|dashboard|declarations|documents|dossiers|sales-invoices|sales-offers|search|shipments|stock|transports|users)\.ts$/;
const areaDataChunk = (id: string) => {
  const area = AREA_DATA.exec(id)?.[1] ?? AREA_CONTRACTS.exec(id)?.[1];
  return area ? `data-${area}` : null;
};
/** The schema pieces areas share (primitives, money, validators …): one chunk, so no area's chunk holds another's. */
const SHARED_CONTRACTS = /[\\/]packages[\\/]contracts[\\/]src[\\/]/;
const DATA_MODULES = [
  /[\\/]src[\\/]lib[\\/]/,
  /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/,
];
const PUBLIC_ENTRY = /[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/;
const vendorChunks = [
  initialVendor('react', /node_modules[\\/](react|react-dom|scheduler)[\\/]/, 40),
  initialVendor('router', /node_modules[\\/]@tanstack[\\/]/, 30),
  initialVendor(
    'mantine',
    /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-transition-group)/,
    20,
  ),
  initialVendor('zod', /node_modules[\\/]zod[\\/]/, 20),
  { name: 'icons', test: /node_modules[\\/]@tabler[\\/]icons-react[\\/]/, priority: 25 },
  { name: 'shell', test: /./, priority: 10, tags: ['$initial' as const] },
  { name: 'dates', test: /node_modules[\\/](@mantine[\\/]dates|dayjs)[\\/]/, priority: 8 },
  { name: 'list', test: (id: string) => LIST_MODULES.some((re) => re.test(id)), priority: 9 },
  { name: 'dialogs', test: (id: string) => DIALOG_MODULES.some((re) => re.test(id)), priority: 7 },
  { name: 'forms', test: (id: string) => FORM_MODULES.some((re) => re.test(id)), priority: 5 },
  {
    name: 'contracts',
    test: (id: string) => SHARED_CONTRACTS.test(id) && !AREA_CONTRACTS.test(id),
    priority: 7,
  },
  {
    name: areaDataChunk,
    debugName: 'data-<area>',
    test: (id: string) => AREA_DATA.test(id) || AREA_CONTRACTS.test(id),
    priority: 6,
  },
  { name: 'data', test: (id: string) => DATA_MODULES.some((re) => re.test(id)), priority: 3 },
];

export default defineConfig({
  root,
  plugins: [react(), zodWithoutJsonSchema(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      treeshake: {
        manualPureFunctions: ['z'],
        // A feature's public entry (features/<area>/index.ts, ADR 0056) only re-exports: importing one
        // name from it must not pull the area's other modules (their query-key registrations) along.
        moduleSideEffects: (id: string) => (PUBLIC_ENTRY.test(id) ? false : undefined),
      },
      output: { codeSplitting: { groups: vendorChunks } },
    },
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
});
