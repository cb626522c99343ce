import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { createFileStore } from './features/documents/storage.ts';
import { returnAbandonedJobs } from './jobs/abandoned.ts';
import { manageProcess, raiseTestFault } from './lifecycle.ts';
import { listenNotice } from './listen-notice.ts';
import { seedFirstStart } from './seed/demo/index.ts';

const say = (message: string) => console.log(`[fvg] ${message}`);

async function main() {
  const life = manageProcess(say);
  const config = loadConfig();
  const database = await openDatabase(config, say);
  life.closeWith(() => database.shutdown());
  say(`database: ${database.where}`);
  if (database.startedHere) {
    const returned = await returnAbandonedJobs(database.pool);
    if (returned) say(`returned ${returned} unfinished job(s) of the previous run to the queue`);
  }
  if (config.seedDemo) {
    const seeded = await seedFirstStart(database.db, { company: { store: createFileStore(config) } });
    if (seeded.users.length) {
      say(`seeded the demo company in ${seeded.seconds.toFixed(1)} s; sign in with:`);
      for (const u of seeded.users)
        say(`  ${u.role.padEnd(8)} ${u.email} / ${u.password}${u.cwAccess ? ' (cw_access)' : ''}`);
    }
  }
  const app = await buildApp({ config, db: database.db, pool: database.pool, status: database.status });
  // A stop first lets running jobs finish (and takes no new one), then closes the app (HTTP, hub), the
  // pool and, last, the embedded server.
  life.closeWith(async () => {
    await app.services.jobs.stop();
    await app.close();
    await database.shutdown();
  });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (e) {
    await database.shutdown();
    throw e;
  }
  const bound = app.server.address();
  for (const line of listenNotice(config.host, typeof bound === 'object' && bound ? bound.port : config.port))
    say(line);
  raiseTestFault();
}

main().catch((e: unknown) => {
  // One line an operator can act on; the reason is in the message (PostgreSQL's own words included).
  console.error(`[fvg] failed to start: ${e instanceof Error ? e.message : String(e ?? 'unknown error')}`);
  process.exit(1);
});
