import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** Workers side by side (E2E_WORKERS, default 1; 2 gives each worker an app of its own, ADR 0063). */
const workers = Number.parseInt(process.env.E2E_WORKERS ?? '1', 10);
if (!Number.isInteger(workers) || workers < 1) throw new Error('E2E_WORKERS must be a whole number from 1');

/**
 * The browser: CHROMIUM_PATH, else Debian's headless shell (`apt-get install chromium-headless-shell`:
 * the same Chromium build without the desktop browser around it, what Playwright itself runs headless;
 * about a third less time than the full browser here, ADR 0064), else Debian's full `chromium`.
 */
const chromium =
  process.env.CHROMIUM_PATH ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ||
  '/usr/bin/chromium';

/**
 * End-to-end tests in Debian's Chromium (Playwright cannot download browsers here) against the built
 * app, started by `global-setup.ts` exactly as `npm start` starts it, once per worker, each on its own
 * data folder. A spec file runs whole in one worker, its tests in order (ADR 0063).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  // Playwright empties its output folder when it starts: a folder of its own, so the UBL the API tests
  // write to test-results/ubl survives an e2e stage that starts beside or after them (ADR 0063).
  outputDir: '../test-results/e2e',
  use: {
    // A trace is recorded on a failed test's retry only: recording one for every test (kept on failure)
    // cost a third of the run's time (ADR 0064).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
