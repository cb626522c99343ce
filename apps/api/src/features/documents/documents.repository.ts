import { randomBytes } from 'node:crypto';
import { type Document, type DocumentListQuery, NO_INTERNAL_FIELDS } from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { defineListSpec, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';
import { dayStart } from '../../records/time-zone.ts';

export interface DocumentRow {
  id: string;
  record_type: Document['recordType'];
  record_id: string;
  dossier_id: string | null;
  dossier_number: string | null;
  /** The customer of the document's dossier (or record): whom its changes are announced to. */
  dossier_customer_id: string | null;
  storage_key: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  document_type: Document['documentType'];
  visible_to_customer: boolean;
  duplicate_of: string | null;
  version: number;
  uploaded_by: string | null;
  uploaded_by_name: string | null;
  uploaded_at: Date;
  updated_at: Date;
}

export function toDocument(r: DocumentRow): Document {
  return {
    id: r.id,
    recordType: r.record_type,
    recordId: r.record_id,
    dossier: r.dossier_id && r.dossier_number ? { id: r.dossier_id, number: r.dossier_number } : null,
    fileName: r.file_name,
    contentType: r.content_type,
    size: r.size_bytes,
    sha256: r.sha256,
    documentType: r.document_type,
    visibleToCustomer: r.visible_to_customer,
    duplicateOf: r.duplicate_of,
    uploadedBy: r.uploaded_by && r.uploaded_by_name ? { id: r.uploaded_by, name: r.uploaded_by_name } : null,
    uploadedAt: r.uploaded_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    version: r.version,
  };
}

const FROM = sql`documents doc left join dossiers d on d.id = doc.dossier_id left join users u on u.id = doc.uploaded_by`;

/**
 * The earliest other document with the same bytes on the same record (served by `documents_sha256`).
 * A customer is only pointed at documents they may see.
 */
function duplicateOf(scope: Scope): RawBuilder<unknown> {
  return sql`(select e.id from documents e
    where e.sha256 = doc.sha256 and e.record_id = doc.record_id and e.record_type = doc.record_type
      and (e.uploaded_at, e.id) < (doc.uploaded_at, doc.id)
      ${scope.all ? sql`` : sql`and e.visible_to_customer`}
    order by e.uploaded_at, e.id limit 1)`;
}

/**
 * The customer party a document belongs to: the one rule `document_party` (migration 0031, ADR 0044),
 * which the search index asks too. A dossier's or transport's documents follow the dossier's customer;
 * every other record's are the party stored on the row (an issued invoice's customer, frozen at issue,
 * so its PDF stays with the party it was addressed to; a declaration's customer; a stock or shipment
 * owner).
 */
const partyOf = sql`document_party(doc.record_type, d.customer_id, doc.party_id)`;

/** Whom a document's changes are announced to; a declaration's only once it is no draft. */
const announcedTo = sql`case when doc.record_type = 'declaration'
    then (select x.customer_id from declarations x where x.id = doc.record_id and x.status <> 'draft')
    else ${partyOf} end`;

function select(scope: Scope): RawBuilder<unknown> {
  return sql`doc.id, doc.record_type, doc.record_id, doc.dossier_id, d.number as dossier_number,
    ${announcedTo} as dossier_customer_id, doc.storage_key, doc.file_name, doc.content_type, doc.size_bytes,
    doc.sha256, doc.document_type, doc.visible_to_customer, doc.version, doc.uploaded_by,
    u.name as uploaded_by_name, doc.uploaded_at, doc.updated_at, ${duplicateOf(scope)} as duplicate_of`;
}

export const documentListSpec = defineListSpec({
  name: 'documents',
  visibility: NO_INTERNAL_FIELDS,
  from: FROM,
  id: { expr: 'doc.id', type: 'uuid', nullable: false },
  sortable: {
    uploadedAt: { expr: 'doc.uploaded_at', type: 'timestamptz', nullable: false },
    fileName: { expr: 'doc.file_name', type: 'text', nullable: false },
    size: { expr: 'doc.size_bytes', type: 'numeric', nullable: false },
    documentType: { expr: 'doc.document_type', type: 'text', nullable: false },
  },
  defaultSort: '-uploadedAt',
  // The same expression as the trigram index `documents_file_name_trgm`.
  search: sql`doc.file_name`,
  searchFields: ['fileName'],
  // The uploader join cannot change the count; the dossier join carries the customer scope.
  countFrom: sql`documents doc left join dossiers d on d.id = doc.dossier_id`,
});

/**
 * Only documents marked visible, of the customer's own party (`document_party`); a declaration's only
 * once it is theirs to see (lodged, and theirs: drafts answer 404 to customers, so do their documents).
 */
function scopeWhere(scope: Scope): RawBuilder<unknown>[] {
  return scope.all
    ? []
    : [
        sql`doc.visible_to_customer`,
        sql`${partyOf} = ${scope.partyId}`,
        sql`(doc.record_type <> 'declaration' or exists (select 1 from declarations x
          where x.id = doc.record_id and x.customer_id = ${scope.partyId} and x.status <> 'draft'))`,
      ];
}

/** Documents of customs-warehouse records: only users with cw_access see them (ADR 0034). */
export const WAREHOUSE_DOCUMENT_RECORD_TYPES: readonly string[] = ['stock', 'shipment'];

/**
 * `warehouse` false: without the documents of warehouse records (a user without cw_access);
 * `dossierId`: a dossier's documents (its page), else the query's.
 */
const documentList: ListSource<
  DocumentListQuery,
  DocumentRow,
  Document,
  [warehouse?: boolean, dossierId?: string]
> = {
  spec: documentListSpec,
  select,
  scope: scopeWhere,
  where: (_scope, q, warehouse = true, dossierId = q.dossierId) => [
    ...(warehouse ? [] : [sql`doc.record_type not in ('stock', 'shipment')`]),
    ...(dossierId ? [sql`doc.dossier_id = ${dossierId}`] : []),
  ],
  filters: {
    type: filter.anyOf('doc.document_type'),
    recordType: filter.equals('doc.record_type'),
    recordId: filter.equals('doc.record_id'),
    uploadedFrom: (from, q) => sql`doc.uploaded_at >= ${dayStart(from, q.tz ?? 'UTC')}`,
    uploadedTo: (to, q) => sql`doc.uploaded_at < ${dayStart(to, q.tz ?? 'UTC', 1)}`,
    visibleToCustomer: (visible) => sql`doc.visible_to_customer = ${visible === 'true'}`,
  },
  map: toDocument,
};

const NAMESPACE_SETTING = 'documents_storage_namespace';

export function documentsRepository(db: Db) {
  const list = listReader(db, documentList);
  return {
    list: list.page,
    all: list.all,

    async find(scope: Scope, id: string): Promise<DocumentRow | undefined> {
      const r = await sql<DocumentRow>`
        select ${select(scope)} from ${FROM}
        where ${sql.join([sql`doc.id = ${id}`, ...scopeWhere(scope)], sql` and `)}`.execute(db);
      return r.rows[0];
    },

    insert: (values: {
      record_type: string;
      record_id: string;
      dossier_id: string | null;
      party_id?: string | null;
      storage_key: string;
      file_name: string;
      content_type: string;
      size_bytes: number;
      sha256: string;
      document_type: string;
      visible_to_customer: boolean;
      /** Null for a document the system made for a record whose author is gone. */
      uploaded_by: string | null;
      updated_by: string | null;
    }) => db.insertInto('documents').values(values).returning('id').executeTakeFirstOrThrow(),

    remove: (id: string) => db.deleteFrom('documents').where('id', '=', id).execute(),

    /** Which of these storage keys have a row. */
    async keysWithRows(keys: string[]): Promise<Set<string>> {
      if (!keys.length) return new Set();
      const rows = await db
        .selectFrom('documents')
        .select('storage_key')
        .where('storage_key', 'in', keys)
        .execute();
      return new Set(rows.map((r) => r.storage_key));
    },

    /**
     * The first segment of every storage key this database makes, created on first use. Files of
     * other databases sharing the same folder or bucket (a test run next to a dev install, two
     * installations on one bucket) are under other namespaces, so the sweep never sees them.
     */
    async namespace(): Promise<string> {
      await db
        .insertInto('settings')
        .values({ key: NAMESPACE_SETTING, value: `d${randomBytes(8).toString('hex')}` })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return (await this.existingNamespace()) as string;
    },

    async existingNamespace(): Promise<string | undefined> {
      const row = await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', NAMESPACE_SETTING)
        .executeTakeFirst();
      return row?.value;
    },
  };
}
export type DocumentsRepository = ReturnType<typeof documentsRepository>;
