import { createHash, randomUUID } from 'node:crypto';
import { DOCUMENT_TYPES } from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { documentsRepository } from './documents.repository.ts';
import { minimalPdf } from './minimal-pdf.ts';

export { minimalPdf };

import { type FileStore, newStorageKey } from './storage.ts';

export interface SeedDocumentsOptions {
  /** Documents per dossier. */
  perDossier: number;
  /**
   * `each` (default): every row gets its own small real PDF in the store. `none`: rows only, with
   * the size and SHA-256 of the PDF they describe but no file (downloads answer 410): for volume
   * tests of the lists where millions of small files would only cost time.
   */
  files?: 'each' | 'none';
  /** Leave out dossiers that have documents already (the demo company's, an earlier run's). */
  onlyDossiersWithoutDocuments?: boolean;
  /** Dossiers handled per transaction (default 500). */
  batchDossiers?: number;
  /** Parallel file writes (default 16). */
  concurrency?: number;
  log?: (line: string) => void;
}

/**
 * Documents for the dossiers that exist, for the volume seed: the document types in turn, every
 * other one visible to the customer, uploaded by a staff user. Adds to what is there.
 */
export async function seedDocuments(
  db: Db,
  store: FileStore,
  opts: SeedDocumentsOptions,
): Promise<{ rows: number; files: number; seconds: number }> {
  const t0 = performance.now();
  const withFiles = (opts.files ?? 'each') === 'each';
  const batchDossiers = opts.batchDossiers ?? 500;
  const concurrency = opts.concurrency ?? 16;
  const namespace = await documentsRepository(db).namespace();
  const staff = await db
    .selectFrom('users')
    .select('id')
    .where('role', 'in', ['admin', 'staff'])
    .orderBy('email')
    .executeTakeFirst();
  let rows = 0;
  let files = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const dossiers = (
      await sql<{ id: string; number: string; created_at: Date }>`
        select id, number, created_at from dossiers d where id > ${after}
          ${opts.onlyDossiersWithoutDocuments ? sql`and not exists (select 1 from documents x where x.dossier_id = d.id)` : sql``}
        order by id limit ${batchDossiers}`.execute(db)
    ).rows;
    if (!dossiers.length) break;
    after = dossiers.at(-1)?.id as string;
    const values = dossiers.flatMap((d) =>
      Array.from({ length: opts.perDossier }, (_, i) => {
        const type = DOCUMENT_TYPES[i % DOCUMENT_TYPES.length] as string;
        const bytes = minimalPdf(`${d.number} ${type} ${i + 1}`);
        return {
          bytes,
          row: {
            record_type: 'dossier',
            record_id: d.id,
            dossier_id: d.id,
            storage_key: withFiles
              ? newStorageKey(namespace, d.created_at)
              : `${namespace}/seed/${randomUUID()}`,
            file_name: `${d.number}-${type.replaceAll('_', '-')}-${i + 1}.pdf`,
            content_type: 'application/pdf',
            size_bytes: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('hex'),
            document_type: type,
            visible_to_customer: i % 2 === 0,
            uploaded_by: staff?.id ?? null,
            updated_by: staff?.id ?? null,
            uploaded_at: new Date(d.created_at.getTime() + (i + 1) * 60_000),
          },
        };
      }),
    );
    // Files first, rows after: the same order as an upload, so an interrupted seed leaves only sweepable files.
    if (withFiles) {
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(concurrency, values.length) }, async () => {
          while (next < values.length) {
            const v = values[next++];
            if (!v) break;
            await store.put(v.row.storage_key, [v.bytes], { maxBytes: v.bytes.length });
            files++;
          }
        }),
      );
    }
    for (let i = 0; i < values.length; i += 1000) {
      await db
        .insertInto('documents')
        .values(values.slice(i, i + 1000).map((v) => v.row))
        .execute();
    }
    rows += values.length;
    opts.log?.(`documents: ${rows.toLocaleString('en-US')} rows, ${files.toLocaleString('en-US')} files`);
  }
  return { rows, files, seconds: (performance.now() - t0) / 1000 };
}
