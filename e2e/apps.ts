/**
 * The apps global-setup.ts started, one per Playwright worker (ADR 0063): where each answers, where its
 * SMTP receiver writes the mail, and its data folder (for the operator command). Passed to the workers
 * as JSON in one environment variable.
 */
export interface E2eApp {
  baseUrl: string;
  mailDir: string;
  dataDir: string;
}

export const E2E_APPS_VARIABLE = 'E2E_APPS';

/** The app of the worker in slot `parallelIndex` (a worker started again after a failure keeps its slot). */
export function appOfWorker(parallelIndex: number): E2eApp {
  const apps = JSON.parse(process.env[E2E_APPS_VARIABLE] ?? '[]') as E2eApp[];
  const app = apps[parallelIndex % Math.max(1, apps.length)];
  if (!app)
    throw new Error(`no e2e app started (${E2E_APPS_VARIABLE} is empty): run through global-setup.ts`);
  return app;
}
