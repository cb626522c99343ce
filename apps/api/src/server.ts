import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { seedFirstStart } from './db/demo/index.ts';
import { openDatabase } from './db/open.ts';
import { createFileStore } from './features/documents/storage.ts';

const say = (message: string) => console.log(`[fvg] ${message}`);

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config, say);
  say(`database: ${database.where}`);
  if (config.seedDemo) {
    const seeded = await seedFirstStart(database.db, { company: { store: createFileStore(config) } });
    if (seeded.users.length) {
      say(`seeded the demo company in ${seeded.seconds.toFixed(1)} s; sign in with:`);
      for (const u of seeded.users)
        say(`  ${u.role.padEnd(8)} ${u.email} / ${u.password}${u.cwAccess ? ' (cw_access)' : ''}`);
    }
  }
  const app = await buildApp({ config, db: database.db, pool: database.pool, status: database.status });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await database.shutdown();
    } finally {
      say('stopped');
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    await database.shutdown();
    throw e;
  }
  say(`FVG is running on http://localhost:${config.port}`);
}

main().catch((e: unknown) => {
  // One line an operator can act on; the reason is in the message (PostgreSQL's own words included).
  console.error(`[fvg] failed to start: ${e instanceof Error ? e.message : String(e ?? 'unknown error')}`);
  process.exit(1);
});
