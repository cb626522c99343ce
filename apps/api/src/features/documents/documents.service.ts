import type { Readable } from 'node:stream';
import {
  canPreviewInline,
  DOCUMENT_RECORD_TYPE_LABELS,
  type Document,
  type DocumentListQuery,
  type DocumentRecordType,
  type documentUpdateSchema,
  documentUploadFieldsSchema,
  NO_INTERNAL_FIELDS,
  sanitizeFileName,
} from '@fvg/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { HttpProblem, problems } from '../../http/problem.ts';
import { zodFieldErrors } from '../../http/validation.ts';
import { auditDeletion, diff, historyOf, writeAudit } from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { columnsOf, versionedUpdate } from '../../records/mutation.ts';
import { orNotFound, requireStaff, type Scope, scopeOf } from '../../records/scope.ts';
import { withTimeZone } from '../../records/time-zone.ts';
import { findDeclaration } from '../declarations/declarations.repository.ts';
import { dossiersRepository } from '../dossiers/dossiers.repository.ts';
import { transportsRepository } from '../transports/transports.repository.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { requireCwAccess } from '../warehouse/access.ts';
import { findShipment } from '../warehouse/shipments/shipments.repository.ts';
import { findStock } from '../warehouse/stock/stock.repository.ts';
import { type Detected, RefusedContentError, sniffed } from './content-type.ts';
import {
  type DocumentRow,
  documentsRepository,
  toDocument,
  WAREHOUSE_DOCUMENT_RECORD_TYPES,
} from './documents.repository.ts';
import { FileMissingError, type FileStore, FileTooLargeError, newStorageKey } from './storage.ts';

type DocumentUpdate = z.output<typeof documentUpdateSchema>;

/** One part of a multipart upload, as the route hands it over (fields first, then files). */
export type UploadPart =
  | { kind: 'field'; name: string; value: string; truncated: boolean }
  | { kind: 'file'; name: string; fileName: string; stream: Readable };

/** The record a document is attached to, resolved within the user's scope. */
interface AttachTarget {
  recordType: DocumentRecordType;
  recordId: string;
  dossierId: string | null;
  /** The customer of a record without a dossier (a declaration from scratch): their scope covers it. */
  partyId?: string | null;
}

/** API field → column; the audit trail records API field names. */
const COLUMNS = columnsOf(['documentType', 'visibleToCustomer', 'fileName']);
type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];

function fieldsOf(r: DocumentRow): Record<Field, unknown> {
  return { documentType: r.document_type, visibleToCustomer: r.visible_to_customer, fileName: r.file_name };
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

const ALLOWED_SUMMARY =
  'PDF, images (PNG, JPEG, GIF, WebP, TIFF), Office documents, XML, CSV or e-mails (EML)';

const article = (s: string) => (/^[aeio]/i.test(s) ? 'an' : 'a');

function refusedProblem(e: RefusedContentError, fileName: string, index: number): HttpProblem {
  const field = `files.${index}`;
  if (e.reason === 'empty') return problems.validation([{ field, message: `“${fileName}” is empty` }]);
  if (e.reason === 'text')
    return new HttpProblem(
      415,
      'Unsupported media type',
      `“${fileName}” starts like ${e.detected.description} but is not valid UTF-8 text throughout.`,
      { errors: [{ field, message: `Not valid UTF-8 ${e.detected.description}` }] },
    );
  return new HttpProblem(
    415,
    'Unsupported media type',
    `“${fileName}” is not an accepted type: it is ${article(e.detected.description)} ${e.detected.description} (${e.detected.contentType}). Documents can be ${ALLOWED_SUMMARY}.`,
    { errors: [{ field, message: `${e.detected.contentType} is not accepted` }] },
  );
}

/** A stored file of an upload in progress, before its row exists. */
interface StoredUpload {
  key: string;
  fileName: string;
  size: number;
  sha256: string;
  contentType: string;
}

export interface DocumentsOptions {
  maxBytes: number;
  maxFiles: number;
}

export function documentsService(db: Db, store: FileStore, events: RecordEvents, options: DocumentsOptions) {
  const repo = documentsRepository(db);
  const dossiers = dossiersRepository(db);
  const transports = transportsRepository(db);

  async function rowOr404(scope: Scope, id: string): Promise<DocumentRow> {
    return orNotFound(await repo.find(scope, id), 'document');
  }

  /** A document of a warehouse record is warehouse data: cw_access first, like its record's endpoints. */
  function gateWarehouse(user: SessionUser, recordType: string | undefined) {
    if (recordType && WAREHOUSE_DOCUMENT_RECORD_TYPES.includes(recordType)) requireCwAccess(user);
  }

  async function visibleRow(user: SessionUser, id: string): Promise<DocumentRow> {
    const row = await rowOr404(scopeOf(user), id);
    gateWarehouse(user, row.record_type);
    return row;
  }

  /**
   * The record within scope, or undefined. Dossiers, transports and declarations exist so far; each area adds its
   * case here. A transport's documents belong to its dossier too (its tab lists them, its customer's
   * scope covers them); a stock record will resolve to no dossier and its owner.
   */
  async function resolve(
    scope: Scope,
    recordType: DocumentRecordType,
    recordId: string,
  ): Promise<AttachTarget | undefined> {
    switch (recordType) {
      case 'dossier': {
        const d = await dossiers.find(scope, recordId);
        return d && { recordType, recordId: d.id, dossierId: d.id };
      }
      case 'transport': {
        const t = await transports.find(scope, recordId);
        return t && { recordType, recordId: t.id, dossierId: t.dossier_id };
      }
      case 'declaration': {
        // A customer's scope holds their lodged declarations only; drafts resolve to nothing.
        const x = await findDeclaration(db, scope, recordId);
        return x && { recordType, recordId: x.id, dossierId: x.dossier_id, partyId: x.customer_id };
      }
      case 'stock': {
        // No dossier: the owner's scope covers it through the document's party.
        const r = await findStock(db, scope, recordId);
        return r && { recordType, recordId: r.id, dossierId: null, partyId: r.owner_id };
      }
      case 'shipment': {
        // Like stock: the owner's scope covers it through the document's party.
        const r = await findShipment(db, scope, recordId);
        return r && { recordType, recordId: r.id, dossierId: null, partyId: r.owner_id };
      }
      case 'invoice':
      case 'offer':
        return undefined;
    }
  }

  const noSuch = (recordType: DocumentRecordType) =>
    `No such ${DOCUMENT_RECORD_TYPE_LABELS[recordType].toLowerCase()}`;

  async function targetOf(
    user: SessionUser,
    fields: Record<string, string>,
  ): Promise<{
    target: AttachTarget;
    documentType: Document['documentType'];
    visibleToCustomer: boolean;
  }> {
    const parsed = documentUploadFieldsSchema.safeParse(fields);
    if (!parsed.success) {
      // An unknown form field is reported on the field itself, as the JSON routes do.
      const unknown = parsed.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys' ? i.keys.map((k) => ({ field: k, message: 'Unknown field' })) : [],
      );
      const others = zodFieldErrors({
        ...parsed.error,
        issues: parsed.error.issues.filter((i) => i.code !== 'unrecognized_keys'),
      } as typeof parsed.error);
      throw problems.validation([...others, ...unknown]);
    }
    const { recordType, recordId, documentType, visibleToCustomer } = parsed.data;
    gateWarehouse(user, recordType);
    const target = await resolve({ all: true }, recordType, recordId);
    if (!target) {
      throw problems.validation(
        [{ field: 'recordId', message: noSuch(recordType) }],
        `${noSuch(recordType)} ${recordId}; documents are attached to existing records.`,
      );
    }
    return { target, documentType, visibleToCustomer };
  }

  async function storeFile(
    namespace: string,
    part: Extract<UploadPart, { kind: 'file' }>,
    index: number,
  ): Promise<StoredUpload> {
    const fileName = sanitizeFileName(part.fileName);
    const key = newStorageKey(namespace);
    let detected: Detected | undefined;
    try {
      const put = await store.put(
        key,
        sniffed(part.stream, fileName, (d) => {
          detected = d;
        }),
        { maxBytes: options.maxBytes },
      );
      if (!detected) throw new Error('content type not detected');
      return { key, fileName, size: put.size, sha256: put.sha256, contentType: detected.contentType };
    } catch (e) {
      if (e instanceof FileTooLargeError) {
        throw new HttpProblem(
          413,
          'Payload too large',
          `“${fileName}” is larger than the limit of ${formatBytes(e.maxBytes)} (${e.maxBytes} bytes) per file.`,
          { errors: [{ field: `files.${index}`, message: `Larger than ${formatBytes(e.maxBytes)}` }] },
        );
      }
      if (e instanceof RefusedContentError) throw refusedProblem(e, fileName, index);
      throw e;
    }
  }

  function announce(action: 'created' | 'updated' | 'deleted', id: string, partyIds: string[]) {
    events.publish({ kind: 'document', id, action, partyIds });
  }

  /** A customer hears of a document only while it is (or just was) visible to them. */
  const partiesOf = (row: DocumentRow, visibleBefore = false) =>
    row.dossier_customer_id && (row.visible_to_customer || visibleBefore) ? [row.dossier_customer_id] : [];

  return {
    /**
     * Streams each file to the store (type from its first bytes, SHA-256 and size while it passes),
     * then inserts all rows and their audit entries in one transaction. Either every file of the
     * request becomes a document or none does; files stored before a failure are deleted again
     * (and anything a crash leaves behind has no row, which the sweep removes).
     */
    async upload(user: SessionUser, parts: AsyncIterable<UploadPart>): Promise<Document[]> {
      requireStaff(user);
      const fields: Record<string, string> = {};
      const stored: StoredUpload[] = [];
      let attach: Awaited<ReturnType<typeof targetOf>> | undefined;
      let namespace: string | undefined;
      try {
        for await (const part of parts) {
          if (part.kind === 'field') {
            if (attach) {
              throw problems.validation(
                [{ field: part.name, message: 'Send the form fields before the files' }],
                'The form fields (recordType, recordId, documentType, visibleToCustomer) must come before the files.',
              );
            }
            if (part.truncated) throw problems.validation([{ field: part.name, message: 'Too long' }]);
            fields[part.name] = part.value;
            continue;
          }
          attach ??= await targetOf(user, fields);
          if (part.name !== 'files' && part.name !== 'file') {
            throw problems.validation([
              { field: part.name, message: 'Unknown field; send files as "files"' },
            ]);
          }
          if (stored.length >= options.maxFiles) {
            throw new HttpProblem(413, 'Payload too large', `At most ${options.maxFiles} files per upload.`);
          }
          namespace ??= await repo.namespace();
          stored.push(await storeFile(namespace, part, stored.length));
        }
        if (!attach) {
          await targetOf(user, fields);
          throw problems.validation([{ field: 'files', message: 'Attach at least one file' }]);
        }
        const { target, documentType, visibleToCustomer } = attach;
        const ids = await inTransaction(db, async (trx) => {
          const r = documentsRepository(trx);
          // A draft declaration is deleted only without documents: hold it (share lock) so a
          // deletion either waits for these rows and sees them, or has gone before and we see that.
          if (target.recordType === 'declaration') {
            const held = await trx
              .selectFrom('declarations')
              .select('id')
              .where('id', '=', target.recordId)
              .forShare()
              .executeTakeFirst();
            if (!held)
              throw problems.validation(
                [{ field: 'recordId', message: noSuch(target.recordType) }],
                `${noSuch(target.recordType)} ${target.recordId}; documents are attached to existing records.`,
              );
          }
          const out: string[] = [];
          for (const f of stored) {
            const { id } = await r.insert({
              record_type: target.recordType,
              record_id: target.recordId,
              dossier_id: target.dossierId,
              party_id: target.partyId ?? null,
              storage_key: f.key,
              file_name: f.fileName,
              content_type: f.contentType,
              size_bytes: f.size,
              sha256: f.sha256,
              document_type: documentType,
              visible_to_customer: visibleToCustomer,
              uploaded_by: user.id,
              updated_by: user.id,
            });
            await writeAudit(trx, {
              kind: 'document',
              id,
              action: 'uploaded',
              actorId: user.id,
              changes: [
                { field: 'fileName', from: null, to: f.fileName },
                { field: 'documentType', from: null, to: documentType },
                { field: 'visibleToCustomer', from: null, to: visibleToCustomer },
                { field: 'record', from: null, to: `${target.recordType} ${target.recordId}` },
                { field: 'sha256', from: null, to: f.sha256 },
              ],
            });
            out.push(id);
          }
          return out;
        });
        const rows = await Promise.all(ids.map((id) => rowOr404({ all: true }, id)));
        for (const row of rows) announce('created', row.id, partiesOf(row));
        return rows.map(toDocument);
      } catch (e) {
        await Promise.all(stored.map((f) => store.delete(f.key).catch(() => {})));
        throw e;
      }
    },

    async list(user: SessionUser, query: DocumentListQuery) {
      const scope = scopeOf(user);
      // A record named in the filter must exist for this user: an unknown one is a 404, not an empty list.
      gateWarehouse(user, query.recordType);
      if (query.recordId && query.recordType && !(await resolve(scope, query.recordType, query.recordId))) {
        throw problems.notFound(`${noSuch(query.recordType)}.`);
      }
      if (query.dossierId && !(await dossiers.find(scope, query.dossierId)))
        throw problems.notFound('No such dossier.');
      return withTimeZone(() => repo.list(scope, query, user.cw_access));
    },

    all: (user: SessionUser, query: DocumentListQuery) => {
      gateWarehouse(user, query.recordType);
      return repo.all(scopeOf(user), query, user.cw_access);
    },

    /** The dossier's documents tab: documents on the dossier itself and on its records. */
    async ofDossier(user: SessionUser, idOrNumber: string, query: DocumentListQuery) {
      const scope = scopeOf(user);
      const d = await dossiers.find(scope, idOrNumber);
      if (!d) throw problems.notFound('This dossier does not exist.');
      return withTimeZone(() => repo.list(scope, query, user.cw_access, d.id));
    },

    async get(user: SessionUser, id: string): Promise<Document> {
      return toDocument(await visibleRow(user, id));
    },

    async update(user: SessionUser, id: string, input: DocumentUpdate): Promise<Document> {
      const before = await visibleRow(user, id);
      requireStaff(user);
      const { version, ...changes } = input;
      const values: Record<string, unknown> = {};
      for (const f of FIELDS) if (changes[f] !== undefined) values[COLUMNS[f]] = changes[f];
      await inTransaction(db, async (trx) => {
        await versionedUpdate(trx, {
          table: 'documents',
          id: before.id,
          version,
          values,
          actorId: user.id,
          what: 'document',
        });
        await writeAudit(trx, {
          kind: 'document',
          id: before.id,
          action: 'updated',
          actorId: user.id,
          changes: diff(fieldsOf(before), changes, FIELDS),
        });
      });
      const after = await rowOr404({ all: true }, before.id);
      announce('updated', after.id, partiesOf(after, before.visible_to_customer));
      return toDocument(after);
    },

    /** The row goes first (with its audit entry); then the file. A file left by a failure there has no row and is swept. */
    async remove(user: SessionUser, id: string): Promise<void> {
      const before = await visibleRow(user, id);
      requireStaff(user);
      await inTransaction(db, async (trx) => {
        await documentsRepository(trx).remove(before.id);
        await auditDeletion(trx, {
          kind: 'document',
          id: before.id,
          actorId: user.id,
          field: 'fileName',
          was: before.file_name,
        });
      });
      await store.delete(before.storage_key).catch(() => {});
      announce('deleted', before.id, partiesOf(before));
    },

    /** The bytes to download: a row whose file is gone answers 410 Gone. */
    async content(
      user: SessionUser,
      id: string,
      wantInline: boolean,
    ): Promise<{ document: Document; stream: Readable; inline: boolean }> {
      const row = await visibleRow(user, id);
      try {
        const stream = await store.get(row.storage_key);
        return {
          document: toDocument(row),
          stream,
          inline: wantInline && canPreviewInline(row.content_type),
        };
      } catch (e) {
        if (e instanceof FileMissingError) {
          throw new HttpProblem(
            410,
            'Gone',
            `The file of “${row.file_name}” is missing from storage. The document record remains: upload the file again, or delete the record.`,
          );
        }
        throw e;
      }
    },

    async history(user: SessionUser, id: string) {
      const row = await visibleRow(user, id);
      return historyOf(db, 'document', row.id, { scope: scopeOf(user), visibility: NO_INTERNAL_FIELDS });
    },
  };
}
export type DocumentsService = ReturnType<typeof documentsService>;

/** Text types whose downloads carry a charset (checked as UTF-8 at upload), so a browser does not guess. */
export function contentTypeHeader(contentType: string): string {
  return contentType === 'text/csv' ? `${contentType}; charset=utf-8` : contentType;
}
