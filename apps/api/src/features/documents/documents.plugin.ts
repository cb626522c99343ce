import multipart from '@fastify/multipart';
import { DOCUMENT_MAX_FILES_PER_UPLOAD } from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { reportUnlessStopping } from '../../process-state.ts';
import type { RecordEvents } from '../../records/events.ts';
import { documentsRoutes } from './documents.routes.ts';
import { documentsService } from './documents.service.ts';
import { ORPHAN_MIN_AGE_MS, SWEEP_INTERVAL_MS, sweepOrphanFiles } from './orphans.ts';
import { createFileStore, type FileStore } from './storage.ts';

/**
 * The documents area: the file store (DATA_DIR/files or S3), the service, multipart parsing for
 * this area's routes only, and the orphan sweep (at start-up, then hourly; stops with the server).
 */
export const documentsFeature: FastifyPluginAsyncZod<{
  db: Db;
  config: Config;
  events: RecordEvents;
  store?: FileStore;
}> = async (app, { db, config, events, store: givenStore }) => {
  const store = givenStore ?? createFileStore(config);
  const maxBytes = config.documentMaxBytes;
  const maxFiles = DOCUMENT_MAX_FILES_PER_UPLOAD;
  const documents = documentsService(db, store, events, { maxBytes, maxFiles });

  await app.register(multipart, {
    // The store enforces the limit with a clear 413; the parser only stops reading one byte later.
    throwFileSizeLimit: false,
    limits: {
      fileSize: maxBytes + 1,
      files: maxFiles + 1,
      fields: 20,
      fieldSize: 1000,
      parts: maxFiles + 21,
      headerPairs: 100,
    },
  });
  await app.register(documentsRoutes, { documents, maxBytes, maxFiles });

  const stop = new AbortController();
  let running: Promise<void> | undefined;
  const sweep = () => {
    if (running) return;
    running = sweepOrphanFiles(db, store, { olderThanMs: ORPHAN_MIN_AGE_MS, signal: stop.signal })
      .then((r) => {
        if (r.deleted.length)
          app.log.info(
            { deleted: r.deleted.length, scanned: r.scanned },
            'removed document files without a row',
          );
      })
      .catch((e: unknown) => {
        if (!stop.signal.aborted)
          reportUnlessStopping(e, () => app.log.warn({ err: e }, 'document file sweep failed'));
      })
      .finally(() => {
        running = undefined;
      });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweep();
    timer = setInterval(sweep, SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    stop.abort();
    await running;
  });
};
