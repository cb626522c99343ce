import { SERVICE_WORKER_SCOPE, SERVICE_WORKER_URL } from '@fvg/contracts';

/*
 * Registers the hand-written service worker (public/sw.js) at /sw.js with scope / (specification §9).
 * Only in production builds: in the dev server it would cache modules Vite serves fresh, and tests
 * have no service workers. A new worker waits until the user accepts the update, so a page never
 * runs against assets of two versions.
 */

export interface ServiceWorkerOptions {
  /**
   * Called when a new version is installed and waiting; `apply` activates it and reloads. The app
   * passes the prompt of components/update-prompt.tsx (this module stays free of UI).
   */
  onUpdateReady: (apply: () => void) => void;
}

let reloading = false;

/** Activates a waiting worker and reloads the page once it controls it. */
export function activateWaitingWorker(worker: ServiceWorker): void {
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  });
  worker.postMessage({ type: 'SKIP_WAITING' });
}

async function register(options: ServiceWorkerOptions): Promise<void> {
  const { onUpdateReady } = options;
  const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, {
    scope: SERVICE_WORKER_SCOPE,
  });
  const announce = (worker: ServiceWorker) => onUpdateReady(() => activateWaitingWorker(worker));

  // A worker left waiting by an earlier visit. Without a controller it is the first install: nothing to announce.
  if (registration.waiting && navigator.serviceWorker.controller) announce(registration.waiting);

  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    if (!installing) return;
    installing.addEventListener('statechange', () => {
      if (installing.state === 'installed' && navigator.serviceWorker.controller) announce(installing);
    });
  });
}

export function shouldRegisterServiceWorker(): boolean {
  return (
    import.meta.env.PROD &&
    import.meta.env.MODE !== 'test' &&
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator
  );
}

export function registerServiceWorker(options: ServiceWorkerOptions): void {
  if (!shouldRegisterServiceWorker()) return;
  const start = () => {
    register(options).catch((error: unknown) => console.error('Service worker registration failed', error));
  };
  // After the load event, so registering and pre-caching do not compete with the first render.
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
