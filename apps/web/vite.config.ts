import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The API server of `npm run dev` (apps/api); the dev server forwards /api to it, hub WebSockets included. */
const apiProxy = {
  '/api': { target: 'http://localhost:3000', ws: true },
};

/*
 * Vendor code of the first load goes into a few long-lived chunks that change only with dependency
 * updates (`$initial`: statically reachable from the entry). Vendor code only screens use (forms,
 * inputs the shell does not need) stays with the lazy screen chunks, which are split by their
 * dynamic imports (app/route-components.ts): one chunk per screen, with code an area's screens
 * share split out automatically.
 */
const initialVendor = (name: string, test: RegExp, priority: number) => ({
  name,
  test,
  priority,
  tags: ['$initial' as const],
});
const vendorChunks = [
  initialVendor('react', /node_modules[\\/](react|react-dom|scheduler)[\\/]/, 40),
  initialVendor('router', /node_modules[\\/]@tanstack[\\/]/, 30),
  initialVendor(
    'mantine',
    /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-transition-group)/,
    20,
  ),
  initialVendor('zod', /node_modules[\\/]zod[\\/]/, 20),
  { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/, priority: 20 },
];

export default defineConfig({
  root,
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: vendorChunks } },
    },
  },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
});
