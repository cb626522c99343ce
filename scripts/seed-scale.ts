import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { createFileStore } from '../apps/api/src/features/documents/storage.ts';
import { seedOperations, seedScale } from '../apps/api/src/seed/scale/scale.ts';
import { fillSearchIndex } from '../apps/api/src/seed/scale/search.ts';
import { seedWarehouse } from '../apps/api/src/seed/scale/warehouse.ts';

/**
 * `npm run seed:scale -- --dossiers 1000000`: volume data in the configured database (DATA_DIR or
 * DATABASE_URL): parties, dossiers with charges and transport legs, then container events and
 * documents (for the dossiers that have none yet: the demo company keeps its own), then the customs
 * warehouse (`--stock-records 1000000 --shipments 200000` by default, 3 handling units a record;
 * `--stock-records 0` leaves it out). The search index follows every write (its triggers, migration
 * 0025); `--search-rebuild` refills it from the areas' rows, `--search-rows 10000000` pads it to that
 * many entries with synthetic copies of real ones (apps/api/src/seed/scale/search.ts; the log says how many of each).
 * `--dossiers 0` adds no area records (e.g. only the search part on a database seeded before).
 */
const { values } = parseArgs({
  options: {
    dossiers: { type: 'string', default: '100000' },
    charges: { type: 'string', default: '2' },
    transports: { type: 'string', default: '2' },
    'events-per-container': { type: 'string', default: '4' },
    'documents-per-dossier': { type: 'string', default: '1' },
    'document-files': { type: 'string', default: 'none' },
    'stock-records': { type: 'string', default: '1000000' },
    shipments: { type: 'string', default: '200000' },
    skus: { type: 'string', default: '5000' },
    'search-rows': { type: 'string', default: '0' },
    'search-rebuild': { type: 'boolean', default: false },
  },
});
const whole = (name: string, value: string | undefined, min: number, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be a whole number between ${min} and ${max}`);
    process.exit(2);
  }
  return n;
};
const dossiers = whole('dossiers', values.dossiers, 0, 50_000_000);
const charges = whole('charges', values.charges, 0, 50);
const transports = whole('transports', values.transports, 0, 20);
const eventsPerContainer = whole('events-per-container', values['events-per-container'], 0, 50);
const documentsPerDossier = whole('documents-per-dossier', values['documents-per-dossier'], 0, 50);
const stockRecords = whole('stock-records', values['stock-records'], 0, 50_000_000);
const shipments = whole('shipments', values.shipments, 0, stockRecords);
const skus = whole('skus', values.skus, 1, 10_000_000);
const searchRows = whole('search-rows', values['search-rows'], 0, 100_000_000);
const documentFiles = values['document-files'];
if (documentFiles !== 'none' && documentFiles !== 'each') {
  console.error('--document-files must be none (rows only) or each (a small PDF per row)');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config, (m) => console.log(`[fvg] ${m}`));
try {
  const t0 = performance.now();
  const reports = [
    ...(dossiers > 0
      ? [
          ...(await seedScale(database.db, {
            dossiers,
            chargesPerDossier: charges,
            transportsPerDossier: transports,
            log: (l) => console.log(l),
          })),
          ...(await seedOperations(database.db, createFileStore(config), {
            eventsPerContainer,
            documentsPerDossier,
            documentFiles,
            log: (l) => console.log(l),
          })),
        ]
      : []),
    ...(stockRecords > 0
      ? await seedWarehouse(database.db, { stockRecords, shipments, skus, log: (l) => console.log(l) })
      : []),
    ...(await fillSearchIndex(database.db, {
      rebuild: values['search-rebuild'],
      rows: searchRows,
      log: (l) => console.log(l),
    })),
  ];
  const rows = reports.reduce((a, r) => a + r.rows, 0);
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `total: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en-US')} rows/s, analyze included)`,
  );
} finally {
  await database.shutdown();
}
process.exit(0);
