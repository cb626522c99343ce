import { Kysely, type Migration, type MigrationProvider, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import * as m0001 from './migrations/0001-foundation.ts';
import * as m0002 from './migrations/0002-dossiers.ts';
import * as m0003 from './migrations/0003-chat.ts';
import * as m0004 from './migrations/0004-reference-prefix-indexes.ts';
import * as m0005 from './migrations/0005-documents.ts';
import * as m0006 from './migrations/0006-container-events.ts';
import * as m0007 from './migrations/0007-transports.ts';
import * as m0008 from './migrations/0008-transport-spans.ts';
import * as m0009 from './migrations/0009-planning-vehicles.ts';
import * as m0011 from './migrations/0011-sign-in-limits.ts';
import * as m0012 from './migrations/0012-idempotency-keys.ts';
import * as m0014 from './migrations/0014-notifications.ts';
import * as m0016 from './migrations/0016-company-settings.ts';
import * as m0017 from './migrations/0017-sales-offers.ts';
import * as m0018 from './migrations/0018-sales-invoices.ts';
import * as m0019 from './migrations/0019-mail-attachments.ts';
import * as m0020 from './migrations/0020-declarations.ts';
import * as m0021 from './migrations/0021-sandbox-mrn.ts';
import * as m0022 from './migrations/0022-invoice-list-index-order.ts';
import * as m0023 from './migrations/0023-warehouse-stock.ts';
import * as m0024 from './migrations/0024-warehouse-shipments.ts';
import * as m0025 from './migrations/0025-search.ts';
import * as m0026 from './migrations/0026-dashboard.ts';
import * as m0027 from './migrations/0027-user-preferences.ts';
import * as m0028 from './migrations/0028-search-words-per-kind.ts';
import * as m0029 from './migrations/0029-invoice-chronology.ts';
import * as m0030 from './migrations/0030-vat-by-country-peppol.ts';
import * as m0031 from './migrations/0031-party-of-what-was-said.ts';
import * as m0032 from './migrations/0032-receipt-entries.ts';
import * as m0033 from './migrations/0033-shipment-declarations.ts';
import * as m0034 from './migrations/0034-allowances-and-charges.ts';
import * as m0035 from './migrations/0035-temporary-storage-exits.ts';
import * as m0036 from './migrations/0036-sessions.ts';
import * as m0037 from './migrations/0037-transit-hs-subheadings.ts';
import * as m0038 from './migrations/0038-method-of-payment.ts';
import * as m0039 from './migrations/0039-annex-b-data.ts';
import * as m0040 from './migrations/0040-valuation-reason.ts';
import * as m0041 from './migrations/0041-valuation-adjustments.ts';
import * as m0042 from './migrations/0042-customs-exchange-rates.ts';
import * as m0043 from './migrations/0043-generated-document-types.ts';
import * as m0044 from './migrations/0044-allocation-pick-states.ts';
import * as m0045 from './migrations/0045-one-charge-vocabulary.ts';
import type { Database } from './schema.ts';

// int8 (bigint, count(*)) as JS numbers: our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// date columns stay calendar dates (YYYY-MM-DD), never shifted through a time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Kysely<Database>;

/** Migrations in order; a new one is appended here (names sort by their number). */
const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-dossiers': m0002,
  '0003-chat': m0003,
  '0004-reference-prefix-indexes': m0004,
  '0005-documents': m0005,
  '0006-container-events': m0006,
  '0007-transports': m0007,
  '0008-transport-spans': m0008,
  '0009-planning-vehicles': m0009,
  '0011-sign-in-limits': m0011,
  '0012-idempotency-keys': m0012,
  '0014-notifications': m0014,
  '0016-company-settings': m0016,
  '0017-sales-offers': m0017,
  '0018-sales-invoices': m0018,
  '0019-mail-attachments': m0019,
  '0020-declarations': m0020,
  '0021-sandbox-mrn': m0021,
  '0022-invoice-list-index-order': m0022,
  '0023-warehouse-stock': m0023,
  '0024-warehouse-shipments': m0024,
  '0025-search': m0025,
  '0026-dashboard': m0026,
  '0027-user-preferences': m0027,
  '0028-search-words-per-kind': m0028,
  '0029-invoice-chronology': m0029,
  '0030-vat-by-country-peppol': m0030,
  '0031-party-of-what-was-said': m0031,
  '0032-receipt-entries': m0032,
  '0033-shipment-declarations': m0033,
  '0034-allowances-and-charges': m0034,
  '0035-temporary-storage-exits': m0035,
  '0036-sessions': m0036,
  '0037-transit-hs-subheadings': m0037,
  '0038-method-of-payment': m0038,
  '0039-annex-b-data': m0039,
  '0040-valuation-reason': m0040,
  '0041-valuation-adjustments': m0041,
  '0042-customs-exchange-rates': m0042,
  '0043-generated-document-types': m0043,
  '0044-allocation-pick-states': m0044,
  '0045-one-charge-vocabulary': m0045,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connect(url: string, max = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // A client checked out (inside a transaction, between its queries) that loses its server emits
  // 'error' with nobody listening, which would end the process; its next query fails instead and the
  // request answers 503 (docs/adr/0053).
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool, close: () => db.destroy() };
}

/** Brings the schema to the latest migration; safe to run from several processes at once (Kysely locks). */
export async function migrate(db: Db): Promise<string[]> {
  // Areas are built in parallel and their migrations are independent: a database that already has a
  // later-numbered one still takes an earlier-numbered one that arrives after it.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Every migration this version knows, by name. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/**
 * Applies exactly the migrations `names` (a restore rebuilds the schema a backup was taken at; later
 * ones apply at the next start). A name this version does not know is refused by the caller.
 */
export async function migrateOnly(db: Db, names: readonly string[]): Promise<void> {
  const only = new Set(names);
  const subset: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(Object.entries(migrations).filter(([n]) => only.has(n))),
  };
  const migrator = new Migrator({ db, provider: subset, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The migrations of this build that the database has not run yet (readiness, ADR 0055); reads only. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}
