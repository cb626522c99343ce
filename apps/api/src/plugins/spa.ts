import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { problems } from '../http/problem.ts';

/**
 * Serves the built React app: hashed assets cached for a year, `/sw.js` and `index.html` never cached
 * (so a new version is found), and `index.html` for every other GET outside `/api` (client-side routes).
 * The build writes `.br` and `.gz` beside each text file (apps/web/build/precompress.ts); they are sent
 * as they are to a client that accepts them (`preCompressed`, with `Vary: Accept-Encoding`), the
 * original otherwise, so nothing is compressed per request.
 */
export const spaPlugin = fp<{ root: string }>(async (app: FastifyInstance, { root }) => {
  const built = existsSync(path.join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(res, file) {
        // `file` is the one sent: `sw.js.br` for the compressed service worker.
        const name = path.basename(file).replace(/\.(br|gz)$/, '');
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
        if (name === 'sw.js') res.header('service-worker-allowed', '/');
      },
    });
  } else {
    app.log.warn(`the web app is not built (${root} has no index.html): run "npm run build"`);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      throw problems.notFound(`No API endpoint ${request.method} ${pathname}.`);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') throw problems.notFound();
    if (pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname))
      throw problems.notFound(`No file ${pathname}.`);
    if (!built) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run "npm run build".');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
});
