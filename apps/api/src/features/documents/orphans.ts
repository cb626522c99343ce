import type { Db } from '../../db/database.ts';
import { documentsRepository } from './documents.repository.ts';
import type { FileStore, StoredFile } from './storage.ts';

/**
 * How old a file without a row must be before the sweep deletes it. Rows are inserted right after
 * their files complete, but the files of a multi-file upload wait for the last one: a day leaves
 * every upload in flight alone.
 */
export const ORPHAN_MIN_AGE_MS = 24 * 60 * 60 * 1000;
/** How often a running server sweeps. */
export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface SweepResult {
  scanned: number;
  deleted: string[];
}

/**
 * Deletes stored files that have no document row (a crash between writing a file and its row, a
 * delete whose file removal failed, interrupted `.partial` writes, documents of a deleted dossier),
 * once they are older than `olderThanMs`. Only this database's namespace is looked at.
 */
export async function sweepOrphanFiles(
  db: Db,
  store: FileStore,
  opts: { olderThanMs: number; batchSize?: number; signal?: AbortSignal },
): Promise<SweepResult> {
  const repo = documentsRepository(db);
  const namespace = await repo.existingNamespace();
  const result: SweepResult = { scanned: 0, deleted: [] };
  // No namespace yet: this database never stored a file.
  if (!namespace) return result;
  const cutoff = Date.now() - opts.olderThanMs;
  const batchSize = opts.batchSize ?? 1000;
  let batch: StoredFile[] = [];
  const flush = async () => {
    const keep = await repo.keysWithRows(batch.map((f) => f.key));
    for (const f of batch) {
      if (keep.has(f.key)) continue;
      await store.delete(f.key);
      result.deleted.push(f.key);
    }
    batch = [];
  };
  for await (const file of store.list(`${namespace}/`)) {
    if (opts.signal?.aborted) return result;
    result.scanned++;
    if (file.modifiedAt.getTime() > cutoff) continue;
    batch.push(file);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length) await flush();
  return result;
}
