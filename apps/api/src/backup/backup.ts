import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APP_VERSION } from '@fvg/contracts';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import * as tar from 'tar';
import { connect, MIGRATION_NAMES, migrateOnly } from '../db/database.ts';
import { startEmbedded } from '../db/embedded.ts';
import { type FileStore, isPartialKey } from '../features/documents/storage.ts';
import { migrateJobs } from '../jobs/jobs.ts';

/**
 * Backups of the database and the document files as one `.tar.gz` (docs/adr/0054): a manifest, one
 * COPY text file per table read in ONE repeatable-read snapshot (consistent while the app writes, as
 * pg_dump is), and the stored files. A restore rebuilds the schema by the app's own migrations up to
 * the backup's level and loads the tables; the manifest's row counts and checksums are compared
 * before the load commits, so a damaged file is never half restored.
 */

export const BACKUP_FORMAT = 'fvg-backup';
export const BACKUP_FORMAT_VERSION = 1;
/**
 * `fvg-backup-20261129-020000Z.tar.gz` (`…-020000-1Z…` for a second one in the same second); rotation
 * deletes only names of this shape.
 */
export const BACKUP_FILE = /^fvg-backup-(\d{8}-\d{6})(?:-(\d+))?Z\.tar\.gz$/;

/** Backup file names oldest first (by their time, then their number within the second). */
export function oldestFirst(names: string[]): string[] {
  const key = (n: string) => {
    const m = BACKUP_FILE.exec(n);
    return m ? `${m[1]}.${(m[2] ?? '0').padStart(6, '0')}` : '';
  };
  return names.filter((n) => BACKUP_FILE.test(n)).sort((a, b) => key(a).localeCompare(key(b)));
}

export interface TableEntry {
  schema: string;
  name: string;
  /** The columns stored (generated ones are left out: the restored server computes them). */
  columns: string[];
  rows: number;
  /** sha256 of the table's COPY text in key order. */
  sha256: string;
  /** Its file in the archive. */
  file: string;
}

export interface SequenceEntry {
  schema: string;
  name: string;
  /** null: never used. */
  lastValue: string | null;
}

export interface FileEntry {
  key: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  serverVersion: string;
  /** The app's migrations applied to the database, by name. */
  migrations: string[];
  /** sha256 of every table's columns and types: the restore checks its rebuilt schema against it. */
  schemaSha256: string;
  tables: TableEntry[];
  sequences: SequenceEntry[];
  files: FileEntry[];
  /** Files a document row names that were gone when the files were copied (deleted meanwhile). */
  missingFiles: string[];
}

/** Text rendering that does not depend on the server's or the session's settings. */
const SESSION = `set local timezone = 'UTC'; set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres';
  set local extra_float_digits = 3; set local bytea_output = 'hex'; set local client_encoding = 'UTF8'`;

const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
  and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')`;

interface TableInfo {
  schema: string;
  name: string;
  columns: string[];
  /** ORDER BY terms of the primary key, text compared byte-wise (the same order on every server). */
  keyOrder: string[] | null;
}

async function tablesOf(client: pg.ClientBase): Promise<TableInfo[]> {
  const r = await client.query<TableInfo>(`
    select n.nspname::text as schema, c.relname::text as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns,
      (select array(select quote_ident(a.attname) || case when a.attcollation <> 0 then ' collate "C"' else '' end
                    from unnest(i.indkey::int2[]) with ordinality k(num, ord)
                    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.num order by k.ord)
         from pg_index i where i.indrelid = c.oid and i.indisprimary) as "keyOrder"
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and c.relpersistence in ('p', 'u') and ${USER_SCHEMAS}
    order by 1, 2`);
  return r.rows;
}

async function schemaSha256(client: pg.ClientBase): Promise<string> {
  const r = await client.query<{ line: string }>(`
    select n.nspname || '.' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
             || case when a.attnotnull then ' not null' else '' end || ' ' || a.attgenerated::text as line
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relkind = 'r' and c.relpersistence in ('p', 'u') and ${USER_SCHEMAS}
    order by 1`);
  return createHash('sha256')
    .update(r.rows.map((x) => x.line).join('\n'))
    .digest('hex');
}

async function sequencesOf(client: pg.ClientBase): Promise<SequenceEntry[]> {
  const r = await client.query<SequenceEntry>(`
    select schemaname::text as schema, sequencename::text as name, last_value::text as "lastValue"
    from pg_sequences where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`);
  return r.rows;
}

function qualified(client: pg.ClientBase, t: { schema: string; name: string }): string {
  return `${client.escapeIdentifier(t.schema)}.${client.escapeIdentifier(t.name)}`;
}

/** The table's rows as COPY text in a stable order (its key, or the whole row without one). */
function copyOut(client: pg.ClientBase, t: TableInfo) {
  const cols = t.columns.map((c) => client.escapeIdentifier(c)).join(', ');
  const order = t.keyOrder?.length ? t.keyOrder.join(', ') : `row(${cols})::text collate "C"`;
  return client.query(
    copyTo(`copy (select ${cols} from only ${qualified(client, t)} order by ${order}) to stdout`),
  );
}

/** Hashes and counts rows (COPY text ends every row with a newline and escapes the ones inside). */
class Measure extends Writable {
  readonly hash = createHash('sha256');
  rows = 0;
  constructor(private readonly sink?: NodeJS.WritableStream) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null) => void) {
    this.hash.update(chunk);
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) this.rows++;
    if (!this.sink || this.sink.write(chunk)) done();
    else this.sink.once('drain', () => done());
  }
  override _final(done: (e?: Error | null) => void) {
    if (!this.sink) return done();
    this.sink.end(() => done());
  }
}

async function measureTable(client: pg.ClientBase, t: TableInfo, into?: string) {
  const sink = into ? createWriteStream(into) : undefined;
  const m = new Measure(sink);
  await pipeline(copyOut(client, t), m);
  return { rows: m.rows, sha256: m.hash.digest('hex') };
}

async function sha256File(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: Manifest;
}

/**
 * Writes one backup file into `outDir`: the database at `url` (read in one snapshot) and every file of
 * `store` this database's documents live in. Complete or absent: written under a temporary name, then
 * renamed.
 */
export async function createBackup(opts: {
  url: string;
  store: FileStore;
  outDir: string;
  now?: Date;
}): Promise<BackupResult> {
  const createdAt = opts.now ?? new Date();
  await fs.mkdir(opts.outDir, { recursive: true });
  await removeLeftovers(opts.outDir);
  let name = `fvg-backup-${stamp(createdAt)}.tar.gz`;
  for (let n = 1; existsSync(path.join(opts.outDir, name)); n++)
    name = `fvg-backup-${stamp(createdAt).replace(/Z$/, `-${n}Z`)}.tar.gz`;
  const staging = await fs.mkdtemp(path.join(opts.outDir, '.fvg-backup-'));
  const partial = path.join(opts.outDir, `.${name}.partial`);
  const client = new pg.Client({ connectionString: opts.url, application_name: 'fvg-backup' });
  client.on('error', () => {}); // a server lost mid-backup fails the query in flight
  try {
    await client.connect();
    await fs.mkdir(path.join(staging, 'db'));
    await fs.mkdir(path.join(staging, 'files'));
    // One snapshot for every table: the backup is the database as at one instant, writes going on or not.
    await client.query('begin isolation level repeatable read read only');
    await client.query(SESSION);
    const serverVersion = (await client.query<{ v: string }>('show server_version')).rows[0]?.v ?? '';
    const tables = await tablesOf(client);
    const entries: TableEntry[] = [];
    for (const [i, t] of tables.entries()) {
      const file = `db/${String(i + 1).padStart(4, '0')}.tsv`;
      const m = await measureTable(client, t, path.join(staging, file));
      entries.push({ schema: t.schema, name: t.name, columns: t.columns, ...m, file });
    }
    const hasKysely = tables.some((t) => t.schema === 'public' && t.name === 'kysely_migration');
    const migrations = hasKysely
      ? (await client.query<{ name: string }>('select name from kysely_migration order by name')).rows.map(
          (r) => r.name,
        )
      : [];
    const hasDocuments = tables.some((t) => t.schema === 'public' && t.name === 'documents');
    const referenced = hasDocuments
      ? (await client.query<{ k: string }>('select distinct storage_key as k from documents')).rows.map(
          (r) => r.k,
        )
      : [];
    const namespace = tables.some((t) => t.schema === 'public' && t.name === 'settings')
      ? (
          await client.query<{ value: string }>(
            `select value from settings where key = 'documents_storage_namespace'`,
          )
        ).rows[0]?.value
      : undefined;
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: APP_VERSION,
      createdAt: createdAt.toISOString(),
      serverVersion,
      migrations,
      schemaSha256: await schemaSha256(client),
      tables: entries,
      sequences: await sequencesOf(client),
      files: [],
      missingFiles: [],
    };
    await client.query('commit');
    // Files after the snapshot: a document's file is complete before its row commits, so every row
    // the snapshot holds has its file now, unless the document was deleted meanwhile (noted).
    if (namespace) {
      for await (const f of opts.store.list(`${namespace}/`)) {
        if (isPartialKey(f.key) || path.basename(f.key).startsWith('.')) continue;
        const target = path.join(staging, 'files', ...f.key.split('/'));
        await fs.mkdir(path.dirname(target), { recursive: true });
        try {
          await pipeline(await opts.store.get(f.key), createWriteStream(target));
        } catch {
          await fs.rm(target, { force: true });
          continue; // deleted while we copied
        }
        manifest.files.push({ key: f.key, ...(await sha256File(target)) });
      }
    }
    const copied = new Set(manifest.files.map((f) => f.key));
    manifest.missingFiles = referenced.filter((k) => !copied.has(k)).sort();
    manifest.files.sort((a, b) => a.key.localeCompare(b.key));
    await fs.writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, [
      'manifest.json',
      'db',
      'files',
    ]);
    const fh = await fs.open(partial, 'r');
    await fh.sync();
    await fh.close();
    const file = path.join(opts.outDir, name);
    await fs.rename(partial, file);
    return { file, bytes: (await fs.stat(file)).size, manifest };
  } finally {
    await client.end().catch(() => {});
    await fs.rm(staging, { recursive: true, force: true });
    await fs.rm(partial, { force: true });
  }
}

/** A backup killed mid-way leaves its work folder or `.partial` file; one a day old is nobody's any more. */
const LEFTOVER = /^\.(fvg-backup-.*\.partial|fvg-backup-\w+)$/;
const LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;

async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) {
    if (!LEFTOVER.test(name)) continue;
    const p = path.join(dir, name);
    const s = await fs.stat(p).catch(() => undefined);
    if (s && Date.now() - s.mtimeMs > LEFTOVER_AGE_MS) await fs.rm(p, { recursive: true, force: true });
  }
}

/** Deletes all but the newest `keep` backup files in `dir` (only names the backup gives its files). */
export async function rotateBackups(dir: string, keep: number): Promise<string[]> {
  const names = oldestFirst(await fs.readdir(dir));
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const n of old) await fs.rm(path.join(dir, n), { force: true });
  return old;
}

export class BackupError extends Error {}

/** Unpacks a backup into a temporary folder and reads its manifest; `dispose` removes the folder. */
async function openBackup(file: string) {
  if (!existsSync(file)) throw new BackupError(`${file}: no such file`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fvg-restore-'));
  const dispose = () => fs.rm(dir, { recursive: true, force: true });
  try {
    try {
      await tar.extract({ file, cwd: dir, strict: true });
    } catch (e) {
      throw new BackupError(`${file} is not a readable backup: ${(e as Error).message}`);
    }
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    } catch {
      throw new BackupError(`${file} has no readable manifest.json: it is not an FVG backup`);
    }
    if (manifest.format !== BACKUP_FORMAT || manifest.formatVersion !== BACKUP_FORMAT_VERSION)
      throw new BackupError(`${file} is not an FVG backup of format ${BACKUP_FORMAT_VERSION}`);
    const unknown = manifest.migrations.filter((m) => !MIGRATION_NAMES.includes(m));
    if (unknown.length)
      throw new BackupError(
        `this backup was made by FVG ${manifest.appVersion}, which has migrations this version (${APP_VERSION}) does not know (${unknown.join(', ')}): restore it with that version or a later one`,
      );
    return { dir, manifest, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}

/** What differs between a loaded database or the archive's files and the manifest; empty when all match. */
export type Differences = string[];

/**
 * Loads the backup into the (fresh) database at `url`: schema by the app's migrations up to the
 * backup's level, then every table and sequence in one transaction, committed only when every
 * table's row count and checksum, read back, match the manifest.
 */
async function load(url: string, dir: string, manifest: Manifest): Promise<Differences> {
  const handle = connect(url, 2);
  try {
    await migrateOnly(handle.db, manifest.migrations);
    await migrateJobs(handle.pool);
  } finally {
    await handle.close();
  }
  const client = new pg.Client({ connectionString: url, application_name: 'fvg-restore' });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('begin');
    await client.query(SESSION);
    if ((await schemaSha256(client)) !== manifest.schemaSha256)
      throw new BackupError(
        `the tables this version's migrations build differ from the backup's (made by FVG ${manifest.appVersion}): restore it with that version`,
      );
    const tables = await tablesOf(client);
    const byName = new Map(tables.map((t) => [`${t.schema}.${t.name}`, t]));
    // Rows as they were: no trigger fires and no foreign key is checked while the copy loads (as
    // pg_dump's --disable-triggers); the checksums below prove the result.
    await client.query(`set local session_replication_role = replica`);
    if (tables.length)
      await client.query(`truncate ${tables.map((t) => qualified(client, t)).join(', ')} restart identity`);
    for (const t of manifest.tables) {
      if (!byName.has(`${t.schema}.${t.name}`))
        throw new BackupError(`no table ${t.schema}.${t.name} to load`);
      const cols = t.columns.map((c) => client.escapeIdentifier(c)).join(', ');
      await pipeline(
        createReadStream(path.join(dir, t.file)),
        client.query(copyFrom(`copy ${qualified(client, t)} (${cols}) from stdin`)),
      );
    }
    for (const s of manifest.sequences) {
      const name = qualified(client, s);
      if (s.lastValue === null) await client.query(`alter sequence ${name} restart`);
      else await client.query(`select setval($1::regclass, $2::bigint, true)`, [name, s.lastValue]);
    }
    const differences = await compareTables(client, manifest);
    await client.query(differences.length ? 'rollback' : 'commit');
    return differences;
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
}

async function compareTables(client: pg.ClientBase, manifest: Manifest): Promise<Differences> {
  const differences: Differences = [];
  const tables = await tablesOf(client);
  const expected = new Map(manifest.tables.map((t) => [`${t.schema}.${t.name}`, t]));
  for (const t of tables) {
    const want = expected.get(`${t.schema}.${t.name}`);
    if (!want) {
      differences.push(`table ${t.schema}.${t.name} is not in the backup`);
      continue;
    }
    expected.delete(`${t.schema}.${t.name}`);
    const got = await measureTable(client, { ...t, columns: want.columns });
    if (got.rows !== want.rows)
      differences.push(`table ${t.schema}.${t.name}: ${got.rows} rows, the backup says ${want.rows}`);
    else if (got.sha256 !== want.sha256)
      differences.push(`table ${t.schema}.${t.name}: its rows differ from the backup's (checksum)`);
  }
  for (const key of expected.keys()) differences.push(`table ${key} is missing`);
  const sequences = new Map((await sequencesOf(client)).map((s) => [`${s.schema}.${s.name}`, s.lastValue]));
  for (const s of manifest.sequences) {
    if (sequences.get(`${s.schema}.${s.name}`) !== s.lastValue)
      differences.push(
        `sequence ${s.schema}.${s.name} is at ${sequences.get(`${s.schema}.${s.name}`) ?? 'nothing'}, the backup says ${s.lastValue ?? 'unused'}`,
      );
  }
  return differences;
}

async function compareFiles(dir: string, manifest: Manifest): Promise<Differences> {
  const differences: Differences = [];
  for (const f of manifest.files) {
    const file = path.join(dir, 'files', ...f.key.split('/'));
    if (!existsSync(file)) {
      differences.push(`file ${f.key} is missing`);
      continue;
    }
    const got = await sha256File(file);
    if (got.size !== f.size || got.sha256 !== f.sha256)
      differences.push(`file ${f.key}: its bytes differ from the backup's (checksum)`);
  }
  return differences;
}

/** The table files against the manifest: the backup hashed exactly the bytes it wrote. */
async function compareTableFiles(dir: string, manifest: Manifest): Promise<Differences> {
  const differences: Differences = [];
  for (const t of manifest.tables) {
    const file = path.join(dir, t.file);
    if (!existsSync(file)) differences.push(`table ${t.schema}.${t.name}: its file ${t.file} is missing`);
    else if ((await sha256File(file)).sha256 !== t.sha256)
      differences.push(`table ${t.schema}.${t.name}: its rows differ from the backup's (checksum)`);
  }
  return differences;
}

/** A throw-away embedded server in a temporary folder (PostgreSQL runs as `postgres` when we are root). */
async function scratchServer(log?: (m: string) => void) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fvg-verify-'));
  await fs.chmod(dir, 0o755);
  try {
    const server = await startEmbedded({ dataDir: dir, sharedBuffersMb: 32, ...(log ? { log } : {}) });
    return {
      url: server.url,
      async dispose() {
        await server.stop();
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await fs.rm(dir, { recursive: true, force: true });
    throw e;
  }
}

export interface VerifyResult {
  manifest: Manifest;
  differences: Differences;
}

/** Restores `file` into a scratch server and compares every table, sequence and file with its manifest. */
export async function verifyBackup(file: string, log?: (m: string) => void): Promise<VerifyResult> {
  const { dir, manifest, dispose } = await openBackup(file);
  try {
    const differences = await compareFiles(dir, manifest);
    const scratch = await scratchServer(log);
    try {
      differences.push(...(await load(scratch.url, dir, manifest)));
    } finally {
      await scratch.dispose();
    }
    return { manifest, differences };
  } finally {
    await dispose();
  }
}

/** What of the app's own lives in a data folder: a restore refuses to overwrite it without --force. */
const DATA_ENTRIES = ['pg', 'files', 'pg-credentials.json', 'pg.start.lock'];

export async function dataFolderContents(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of DATA_ENTRIES) {
    const p = path.join(dataDir, entry);
    if (!existsSync(p)) continue;
    const s = await fs.stat(p);
    if (s.isDirectory() && (await fs.readdir(p)).length === 0) continue;
    found.push(entry);
  }
  return found;
}

export interface RestoreResult {
  manifest: Manifest;
}

/**
 * Restores `file` into `dataDir`: a new embedded cluster with the backup's tables, and its files in
 * `store`. Refuses a folder that holds the app's data unless `force`, and always while a server runs
 * on it. A backup whose checksums do not match leaves nothing loaded.
 */
export async function restoreBackup(opts: {
  file: string;
  dataDir: string;
  store: (dataDir: string) => FileStore;
  force: boolean;
  log?: (m: string) => void;
}): Promise<RestoreResult> {
  const present = await dataFolderContents(opts.dataDir);
  if (present.length && !opts.force)
    throw new BackupError(
      `${opts.dataDir} is not empty (it holds ${present.join(', ')}): restore into a new folder (DATA_DIR), or add --force to replace what is there`,
    );
  const pidFile = path.join(opts.dataDir, 'pg', 'postmaster.pid');
  if (existsSync(pidFile)) {
    const pid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch (e) {
      alive = (e as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (alive)
      throw new BackupError(
        `the database in ${opts.dataDir} is running (PostgreSQL pid ${pid}): stop the app before restoring over it`,
      );
  }
  const { dir, manifest, dispose } = await openBackup(opts.file);
  try {
    // Everything checked before anything in the folder is touched: a damaged backup replaces nothing.
    const bad = [...(await compareTableFiles(dir, manifest)), ...(await compareFiles(dir, manifest))];
    if (bad.length) throw new BackupError(`the backup is damaged: ${bad.join('; ')}`);
    const clear = async () => {
      for (const entry of DATA_ENTRIES)
        await fs.rm(path.join(opts.dataDir, entry), { recursive: true, force: true });
    };
    await clear();
    await fs.mkdir(opts.dataDir, { recursive: true });
    try {
      const server = await startEmbedded({ dataDir: opts.dataDir, ...(opts.log ? { log: opts.log } : {}) });
      try {
        const differences = await load(server.url, dir, manifest);
        if (differences.length) throw new BackupError(`the backup is damaged: ${differences.join('; ')}`);
        await afterRestore(server.url);
      } finally {
        await server.stop();
      }
      const store = opts.store(opts.dataDir);
      for (const f of manifest.files) {
        const put = await store.put(f.key, createReadStream(path.join(dir, 'files', ...f.key.split('/'))), {
          maxBytes: Number.MAX_SAFE_INTEGER,
        });
        if (put.sha256 !== f.sha256) throw new BackupError(`file ${f.key} was not stored intact`);
      }
    } catch (e) {
      // A half-restored folder would start as an empty database: leave none of it behind.
      await clear();
      throw e;
    }
    return { manifest };
  } finally {
    await dispose();
  }
}

/**
 * Jobs that were running when the backup was taken run again after the restore (their worker is
 * gone), except the backup that made this file.
 */
async function afterRestore(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(`delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
      where t.id = j.task_id and t.identifier = 'backup.run' and j.locked_by is not null`);
    await client.query(
      `update graphile_worker._private_jobs set locked_by = null, locked_at = null where locked_by is not null`,
    );
    await client.query(
      `update graphile_worker._private_job_queues set locked_by = null, locked_at = null where locked_by is not null`,
    );
    await client.query('commit');
  } finally {
    await client.end().catch(() => {});
  }
}

/** Row counts per table of a manifest, for the operator's summary line. */
export function summary(manifest: Manifest): string {
  const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
  return `${manifest.tables.length} tables, ${rows} rows, ${manifest.sequences.length} sequences, ${manifest.files.length} files`;
}
