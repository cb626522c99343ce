/*
 * FVG service worker, hand-written (no build step): registered at /sw.js with scope / by
 * src/lib/service-worker.ts.
 * - install: pre-caches the app shell ('/', '/index.html');
 * - navigations: network first, falling back to the cached index.html when offline;
 * - /assets/*: cache first (file names carry a content hash, so a cached file never goes stale);
 * - /api/*: never cached, never intercepted;
 * - a new version waits until the page asks it to take over ({ type: 'SKIP_WAITING' }).
 * Bump CACHE_VERSION whenever this file's behaviour changes; activation deletes older caches.
 */
const CACHE_VERSION = 'v1.1.34-1';
const SHELL_CACHE = `fvg-shell-${CACHE_VERSION}`;
const ASSET_CACHE = `fvg-assets-${CACHE_VERSION}`;
const SHELL_URLS = ['/', '/index.html'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL_URLS)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith('fvg-') && name !== SHELL_CACHE && name !== ASSET_CACHE)
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
});

function isApi(url) {
  return url.pathname === '/api' || url.pathname.startsWith('/api/');
}

async function networkFirstNavigation(request) {
  try {
    const response = await fetch(request);
    const type = response.headers.get('content-type') || '';
    if (response.ok && type.includes('text/html')) {
      // Every route of the SPA answers with index.html: keep the freshest copy for offline use.
      const cache = await caches.open(SHELL_CACHE);
      await cache.put('/index.html', response.clone());
    }
    return response;
  } catch (error) {
    const cache = await caches.open(SHELL_CACHE);
    const cached = (await cache.match('/index.html')) || (await cache.match('/'));
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirstAsset(request) {
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isApi(url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(networkFirstNavigation(request));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirstAsset(request));
  }
});
