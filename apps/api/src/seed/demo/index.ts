import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { documentsRepository } from '../../features/documents/documents.repository.ts';
import type { FileStore } from '../../features/documents/storage.ts';
import { DEMO_USERS, insertDemoSignIns } from '../sign-ins.ts';
import { seedChat } from './chat.ts';
import { seedCompany } from './company.ts';
import { seedContainerEvents } from './containers.ts';
import { type DemoContext, flushAudit, midnight, prng } from './context.ts';
import { seedDeclarations } from './declarations.ts';
import { seedDocuments } from './documents.ts';
import { seedDossiers } from './dossiers.ts';
import { seedInvoices } from './invoices.ts';
import { seedOffers } from './offers.ts';
import { seedParties } from './parties.ts';
import { seedTransports } from './transports.ts';
import { seedWarehouse } from './warehouse.ts';

/**
 * The demo company's areas, in order (later ones read what earlier ones made, through the context).
 * A new area (offers, invoices, declarations, the warehouse) adds its module here.
 */
const AREAS: { name: string; seed: (ctx: DemoContext) => Promise<unknown> }[] = [
  { name: 'company settings', seed: seedCompany },
  { name: 'parties', seed: seedParties },
  { name: 'dossiers', seed: seedDossiers },
  { name: 'transports', seed: seedTransports },
  { name: 'container events', seed: seedContainerEvents },
  { name: 'documents', seed: seedDocuments },
  { name: 'chat', seed: seedChat },
  { name: 'invoices', seed: seedInvoices },
  { name: 'sales offers', seed: seedOffers },
  { name: 'customs declarations', seed: seedDeclarations },
  { name: 'customs warehouse', seed: seedWarehouse },
];

export interface FirstStartOptions {
  /** Seed the demo company besides the sign-ins (needs the file store for its documents). */
  company?: { store: FileStore };
  /** The clock the company is dated by (tests pin it); default now. */
  now?: Date;
}

export interface FirstStartResult {
  /** The sign-ins created (empty when the database was not empty). */
  users: typeof DEMO_USERS;
  /** What each area of the demo company added, by area name. */
  company: Record<string, unknown> | null;
  /** Seconds per step (sign-ins, then each area), for the start-up log. */
  timings?: Record<string, number>;
  seconds: number;
}

/** Any number: two nodes starting on one empty database take turns; the second finds it seeded. */
const SEED_LOCK = 7_310_010;

/**
 * A first start on an empty database (no user yet): the demo sign-ins and parties and, when asked,
 * the demo company, all in ONE transaction. A crash part-way rolls everything back, so the next
 * start finds the database empty again and seeds it whole; there is never half a company. Only the
 * documents' files live outside the database: they are written before their rows (as an upload
 * does), under the database's storage namespace, which is committed first so that the orphan sweep
 * finds any file a rolled-back seed left.
 */
export async function seedFirstStart(db: Db, opts: FirstStartOptions = {}): Promise<FirstStartResult> {
  const t0 = performance.now();
  const now = opts.now ?? new Date();
  const empty = async (d: Db) =>
    Number(
      (
        await d
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ) === 0;
  if (!(await empty(db))) return { users: [], company: null, seconds: 0 };
  const namespace = opts.company ? await documentsRepository(db).namespace() : '';
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    if (!(await empty(trx))) return { users: [], company: null, seconds: 0 };
    const ids = await insertDemoSignIns(trx);
    const timings: Record<string, number> = { 'sign-ins': (performance.now() - t0) / 1000 };
    if (!opts.company) return { users: DEMO_USERS, company: null, seconds: (performance.now() - t0) / 1000 };
    const parties = Object.fromEntries(
      (await trx.selectFrom('parties').select(['code', 'id']).execute()).map((p) => [p.code, p.id]),
    );
    const ctx: DemoContext = {
      db: trx,
      now,
      today: midnight(now),
      rand: prng(20_261_110),
      users: {
        admin: ids['admin@fvg.local'] as string,
        staff: ids['staff@fvg.local'] as string,
        acme: ids['customer@acme.example'] as string,
        globex: ids['customer@globex.example'] as string,
      },
      parties,
      store: opts.company.store,
      namespace,
      dossiers: [],
      audits: [],
    };
    const company: Record<string, unknown> = {};
    for (const area of AREAS) {
      const started = performance.now();
      company[area.name] = (await area.seed(ctx)) ?? null;
      await flushAudit(ctx);
      timings[area.name] = (performance.now() - started) / 1000;
    }
    company.dossiers = ctx.dossiers.length;
    return { users: DEMO_USERS, company, timings, seconds: (performance.now() - t0) / 1000 };
  });
}
