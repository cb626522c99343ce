import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { seedScale } from '../apps/api/src/db/seed-scale.ts';

/** `npm run seed:scale -- --dossiers 1000000`: volume data in the configured database (DATA_DIR or DATABASE_URL). */
const { values } = parseArgs({
  options: {
    dossiers: { type: 'string', default: '100000' },
    charges: { type: 'string', default: '2' },
    transports: { type: 'string', default: '2' },
  },
});
const dossiers = Number(values.dossiers);
if (!Number.isInteger(dossiers) || dossiers < 1 || dossiers > 50_000_000) {
  console.error('--dossiers must be a whole number between 1 and 50000000');
  process.exit(2);
}
const database = await openDatabase(loadConfig(), (m) => console.log(`[fvg] ${m}`));
try {
  const t0 = performance.now();
  const reports = await seedScale(database.db, {
    dossiers,
    chargesPerDossier: Number(values.charges),
    transportsPerDossier: Number(values.transports),
    log: (l) => console.log(l),
  });
  const rows = reports.reduce((a, r) => a + r.rows, 0);
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `total: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en-US')} rows/s, analyze included)`,
  );
} finally {
  await database.shutdown();
}
process.exit(0);
