import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import RetriedReporter from './scripts/ci/retried-reporter.ts';
import ProcessesSpread from './scripts/ci/sequencer.ts';

/**
 * Web test files that need a fresh module graph: they assert what a first load does (a lazy chunk not
 * loaded yet, a registry filled from empty). Every other web file shares its worker's modules.
 */
const WEB_ISOLATED = [
  'apps/web/src/components/toasts.test.tsx',
  'apps/web/src/components/records/filter-bar.test.tsx',
  'apps/web/src/components/records/transition-buttons.test.tsx',
  'apps/web/src/lib/live-updates.test.ts',
];

function webProject(name: string, files: { include?: string[]; exclude?: string[]; isolate: boolean }) {
  return {
    plugins: [react()],
    test: {
      name,
      include: files.include ?? ['apps/web/src/**/*.test.{ts,tsx}'],
      exclude: [...(files.exclude ?? []), '**/node_modules/**'],
      isolate: files.isolate,
      environment: 'jsdom' as const,
      setupFiles: ['apps/web/src/test/setup.ts'],
      // Form tests type through user-event and take 3-5 s on a loaded 2-core machine, and npm test
      // runs this beside the e2e stage: the timeout only catches a hung test.
      testTimeout: 60_000,
      // In CI one retry for a test that lost a race to the load (focus and lazy-chunk waits seen
      // failing in 1-2 s beside the type check and pass alone); a broken test still fails twice.
      retry: process.env.CI ? 1 : 0,
    },
  };
}

export default defineConfig({
  test: {
    // Three files at a time (Vitest's default is one on a 2-core machine): most API files spend their
    // time waiting for PostgreSQL or for the processes they start. VITEST_MAX_WORKERS overrides it.
    maxWorkers: 3,
    // API and web files in turns, the files that start processes spread out (scripts/ci/sequencer.ts).
    sequence: { sequencer: ProcessesSpread },
    // Vitest's own output, then a `retried:` line for each test that passed only on its CI retry.
    reporters: ['default', new RetriedReporter()],
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
          // Pure schema and rule tests without module state: one worker evaluates the package once.
          isolate: false,
          // A few tests import a module inside the test; beside the other stages that can pass 5 s.
          testTimeout: 20_000,
        },
      },
      {
        // The project's own tooling: npm test's stages, CI's choice of files for the external server, the
        // import rules of .dependency-cruiser.cjs. No DB, no DOM.
        test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' },
      },
      // The web tests share one jsdom and one module graph per worker (isolate: false): creating jsdom and
      // evaluating React, Mantine and the app for each of 107 files was 80 % of their CPU (652 s against
      // 153 s, ADR 0065). test/setup.ts puts the app's module-level preferences back after each file;
      // the few files that test what happens the first time a module loads run isolated.
      webProject('web', { exclude: WEB_ISOLATED, isolate: false }),
      webProject('web-isolated', { include: WEB_ISOLATED, isolate: true }),
      {
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/api/src/test/global-setup.ts'],
          // Hang guards, with room for a 2-core machine that runs the e2e stage beside this one
          // (a beforeAll that seeds the demo company, for one).
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // In CI one retry, as for the web tests: one lost race in 2 000 tests under a loaded machine
          // failed a whole run (stop 31). A retried test is named at the end of the run (retried-reporter).
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
