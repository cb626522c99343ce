import { type Kysely, sql } from 'kysely';

/**
 * Documents: one row per stored file. The bytes live in the file store under `storage_key` (made by
 * the server); a row is inserted only after its file is complete, and files without a row are swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table documents (
      id uuid primary key default gen_random_uuid(),
      record_type text not null
        check (record_type in ('dossier', 'transport', 'declaration', 'invoice', 'offer', 'shipment', 'stock')),
      record_id uuid not null,
      -- The dossier the document belongs to, directly or through its record: customers are scoped by it.
      -- A deleted dossier takes its rows along; the sweep then removes their files.
      dossier_id uuid references dossiers (id) on delete cascade,
      storage_key text not null unique,
      file_name text not null,
      content_type text not null,
      size_bytes bigint not null check (size_bytes >= 0),
      sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
      document_type text not null,
      visible_to_customer boolean not null default false,
      version integer not null default 1,
      uploaded_by uuid references users (id),
      uploaded_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default now(),
      updated_by uuid references users (id)
    )`.execute(db);
  // One index per list filter and sort (id as the keyset tie-breaker), the record and dossier tabs,
  // and the duplicate lookup (same bytes on the same record).
  for (const [name, cols] of [
    ['record', 'record_type, record_id, uploaded_at, id'],
    ['dossier', 'dossier_id, uploaded_at, id'],
    ['sha256', 'sha256, record_id'],
    ['uploaded_at', 'uploaded_at, id'],
    ['type', 'document_type, uploaded_at, id'],
    ['file_name', 'file_name, id'],
    ['size', 'size_bytes, id'],
  ] as const) {
    await sql.raw(`create index documents_${name} on documents (${cols})`).execute(db);
  }
  await sql`create index documents_file_name_trgm on documents using gin (file_name gin_trgm_ops)`.execute(
    db,
  );
}
