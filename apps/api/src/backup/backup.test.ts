import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { type OpenDatabase, openDatabase } from '../db/open.ts';
import { minimalPdf } from '../features/documents/minimal-pdf.ts';
import { seedDemo } from '../seed/sign-ins.ts';
import { bearer, DEMO_PASSWORDS, multipartForm, testConfig } from '../test/helpers.ts';
import type { Manifest } from './backup.ts';

/**
 * The operator commands as an operator runs them (`npm run cli -- backup|restore|verify`), against an
 * app that runs on its own embedded PostgreSQL and takes writes while the backup is taken.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');

async function cli(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'cli', '--', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

async function folder(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `fvg-${name}-`));
  await chmod(dir, 0o755); // PostgreSQL runs as `postgres` when the tests run as root
  return dir;
}

interface Running {
  database: OpenDatabase;
  app: App;
  auth: { authorization: string };
  close(): Promise<void>;
}

async function start(dataDir: string, seed: boolean): Promise<Running> {
  const config = testConfig({ dataDir, databaseUrl: undefined });
  const database = await openDatabase(config, () => {});
  if (seed) await seedDemo(database.db);
  const app = await buildApp({ config, db: database.db, pool: database.pool, logger: false });
  await app.ready();
  const auth = await bearer(app, ...DEMO_PASSWORDS.staff);
  return {
    database,
    app,
    auth,
    async close() {
      await app.close();
      await database.shutdown();
    },
  };
}

const dirs: string[] = [];
let source: Running;
let restored: Running | undefined;
let sourceDir: string;
let outDir: string;
let backupFile: string;
/** Party codes whose creation the API acknowledged before the backup command started. */
let ackedBefore: string[] = [];
/** Every code a writer sent, acknowledged or not. */
const attempted = new Set<string>();
let document: { id: string; bytes: Buffer };
let tampered: string;

beforeAll(async () => {
  sourceDir = await folder('backup-source');
  outDir = await folder('backup-out');
  dirs.push(sourceDir, outDir);
  source = await start(sourceDir, true);
}, 120_000);

afterAll(async () => {
  await restored?.close().catch(() => {});
  await source?.close().catch(() => {});
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}, 60_000);

describe('npm run cli -- backup / restore / verify', () => {
  it('takes a backup while writes go on; a restore into a fresh folder holds every write acknowledged before it, and the document files', async () => {
    const acme = await source.database.db
      .selectFrom('parties')
      .select('id')
      .where('code', '=', 'ACME')
      .executeTakeFirstOrThrow();
    const dossier = await source.app.inject({
      method: 'POST',
      url: '/api/dossiers',
      headers: source.auth,
      payload: {
        type: 'import',
        mode: 'sea',
        customerId: acme.id,
        originLocode: 'CNSHA',
        destinationLocode: 'NLRTM',
        containers: [],
      },
    });
    expect(dossier.statusCode, dossier.body).toBe(201);
    const dossierId = (dossier.json() as { id: string }).id;
    const bytes = minimalPdf('backup proof');
    const form = multipartForm(
      {
        recordType: 'dossier',
        recordId: dossierId,
        documentType: 'packing_list',
        visibleToCustomer: 'false',
      },
      [{ filename: 'proof.pdf', content: bytes, contentType: 'application/pdf' }],
    );
    const up = await source.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...source.auth, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    document = { id: (up.json() as { items: { id: string }[] }).items[0]?.id as string, bytes };

    // Two writers create parties until told to stop; each acknowledged code is recorded.
    const acked: string[] = [];
    let stop = false;
    let serial = 0;
    const writer = async () => {
      while (!stop) {
        const code = `BK${process.pid % 1000}${serial++}`;
        attempted.add(code);
        const r = await source.app.inject({
          method: 'POST',
          url: '/api/parties',
          headers: source.auth,
          payload: { code, name: `Backup load ${code}`, kinds: ['agent'], countryCode: 'NL' },
        });
        if (r.statusCode === 201) acked.push(code);
        else throw new Error(`write refused: ${r.statusCode} ${r.body}`);
      }
    };
    const writers = [writer(), writer()];
    const deadline = Date.now() + 30_000;
    while (acked.length < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    ackedBefore = [...acked];
    const backup = await cli({ DATA_DIR: sourceDir }, 'backup', '--out', outDir);
    const ackedDuring = acked.length - ackedBefore.length;
    stop = true;
    await Promise.all(writers);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      /^backup written: .*fvg-backup-\d{8}-\d{6}Z\.tar\.gz \(.*\d+ tables, \d+ rows/,
    );
    expect(ackedBefore.length).toBeGreaterThanOrEqual(20);
    // The load went on while the backup ran: the snapshot was taken under writes.
    expect(ackedDuring).toBeGreaterThan(0);
    const files = (await readdir(outDir)).filter((n) => n.endsWith('.tar.gz'));
    expect(files).toHaveLength(1);
    backupFile = path.join(outDir, files[0] as string);

    const freshDir = await folder('backup-restored');
    dirs.push(freshDir);
    await rm(freshDir, { recursive: true }); // a folder that does not exist yet is fresh too
    const r = await cli({ DATA_DIR: freshDir }, 'restore', backupFile);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^restored fvg-backup-.*into /);

    restored = await start(freshDir, false);
    const codes = (
      await restored.database.db.selectFrom('parties').select('code').where('code', 'like', 'BK%').execute()
    ).map((p) => p.code);
    // Every write acknowledged before the backup began is there; nothing that was never sent is.
    expect(codes).toEqual(expect.arrayContaining(ackedBefore));
    for (const c of codes) expect(attempted.has(c)).toBe(true);
    // The restored app serves the document's file, byte for byte, to a signed-in user.
    const file = await restored.app.inject({
      method: 'GET',
      url: `/api/documents/${document.id}/content`,
      headers: restored.auth,
    });
    expect(file.statusCode).toBe(200);
    expect(Buffer.compare(file.rawPayload, document.bytes)).toBe(0);
    await restored.close();
    restored = undefined;

    // Taken from a data folder whose app is not running: the command starts the server itself.
    const again = await cli({ DATA_DIR: freshDir }, 'backup', '--out', path.join(freshDir, 'b'));
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
  }, 240_000);

  it('verify says OK for a good backup and names the table of a tampered one (exit 1)', async () => {
    const good = await cli({}, 'verify', backupFile);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^OK: fvg-backup-.* restores to what its manifest says/);

    // The same archive with one party's name changed in its table file, manifest untouched.
    const work = await folder('backup-tamper');
    dirs.push(work);
    await tar.extract({ file: backupFile, cwd: work });
    const manifest = JSON.parse(await readFile(path.join(work, 'manifest.json'), 'utf8')) as Manifest;
    const parties = manifest.tables.find((t) => t.schema === 'public' && t.name === 'parties');
    if (!parties) throw new Error('no parties table in the manifest');
    const tsv = path.join(work, parties.file);
    const text = await readFile(tsv, 'utf8');
    expect(text).toContain('Backup load');
    await writeFile(tsv, text.replace('Backup load', 'Backup lied'));
    tampered = path.join(work, 'tampered.tar.gz');
    await tar.create({ gzip: true, file: tampered, cwd: work }, ['manifest.json', 'db', 'files']);
    const bad = await cli({}, 'verify', tampered);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^FAILED: tampered\.tar\.gz does not restore to what its manifest says:\n/);
    expect(bad.stderr).toMatch(/table public\.parties: its rows differ from the backup's \(checksum\)/);
    expect(bad.stdout).toBe('');

    // Not a backup at all.
    const junk = path.join(work, 'junk.tar.gz');
    await writeFile(junk, 'not a backup');
    const notOne = await cli({}, 'verify', junk);
    expect(notOne.code).toBe(1);
    expect(notOne.stderr).toMatch(/^error: .*junk\.tar\.gz is not a readable backup/);
  }, 240_000);

  it('restore refuses a folder holding data without --force, and replaces it with --force', async () => {
    const used = await folder('backup-used');
    dirs.push(used);
    await mkdir(path.join(used, 'files', 'x'), { recursive: true });
    await writeFile(path.join(used, 'files', 'x', 'keep-me'), 'precious');
    const refused = await cli({ DATA_DIR: used }, 'restore', backupFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not empty \(it holds files\).*--force/);
    expect(await readFile(path.join(used, 'files', 'x', 'keep-me'), 'utf8')).toBe('precious');

    // The running source app's folder: refused even with --force, and the app goes on.
    const running = await cli({ DATA_DIR: sourceDir }, 'restore', backupFile, '--force');
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(/is running .*stop the app/);
    const still = await source.app.inject({
      method: 'GET',
      url: '/api/parties?pageSize=1',
      headers: source.auth,
    });
    expect(still.statusCode).toBe(200);

    // A damaged backup is refused before anything is replaced, and leaves nothing in a fresh folder.
    const damaged = await cli({ DATA_DIR: used }, 'restore', tampered, '--force');
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(/^error: the backup is damaged: table public\.parties: its rows differ/);
    expect(await readFile(path.join(used, 'files', 'x', 'keep-me'), 'utf8')).toBe('precious');
    // A table file that matches its manifest but does not load (an unreadable row): the restore
    // fails while loading, and the fresh folder is left without a half-made database.
    const work = await folder('backup-unloadable');
    dirs.push(work);
    await tar.extract({ file: backupFile, cwd: work });
    const manifest = JSON.parse(await readFile(path.join(work, 'manifest.json'), 'utf8')) as Manifest;
    const parties = manifest.tables.find((t) => t.schema === 'public' && t.name === 'parties');
    if (!parties) throw new Error('no parties table in the manifest');
    const broken = 'not\ta\tparty\n';
    await writeFile(path.join(work, parties.file), broken);
    parties.sha256 = createHash('sha256').update(broken).digest('hex');
    await writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest));
    const unloadable = path.join(work, 'unloadable.tar.gz');
    await tar.create({ gzip: true, file: unloadable, cwd: work }, ['manifest.json', 'db', 'files']);
    const fresh = await folder('backup-damaged');
    dirs.push(fresh);
    const failed = await cli({ DATA_DIR: fresh }, 'restore', unloadable);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error: /);
    expect(await readdir(fresh)).toEqual([]);

    const forced = await cli({ DATA_DIR: used }, 'restore', backupFile, '--force');
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    await expect(readFile(path.join(used, 'files', 'x', 'keep-me'), 'utf8')).rejects.toThrow(/ENOENT/);
  }, 240_000);
});
