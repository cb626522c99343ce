/**
 * `npm run bench:api -- --dossiers 1000000`: the dossiers API at volume on PostgreSQL, next to the
 * same SQL run straight against the database in the same run (the floor).
 *
 * - data: the embedded PostgreSQL under bench/.data (or DATABASE_URL), filled by seed:scale to N dossiers;
 * - the API runs as its own process (npm run serve's entry); the load comes from another process
 *   (bench/api-load.ts), C concurrent connections for D seconds per scenario;
 * - the floor: the repository call each endpoint makes (SQL only), from this process, same C and D.
 * Prints p50/p95/p99 and requests per second, and API ÷ floor ratios; writes bench/results/api-latest.json.
 * Issuing invoices is measured apart (`issuing`): fresh drafts issued through the API by 1 and 10
 * concurrent issuers, then the numbers checked gap-free and consecutive, next to the bare SQL of issuing.
 * The customs warehouse (`--stock-records`, `--shipments`, seeded by seed:scale's warehouse part when
 * there is no stock yet): the stock list and a stock record's tree as scenarios (the admin's token: staff
 * has no warehouse access), and release throughput (`releasing`): fresh draft shipments on the same
 * few SKUs released through the API by 1 and 10 concurrent releasers, then checked that nothing is
 * oversold or reserved twice, next to the bare SQL of a release. A transit's IE015 built, and built and
 * checked against the NCTS schema, in messages per second (`ncts`, bench/ncts.ts).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import {
  containerListQuerySchema,
  dcsaEventSchema,
  declarationListQuerySchema,
  documentListQuerySchema,
  dossierListQuerySchema,
  EVENT_LINKING_STATUSES,
  planFifo,
  salesInvoiceListQuerySchema,
  stockListQuerySchema,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { takeSeriesNumber } from '../apps/api/src/features/company/company.service.ts';
import { containerEventsRepository } from '../apps/api/src/features/container-events/container-events.repository.ts';
import { toNewEvent } from '../apps/api/src/features/container-events/container-events.service.ts';
import { declarationsRepository } from '../apps/api/src/features/declarations/declarations.repository.ts';
import { insertMessage, summaries } from '../apps/api/src/features/declarations/sandbox/messages.ts';
import { allocateMrn } from '../apps/api/src/features/declarations/sandbox/mrn.ts';
import { completeImport } from '../apps/api/src/features/declarations/test-support.ts';
import { documentsRepository } from '../apps/api/src/features/documents/documents.repository.ts';
import { createFileStore } from '../apps/api/src/features/documents/storage.ts';
import {
  dossierListSpec,
  dossiersRepository,
} from '../apps/api/src/features/dossiers/dossiers.repository.ts';
import { salesInvoicesRepository } from '../apps/api/src/features/sales-invoices/sales-invoices.repository.ts';
import { todayIn } from '../apps/api/src/features/sales-invoices/sales-invoices.service.ts';
import { transportsRepository } from '../apps/api/src/features/transports/transports.repository.ts';
import { lockStockFor } from '../apps/api/src/features/warehouse/shipments/shipments.repository.ts';
import {
  findStock,
  stockRepository,
  stockTree,
} from '../apps/api/src/features/warehouse/stock/stock.repository.ts';
import { writeAudit } from '../apps/api/src/records/audit.ts';
import { cursorAt } from '../apps/api/src/records/list.ts';
import {
  DECLARATION_TABLES,
  SALES_TABLES,
  seedDeclarations,
  seedInvoices,
  seedOffers,
  seedOperations,
  seedScale,
  seedTransports,
} from '../apps/api/src/seed/scale/scale.ts';
import { seedWarehouse } from '../apps/api/src/seed/scale/warehouse.ts';
import { drive, type LoadResult } from './api-load.ts';
import { dcsaEvents } from './dcsa-events.ts';
import { benchNcts } from './ncts.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    dossiers: { type: 'string', default: '1000000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1,10' },
    /** Only the scenarios whose names contain one of these comma-separated words. */
    only: { type: 'string', default: '' },
    /** Declarations lodged for the sandbox throughput (and as many for its SQL floor). */
    lodge: { type: 'string', default: '600' },
    /** JOBS_CONCURRENCY of the worker process that answers them (the app's default is 2). */
    'worker-concurrency': { type: 'string', default: '2' },
    /** The warehouse's volume when there is no stock yet (seed:scale's defaults: 1 M records, 200 000 shipments). */
    'stock-records': { type: 'string', default: '1000000' },
    shipments: { type: 'string', default: '200000' },
  },
});
const N = Number(args.dossiers);
const SECONDS = Number(args.seconds);
const CONNECTIONS = String(args.connections).split(',').map(Number);
const LODGE = Math.max(500, Number(args.lodge));
const STOCK_RECORDS = Number(args['stock-records']);
const SHIPMENTS = Math.min(Number(args.shipments), STOCK_RECORDS);
const WORKER_CONCURRENCY = Math.max(1, Number(args['worker-concurrency']));
/** Every step of the sandbox answered at once: the throughput is the queue's, not the delays'. */
const SANDBOX_ZERO = 'accept=0,control=0,release=0,exit=0,arrival=0,discharge=0,answer=0';
const ONLY = String(args.only)
  .split(',')
  .map((w) => w.trim())
  .filter(Boolean);

async function freePort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

const dataDir = process.env.DATABASE_URL ? undefined : path.join(root, 'bench/.data');
const config = loadConfig({ ...process.env, ...(dataDir ? { DATA_DIR: dataDir } : {}) });
const database = await openDatabase(config, (m) => console.log(`[db] ${m}`));
let server: ChildProcess | undefined;
try {
  const have = Number(
    (await sql<{ n: number }>`select count(*)::int n from dossiers`.execute(database.db)).rows[0]?.n,
  );
  if (have < N) {
    console.log(`seeding ${N - have} dossiers (have ${have}) …`);
    await seedScale(database.db, { dossiers: N - have, log: (l) => console.log(`  ${l}`) });
  }
  const total = Number(
    (await sql<{ n: number }>`select count(*)::int n from dossiers`.execute(database.db)).rows[0]?.n,
  );
  // Data seeded before transports existed gets its legs now (2 per dossier).
  const legs = Number(
    (await sql<{ n: number }>`select count(*)::int n from transports`.execute(database.db)).rows[0]?.n,
  );
  if (legs === 0) {
    console.log('seeding 2 transport legs per dossier …');
    const t0 = performance.now();
    await seedTransports(database.db, 2, sql`true`);
    await sql`vacuum (analyze) transports`.execute(database.db);
    console.log(`  transports seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Container events (about 5 M at 1 M dossiers) and documents (1 per dossier), when still empty.
  for (const r of await seedOperations(database.db, createFileStore(config), {
    log: (l) => console.log(`  ${l}`),
  }))
    console.log(`  seeded ${r.table}: ${r.rows} rows in ${r.seconds.toFixed(1)} s (${r.rowsPerSecond}/s)`);
  // Data seeded before sales existed gets its offers and invoices now.
  const sales = (
    await sql<{ offers: number; invoices: number }>`
      select (select count(*)::int from sales_offers) offers, (select count(*)::int from sales_invoices) invoices`.execute(
      database.db,
    )
  ).rows[0];
  if (!sales?.offers || !sales.invoices) {
    console.log('seeding sales offers and invoices …');
    const t0 = performance.now();
    if (!sales?.offers) await seedOffers(database.db, sql`true`);
    if (!sales?.invoices) await seedInvoices(database.db, sql`true`);
    for (const t of SALES_TABLES) await sql.raw(`vacuum (analyze) ${t}`).execute(database.db);
    console.log(`  sales seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // Data seeded before declarations existed gets one per 2 dossiers now.
  const haveDeclarations = Number(
    (await sql<{ n: number }>`select count(*)::int n from declarations`.execute(database.db)).rows[0]?.n,
  );
  if (haveDeclarations === 0) {
    console.log('seeding customs declarations …');
    const t0 = performance.now();
    const r = await seedDeclarations(database.db, sql`true`);
    for (const t of DECLARATION_TABLES) await sql.raw(`vacuum (analyze) ${t}`).execute(database.db);
    console.log(
      `  ${r.declarations} declarations, ${r.items} items, ${r.messages} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  // Data seeded before the warehouse existed gets its stock and shipments now.
  const haveStock = Number(
    (await sql<{ n: number }>`select count(*)::int n from stock_records`.execute(database.db)).rows[0]?.n,
  );
  if (haveStock === 0 && STOCK_RECORDS > 0) {
    console.log(`seeding the customs warehouse (${STOCK_RECORDS} stock records, ${SHIPMENTS} shipments) …`);
    const t0 = performance.now();
    await seedWarehouse(database.db, {
      stockRecords: STOCK_RECORDS,
      shipments: SHIPMENTS,
      log: (l) => console.log(`  ${l}`),
    });
    console.log(`  warehouse seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const warehouse = (
    await sql<{ records: number; units: number; shipments: number }>`
      select (select count(*)::int from stock_records) records, (select count(*)::int from handling_units) units,
             (select count(*)::int from shipments) shipments`.execute(database.db)
  ).rows[0] ?? { records: 0, units: 0, shipments: 0 };
  const counts = (
    await sql<{ events: string; documents: string; transports: string; invoices: string; offers: string }>`
      select (select count(*) from container_events) as events, (select count(*) from documents) as documents,
             (select count(*) from transports) as transports, (select count(*) from sales_invoices) as invoices,
             (select count(*) from sales_offers) as offers`.execute(database.db)
  ).rows[0];
  const declarationCount = Number(
    (await sql<{ n: number }>`select count(*)::int n from declarations`.execute(database.db)).rows[0]?.n,
  );

  // The busiest week of pickups, for the planning list.
  const week =
    (
      await sql<{
        d: string;
      }>`select date_trunc('week', pickup_from)::date::text d from transports group by 1 order by count(*) desc limit 1`.execute(
        database.db,
      )
    ).rows[0]?.d ?? '2025-01-06';
  const weekEnd = new Date(Date.parse(week) + 6 * 86_400_000).toISOString().slice(0, 10);

  // Sample inputs: ids for details, a cursor half-way down the default sort, a reference to search.
  const ids = (
    await sql<{ id: string }>`select id from dossiers tablesample system (1) limit 200`.execute(database.db)
  ).rows.map((r) => r.id);
  const deep = (
    await sql<{
      u: string;
      id: string;
    }>`select updated_at::text u, id::text from dossiers order by updated_at desc, id desc offset ${Math.floor(total / 2)} limit 1`.execute(
      database.db,
    )
  ).rows[0];
  // Cursors are sealed (ADR 0018): made for the default list of staff, as the server would.
  const cursor = await cursorAt(database.db, dossierListSpec, { where: [], scope: { all: true } }, [
    deep?.u ?? null,
    deep?.id ?? null,
  ]);
  const refs = (
    await sql<{
      r: string;
    }>`select customer_reference r from dossiers tablesample system (1) where customer_reference is not null limit 50`.execute(
      database.db,
    )
  ).rows.map((r) => r.r);

  // Containers with events, for timelines; for new events to link to, containers of active dossiers whose
  // window (ADR 0015) holds the last days, when the generated events happen.
  const timelines = (
    await sql<{
      n: string;
    }>`select equipment_reference n from container_summaries tablesample system (1) limit 200`.execute(
      database.db,
    )
  ).rows.map((r) => r.n);
  const containers = (
    await sql<{
      n: string;
    }>`select container_numbers[1] n from dossiers
        where cardinality(container_numbers) > 0 and status in (${sql.join(EVENT_LINKING_STATUSES.map((s) => sql.lit(s)))})
          and coalesce(atd, etd) between current_date - 30 and current_date + 7
        limit 2000`.execute(database.db)
  ).rows.map((r) => r.n);

  const invoiceIds = (
    await sql<{
      id: string;
    }>`select id from sales_invoices tablesample system (1) where number is not null limit 200`.execute(
      database.db,
    )
  ).rows.map((r) => r.id);

  const declarationIds = (
    await sql<{
      id: string;
    }>`select id from declarations tablesample system (5) limit 200`.execute(database.db)
  ).rows.map((r) => r.id);

  // Stock records for trees (with their units), and an article with stock to filter the list by.
  const stockIds = (
    await sql<{ id: string }>`select id from stock_records tablesample system (1) limit 200`.execute(
      database.db,
    )
  ).rows.map((r) => r.id);
  const stockSku =
    (
      await sql<{ sku: string }>`
        select sku from stock_records tablesample system (1) where quantity_available > 0 limit 1`.execute(
        database.db,
      )
    ).rows[0]?.sku ?? 'ART-00001';

  const port = await freePort();
  server = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/api/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(dataDir ? { DATA_DIR: dataDir } : {}),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      // Issuing queues each invoice's PDF; rendering it is the job queue's work, not the issue's: with
      // the worker off it does not share the 2 cores with what is measured (the jobs stay queued).
      JOBS_ENABLED: 'false',
      // Lodging queues the sandbox's answer for now; the worker process of benchSandbox answers it.
      SANDBOX_DELAYS: SANDBOX_ZERO,
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${origin}/api/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = await fetch(`${origin}/api/auth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'staff@fvg.local', password: 'staff-demo-2026' }),
  });
  const token = ((await login.json()) as { Token: string }).Token;
  const adminLogin = await fetch(`${origin}/api/auth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@fvg.local', password: 'admin-demo-2026' }),
  });
  const adminToken = ((await adminLogin.json()) as { Token: string }).Token;
  const keyRes = await fetch(`${origin}/api/integration-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ name: `bench ${new Date().toISOString()}` }),
  });
  const apiKey = ((await keyRes.json()) as { key: string }).key;
  if (!apiKey) throw new Error(`no integration key (${keyRes.status})`);

  const repo = dossiersRepository(database.db);
  const all = { all: true } as const;
  const q = (s: Record<string, string>) => dossierListQuerySchema.parse(s);
  const events = containerEventsRepository(database.db);
  const documents = documentsRepository(database.db);
  const invoices = salesInvoicesRepository(database.db);
  const iq = (s: Record<string, string>) => salesInvoiceListQuerySchema.parse(s);
  const declarations = declarationsRepository(database.db);
  const dq = (s: Record<string, string>) => declarationListQuerySchema.parse(s);
  // The ingest floor: the same kind of events, generated and parsed before the clock starts (a pool
  // of fresh ones, each used once), stored by the same single statement the API runs.
  const ingestFloor = (batch: number) => {
    const make = (k: number) =>
      dcsaEvents(batch, containers, 1_000_000 + k).map((e) => toNewEvent(dcsaEventSchema.parse(e)));
    const pool = Array.from({ length: batch === 1 ? 20_000 : 200 }, (_, k) => make(k));
    let next = 0;
    return async () => {
      const rows = pool[next] ?? make(next);
      next++;
      return events.insertBatch(rows, { source: 'api', createdBy: null, apiKeyId: null });
    };
  };
  const scenarios: {
    name: string;
    urls: string[];
    floor: (i: number) => Promise<unknown>;
    /** Events per request, for ingest scenarios. */
    ingest?: number;
    /** Signed in as the admin (the warehouse needs cw_access, which the demo's staff user lacks). */
    admin?: boolean;
  }[] = [
    {
      name: 'list, first page, default sort',
      urls: ['/api/dossiers?pageSize=50'],
      floor: () => repo.list(all, q({ pageSize: '50' })),
    },
    {
      name: 'list, filtered + sorted',
      urls: ['/api/dossiers?status=in_transit&mode=sea&sort=etd,-number&pageSize=50'],
      floor: () =>
        repo.list(all, q({ status: 'in_transit', mode: 'sea', sort: 'etd,-number', pageSize: '50' })),
    },
    {
      name: 'list, deep page (keyset)',
      urls: [`/api/dossiers?pageSize=50&cursor=${cursor}`],
      floor: () => repo.list(all, q({ pageSize: '50', cursor })),
    },
    {
      name: 'detail by id',
      urls: ids.map((id) => `/api/dossiers/${id}`),
      floor: async (i) => {
        const row = await repo.find(all, ids[i % ids.length] as string);
        return Promise.all([
          repo.charges(row?.id as string),
          repo.partyRefs([row?.consignor_id ?? null, row?.consignee_id ?? null]),
        ]);
      },
    },
    {
      name: 'planning, busiest week (page 1)',
      urls: [`/api/planning?from=${week}&to=${weekEnd}`],
      floor: () =>
        Promise.all([
          transportsRepository(database.db).planningPage(all, week, weekEnd, 'UTC', 501, null),
          transportsRepository(database.db).planningCount(all, week, weekEnd, 'UTC'),
        ]),
    },
    {
      name: 'containers, first page',
      urls: ['/api/containers?pageSize=50'],
      floor: () => events.listContainers(all, containerListQuerySchema.parse({ pageSize: '50' })),
    },
    {
      name: 'container timeline',
      urls: timelines.map((n) => `/api/containers/${n}/events`),
      floor: (i) => events.timeline(all, timelines[i % timelines.length] as string, { limit: 500 }),
    },
    {
      name: 'documents, first page',
      urls: ['/api/documents?pageSize=50'],
      floor: () => documents.list(all, documentListQuerySchema.parse({ pageSize: '50' })),
    },
    {
      name: 'ingest, batches of 1',
      urls: ['/api/container-events'],
      floor: ingestFloor(1),
      ingest: 1,
    },
    {
      name: 'ingest, batches of 500',
      urls: ['/api/container-events'],
      floor: ingestFloor(500),
      ingest: 500,
    },
    {
      name: 'invoices, first page',
      urls: ['/api/sales-invoices?pageSize=50'],
      floor: () => invoices.list(all, iq({ pageSize: '50' })),
    },
    {
      name: 'invoices, overdue',
      urls: ['/api/sales-invoices?overdue=true&pageSize=50'],
      floor: () => invoices.list(all, iq({ overdue: 'true', pageSize: '50' })),
    },
    {
      name: 'invoice detail',
      urls: invoiceIds.map((id) => `/api/sales-invoices/${id}`),
      floor: async (i) => {
        const row = await invoices.find(all, invoiceIds[i % invoiceIds.length] as string);
        return Promise.all([
          invoices.lines(row?.id as string),
          invoices.payments(row?.id as string),
          invoices.creditNotes(all, row?.id as string),
        ]);
      },
    },
    {
      name: 'declarations, first page',
      urls: ['/api/declarations?pageSize=50'],
      floor: () => declarations.list(all, dq({ pageSize: '50' })),
    },
    {
      name: 'declarations, status=released',
      urls: ['/api/declarations?status=released&pageSize=50'],
      floor: () => declarations.list(all, dq({ status: 'released', pageSize: '50' })),
    },
    {
      name: 'declaration detail with items',
      urls: declarationIds.map((id) => `/api/declarations/${id}`),
      floor: async (i) => {
        const row = await declarations.find(all, declarationIds[i % declarationIds.length] as string);
        return declarations.items(row?.type ?? 'import', row?.id as string);
      },
    },
    {
      name: 'stock, first page',
      urls: ['/api/stock?pageSize=50'],
      floor: () => stockRepository(database.db).list(all, stockListQuerySchema.parse({ pageSize: '50' })),
      admin: true,
    },
    {
      name: 'stock, by SKU + available',
      urls: [`/api/stock?sku=${stockSku}&available=true&pageSize=50`],
      floor: () =>
        stockRepository(database.db).list(
          all,
          stockListQuerySchema.parse({ sku: stockSku, available: 'true', pageSize: '50' }),
        ),
      admin: true,
    },
    {
      name: 'stock tree',
      urls: stockIds.map((id) => `/api/stock/${id}/tree`),
      floor: async (i) => {
        const row = await findStock(database.db, all, stockIds[i % stockIds.length] as string);
        return row ? stockTree(database.db, row) : null;
      },
      admin: true,
    },
    {
      name: 'search q (reference)',
      urls: refs.map((r) => `/api/dossiers?q=${encodeURIComponent(r)}&pageSize=50`),
      floor: (i) => repo.list(all, q({ q: refs[i % refs.length] as string, pageSize: '50' })),
    },
  ];

  /**
   * Issuing throughput with C concurrent issuers: fresh drafts (domestic customers, two standard-rated
   * lines) are issued through `POST /api/sales-invoices/{id}/issue` from the load process, each once;
   * then the same number of fresh drafts by the bare SQL of issuing (takeSeriesNumber's
   * `UPDATE document_series_years … RETURNING` and the draft's update, one transaction each). After each
   * run the numbers this run took must be exactly the series' next ones, one per issued draft: no gap,
   * no duplicate, none burnt by a failure. Left-over drafts are deleted.
   */
  async function benchIssuing(C: number) {
    const year = Number(todayIn().slice(0, 4));
    // Enough for a fast run: a draft that is not used is deleted afterwards.
    const perRun = Math.max(2000, SECONDS * 600 + 1500);
    const makeDrafts = async (n: number) =>
      (
        await sql<{ id: string }>`
          with c as (
            select p.id, row_number() over (order by p.id) - 1 as k, count(*) over () as m
            from parties p, company_settings s
            where p.country_code = s.country_code and p.street is not null and p.postal_code is not null and p.city is not null
          ), inv as (
            insert into sales_invoices (kind, status, customer_id, currency, payment_terms_days, buyer_reference,
                                        line_extension_amount, vat_total, tax_inclusive_amount, vat_total_base, notes)
            select 'invoice', 'draft', c.id, 'EUR', 30, 'BENCH-' || g, 1463.50, 307.34, 1770.84, 307.34, 'bench:api issuing'
            from generate_series(1, ${n}::int) g join c on c.k = g % c.m
            returning id
          ), lines as (
            insert into sales_invoice_lines (invoice_id, position, charge_code, description, quantity, unit, unit_price,
                                             vat_code, vat_rate, line_net)
            select inv.id, l.position, l.code, l.description, l.quantity, l.unit, l.price, 'S', 21, l.net
            from inv cross join (values (1, 'FREIGHT', 'Road freight Rotterdam - Venlo', 1, 'LS', 1250.00, 1250.00),
                                        (2, 'HANDLING', 'Handling', 2.5, 'HUR', 85.40, 213.50))
                 as l(position, code, description, quantity, unit, price, net)
          )
          select id from inv`.execute(database.db)
      ).rows.map((r) => ({ id: r.id, version: 1 }));
    const seriesNow = async () =>
      Number(
        (
          await sql<{ n: number }>`select coalesce((select last_issued from document_series_years
            where kind = 'invoice' and year = ${year}), 0)::int n`.execute(database.db)
        ).rows[0]?.n,
      );
    // The numbers these drafts took, against the series before and after.
    const check = async (ids: string[], before: number, after: number) => {
      const r = (
        await sql<{
          issued: number;
          distinct_n: number;
          lo: number | null;
          hi: number | null;
          drafts: number;
        }>`
          select count(number)::int issued, count(distinct number)::int distinct_n,
                 min(substring(number from '-([0-9]+)$')::int) lo, max(substring(number from '-([0-9]+)$')::int) hi,
                 count(*) filter (where number is null)::int drafts
          from sales_invoices where id = any(${ids}::uuid[])`.execute(database.db)
      ).rows[0];
      const issued = r?.issued ?? 0;
      const ok =
        issued > 0 &&
        r?.distinct_n === issued &&
        r.lo === before + 1 &&
        r.hi === after &&
        after - before === issued;
      // Drafts never issued go; issued ones stay (the database refuses to delete them).
      await sql`delete from sales_invoices where id = any(${ids}::uuid[]) and number is null`.execute(
        database.db,
      );
      return { issued, from: r?.lo ?? null, to: r?.hi ?? null, gapFree: ok };
    };

    // Through the API, from the load process.
    const apiDrafts = await makeDrafts(perRun);
    const draftsFile = path.join(os.tmpdir(), `fvg-bench-drafts-${process.pid}-${C}.json`);
    writeFileSync(draftsFile, JSON.stringify(apiDrafts));
    let before = await seriesNow();
    const { stdout } = await promisify(execFile)(
      path.join(root, 'node_modules/.bin/tsx'),
      [
        'bench/api-load.ts',
        JSON.stringify({
          urls: [`${origin}/api/sales-invoices`],
          token,
          issue: { draftsFile },
          concurrency: C,
          seconds: SECONDS,
        }),
      ],
      { cwd: root, maxBuffer: 1 << 20 },
    );
    rmSync(draftsFile, { force: true });
    const api = JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
    const apiNumbers = await check(
      apiDrafts.map((d) => d.id),
      before,
      await seriesNow(),
    );

    // The floor: the SQL of issuing alone, from this process.
    const floorDrafts = await makeDrafts(perRun);
    let next = 0;
    before = await seriesNow();
    const floor = await drive(
      async () => {
        const draft = floorDrafts[next++];
        if (!draft) return false;
        await database.db.transaction().execute(async (trx) => {
          const { number } = await takeSeriesNumber(trx, 'invoice', year);
          // The snapshots as the API writes them (InvoiceSeller / InvoiceParty), read in the same statement.
          await sql`
            update sales_invoices i set number = ${number}, status = 'issued', issue_date = current_date,
                   due_date = current_date + i.payment_terms_days,
                   seller = (select jsonb_build_object('name', legal_name, 'street', street, 'postalCode', postal_code,
                               'city', city, 'countryCode', country_code, 'vatNumber', vat_number,
                               'registrationNumber', registration_number, 'peppolScheme', peppol_scheme,
                               'peppolId', peppol_id, 'email', email, 'iban', iban, 'bic', bic, 'footer', invoice_footer)
                             from company_settings),
                   buyer = (select jsonb_build_object('name', p.name, 'street', p.street, 'postalCode', p.postal_code,
                              'city', p.city, 'countryCode', p.country_code, 'vatNumber', p.vat_number,
                              'registrationNumber', null, 'peppolScheme', null, 'peppolId', null, 'email', p.email)
                            from parties p where p.id = i.customer_id),
                   issued_at = now(), version = i.version + 1, updated_at = now()
            where i.id = ${draft.id} and i.number is null`.execute(trx);
        });
        return true;
      },
      C,
      SECONDS,
    );
    const floorNumbers = await check(
      floorDrafts.map((d) => d.id),
      before,
      await seriesNow(),
    );
    console.log(
      `issuing, ${C} issuer${C === 1 ? '' : 's'}: API ${api.rps} invoices/s (p50 ${api.p50} p95 ${api.p95} p99 ${api.p99} ms, errors ${api.errors}), numbers ${apiNumbers.from}…${apiNumbers.to} ${apiNumbers.gapFree ? 'gap-free and consecutive' : 'NOT CONSECUTIVE'} | SQL floor ${floor.rps}/s (p95 ${floor.p95} ms), numbers ${floorNumbers.gapFree ? 'gap-free and consecutive' : 'NOT CONSECUTIVE'}`,
    );
    if (!apiNumbers.gapFree || !floorNumbers.gapFree) process.exitCode = 1;
    return { api, floor, apiNumbers, floorNumbers };
  }

  /**
   * The sandbox authority's throughput through the job queue. LODGE fresh complete import drafts
   * (copies of one made through the API) are lodged through `POST /api/declarations/{id}/lodge` by 10
   * concurrent clients while no worker runs (the bench server has `JOBS_ENABLED=false`): each lodge
   * stores the sent message and queues `customs.sandbox` with delay 0. Then a worker process (the same
   * server, `JOBS_ENABLED=true`, `JOBS_CONCURRENCY=WORKER_CONCURRENCY`, every delay 0) starts and
   * answers them; answered/s is (answers − 1) ÷ (last answer − first answer), from the messages'
   * times. Later steps of the chain are queued behind the remaining answers (run_at order) and do not
   * interleave much. The floor: as many declarations set lodged by SQL, answered by the bare SQL of one
   * accept step (row lock, MRN from the sequence, received message, status and stamps, audit entry; one
   * transaction each) from WORKER_CONCURRENCY loops in this process. Everything made is deleted after.
   */
  async function benchSandbox() {
    const customerId = (
      await sql<{
        id: string;
      }>`select id from parties where code = 'ACME' or 'customer' = any(kinds) order by code = 'ACME' desc limit 1`.execute(
        database.db,
      )
    ).rows[0]?.id as string;
    const made = await fetch(`${origin}/api/declarations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(completeImport(customerId)),
    });
    const template = (await made.json()) as { id: string; version: number };
    if (!made.ok) throw new Error(`no template declaration (${made.status}): ${JSON.stringify(template)}`);
    const tag = Date.now().toString(36).toUpperCase();
    const columns = (
      await sql<{ c: string }>`select column_name c from information_schema.columns
        where table_name = 'declarations' and column_name not in ('id', 'lrn', 'mrn', 'created_at', 'updated_at')`.execute(
        database.db,
      )
    ).rows.map((r) => sql.ref(r.c));
    const itemColumns = (
      await sql<{ c: string }>`select column_name c from information_schema.columns
        where table_name = 'declaration_items' and column_name not in ('id', 'declaration_id')`.execute(
        database.db,
      )
    ).rows.map((r) => sql.ref(r.c));
    const copies = async (part: string, n: number) => {
      const ids = (
        await sql<{ id: string }>`
          with d as (
            insert into declarations (lrn, ${sql.join(columns)})
            select ${`B${tag}${part}-`} || g, ${sql.join(columns.map((c) => sql`t.${c}`))}
            from declarations t cross join generate_series(1, ${n}::int) g where t.id = ${template.id}
            returning id
          ), i as (
            insert into declaration_items (declaration_id, ${sql.join(itemColumns)})
            select d.id, ${sql.join(itemColumns.map((c) => sql`i.${c}`))}
            from d cross join declaration_items i where i.declaration_id = ${template.id}
          )
          select id from d`.execute(database.db)
      ).rows.map((r) => r.id);
      return ids;
    };
    const apiIds = await copies('A', LODGE);
    const floorIds = await copies('F', LODGE);
    const jobsBefore = Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int n from graphile_worker.jobs where task_identifier <> 'customs.sandbox'`.execute(
          database.db,
        )
      ).rows[0]?.n,
    );

    // Lodging through the API (no worker running): each answer is queued, due at once.
    let next = 0;
    let lodgeErrors = 0;
    const l0 = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let id = apiIds[next++]; id; id = apiIds[next++]) {
          const res = await fetch(`${origin}/api/declarations/${id}/lodge`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ version: template.version }),
          });
          await res.arrayBuffer();
          if (!res.ok) lodgeErrors++;
        }
      }),
    );
    const lodgedPerSecond = Math.round(apiIds.length / ((performance.now() - l0) / 1000));

    // The worker process answers them.
    const workerPort = await freePort();
    const worker = spawn(path.join(root, 'node_modules/.bin/tsx'), ['apps/api/src/server.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(workerPort),
        HOST: '127.0.0.1',
        ...(dataDir ? { DATA_DIR: dataDir } : {}),
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
        JOBS_ENABLED: 'true',
        JOBS_CONCURRENCY: String(WORKER_CONCURRENCY),
        SANDBOX_DELAYS: SANDBOX_ZERO,
        WEB_DIST: '/nonexistent',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const answers = async () =>
      (
        await sql<{ n: number; first: Date | null; last: Date | null; accepted: number }>`
          select count(*)::int n, min(at) first, max(at) last, count(*) filter (where kind = 'accepted')::int accepted
          from declaration_messages
          where declaration_id = any(${apiIds}::uuid[]) and direction = 'received' and kind in ('accepted', 'rejected')`.execute(
          database.db,
        )
      ).rows[0];
    let answered = await answers();
    const deadline = performance.now() + 300_000;
    while ((answered?.n ?? 0) < apiIds.length - lodgeErrors && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      answered = await answers();
    }
    worker.kill('SIGTERM');
    await once(worker, 'exit').catch(() => {});
    const span = ((answered?.last?.getTime() ?? 0) - (answered?.first?.getTime() ?? 0)) / 1000;
    const apiRate = span > 0 ? Math.round(((answered?.n ?? 1) - 1) / span) : 0;

    // The floor: the SQL of an accept step alone.
    await sql`update declarations set status = 'lodged', lodged_at = now() where id = any(${floorIds}::uuid[])`.execute(
      database.db,
    );
    next = 0;
    const f0 = performance.now();
    await Promise.all(
      Array.from({ length: WORKER_CONCURRENCY }, async () => {
        for (let id = floorIds[next++]; id; id = floorIds[next++]) {
          const declarationId = id;
          await database.db.transaction().execute(async (trx) => {
            const row = (
              await sql<{
                id: string;
                type: 'import';
                status: string;
                office_of_lodgement: string;
                customer_id: string;
              }>`
                select id, type, status, office_of_lodgement, customer_id from declarations where id = ${declarationId} for update`.execute(
                trx,
              )
            ).rows[0];
            if (row?.status !== 'lodged') return;
            const mrn = await allocateMrn(trx, {
              type: row.type,
              officeOfLodgement: row.office_of_lodgement,
              lodgedAt: new Date(),
            });
            await insertMessage(trx, {
              declarationId,
              direction: 'received',
              kind: 'accepted',
              summary: summaries.accepted(mrn),
              mrn,
              payload: { step: 'accept' },
              createdBy: null,
            });
            await trx
              .updateTable('declarations')
              .set((eb) => ({
                status: 'accepted',
                mrn,
                accepted_at: new Date(),
                last_message_kind: 'accepted',
                last_message_at: new Date(),
                version: eb('version', '+', 1),
                updated_at: new Date(),
              }))
              .where('id', '=', declarationId)
              .execute();
            await writeAudit(trx, {
              kind: 'declaration',
              id: declarationId,
              action: 'accepted',
              actorId: null,
              changes: [{ field: 'status', from: 'lodged', to: 'accepted' }],
            });
          });
        }
      }),
    );
    const floorRate = Math.round(floorIds.length / ((performance.now() - f0) / 1000));

    // Clean up: the bench's declarations (their messages and items go with them) and any step of their
    // chains still queued.
    const mine = [...apiIds, ...floorIds, template.id];
    await sql`delete from graphile_worker._private_jobs j using graphile_worker._private_tasks t
      where t.id = j.task_id and t.identifier = 'customs.sandbox' and (j.payload->>'declarationId')::uuid = any(${mine}::uuid[])`
      .execute(database.db)
      .catch(() => {});
    await sql`delete from declarations where id = any(${mine}::uuid[])`.execute(database.db);
    const result = {
      declarations: apiIds.length,
      lodgeErrors,
      lodgedPerSecond,
      answered: answered?.n ?? 0,
      accepted: answered?.accepted ?? 0,
      answeredPerSecond: apiRate,
      workerConcurrency: WORKER_CONCURRENCY,
      otherJobsWaiting: jobsBefore,
      floorPerSecond: floorRate,
      ratio: floorRate ? +(apiRate / floorRate).toFixed(2) : null,
    };
    console.log(
      `sandbox through the queue: ${result.answered}/${result.declarations} answered (${result.accepted} accepted) at ${apiRate} declarations/s with JOBS_CONCURRENCY=${WORKER_CONCURRENCY} (lodged through the API at ${lodgedPerSecond}/s, ${lodgeErrors} errors; ${jobsBefore} other jobs were waiting) | SQL floor of the accept step ${floorRate}/s | ratio ${result.ratio}`,
    );
    return result;
  }

  /**
   * Release throughput with C concurrent releasers on the SAME few SKUs of one owner (the owner and
   * three articles with the most stock available): fresh one-line draft shipments (1–3 pieces each)
   * are released through `POST /api/shipments/{id}/transitions` from the load process, each once; then
   * as many fresh drafts by the bare SQL of a release from this process (lock the shipment, lock the
   * owner's oldest records of those SKUs as the release does (`lockStockFor`), plan with
   * planFifo over their root units, insert the allocations, raise reserved on records and units). After
   * each run: every released line fully allocated, no record or unit reserved beyond what is on hand or
   * beyond its open allocations, nothing reserved for a draft. Afterwards the bench's shipments are
   * deleted and their reservations given back, so the stock is as before.
   */
  async function benchRelease(C: number) {
    const hot = (
      await sql<{ owner_id: string; skus: string[]; available: number }>`
        with best as (
          select owner_id from stock_records where quantity_available > 0 and customs_status = 'union'
          group by owner_id order by sum(quantity_available) desc limit 1
        )
        select r.owner_id, (array_agg(r.sku order by r.available desc))[1:3] as skus, sum(r.available)::int as available
        from (select owner_id, sku, sum(quantity_available) as available from stock_records
              where owner_id = (select owner_id from best) and quantity_available > 0 and customs_status = 'union'
              group by owner_id, sku) r
        group by r.owner_id`.execute(database.db)
    ).rows[0];
    if (!hot) throw new Error('no stock to release against');
    const adminId = (
      await sql<{ id: string }>`select id from users where email = 'admin@fvg.local'`.execute(database.db)
    ).rows[0]?.id as string;
    const perRun = Math.max(1000, SECONDS * 400);
    const tag = Date.now().toString(36).toUpperCase();
    const makeDrafts = async (part: string, n: number) =>
      (
        await sql<{ id: string }>`
          with s as (
            insert into shipments (number, owner_id, status, consignee_name, customer_reference, notes, created_by, updated_by)
            select ${`B-${tag}${part}-`} || g, ${hot.owner_id}, 'draft', 'Bench consignee', 'BENCH-' || g,
                   'bench:api releasing', ${adminId}, ${adminId}
            from generate_series(1, ${n}::int) g
            returning id, customer_reference
          ), l as (
            insert into shipment_lines (shipment_id, position, sku, quantity)
            select s.id, 1, (${hot.skus}::text[])[1 + substr(s.customer_reference, 7)::int % ${hot.skus.length}],
                   1 + substr(s.customer_reference, 7)::int % 3
            from s
          )
          select id from s`.execute(database.db)
      ).rows.map((r) => ({ id: r.id, version: 1 }));
    const checkRun = async (ids: string[]) =>
      (
        await sql<{
          released: number;
          refused: number;
          short_lines: number;
          oversold: number;
          reserved_twice: number;
        }>`
          select (select count(*)::int from shipments where id = any(${ids}::uuid[]) and status = 'released') released,
                 (select count(*)::int from shipments where id = any(${ids}::uuid[]) and status = 'draft') refused,
                 (select count(*)::int from shipment_lines l join shipments s on s.id = l.shipment_id
                   where s.id = any(${ids}::uuid[]) and s.status = 'released'
                     and l.quantity <> (select coalesce(sum(a.quantity), 0) from shipment_allocations a where a.line_id = l.id)) short_lines,
                 (select count(*)::int from stock_records r where r.owner_id = ${hot.owner_id} and r.sku = any(${hot.skus}::text[])
                   and r.quantity_reserved > r.quantity_on_hand) oversold,
                 (select count(*)::int from stock_records r where r.owner_id = ${hot.owner_id} and r.sku = any(${hot.skus}::text[])
                   and r.quantity_reserved <> (select coalesce(sum(a.quantity), 0) from shipment_allocations a
                                               where a.stock_record_id = r.id and a.state = 'reserved')) reserved_twice`.execute(
          database.db,
        )
      ).rows[0];
    const giveBack = async (ids: string[]) => {
      await database.db.transaction().execute(async (trx) => {
        await sql`
          update stock_records r set quantity_reserved = r.quantity_reserved - t.q
          from (select stock_record_id, sum(quantity)::int q from shipment_allocations
                where shipment_id = any(${ids}::uuid[]) and state = 'reserved' group by 1) t
          where r.id = t.stock_record_id`.execute(trx);
        await sql`
          update handling_units u set quantity_reserved = u.quantity_reserved - t.q
          from (select handling_unit_id, sum(quantity)::int q from shipment_allocations
                where shipment_id = any(${ids}::uuid[]) and state = 'reserved' and handling_unit_id is not null group by 1) t
          where u.id = t.handling_unit_id`.execute(trx);
        await sql`delete from shipments where id = any(${ids}::uuid[])`.execute(trx);
      });
    };

    // Through the API, from the load process.
    const apiDrafts = await makeDrafts('A', perRun);
    const draftsFile = path.join(os.tmpdir(), `fvg-bench-shipments-${process.pid}-${C}.json`);
    writeFileSync(draftsFile, JSON.stringify(apiDrafts));
    const { stdout } = await promisify(execFile)(
      path.join(root, 'node_modules/.bin/tsx'),
      [
        'bench/api-load.ts',
        JSON.stringify({
          urls: [`${origin}/api/shipments`],
          token: adminToken,
          issue: { draftsFile, path: 'transitions', body: { to: 'released' } },
          concurrency: C,
          seconds: SECONDS,
        }),
      ],
      { cwd: root, maxBuffer: 1 << 20 },
    );
    rmSync(draftsFile, { force: true });
    const api = JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
    const apiCheck = await checkRun(apiDrafts.map((d) => d.id));

    // The floor: the SQL of a release alone, from this process.
    const floorDrafts = await makeDrafts('F', perRun);
    let next = 0;
    const floor = await drive(
      async () => {
        const draft = floorDrafts[next++];
        if (!draft) return false;
        return database.db.transaction().execute(async (trx) => {
          const s = (
            await sql<{ status: string; owner_id: string }>`
              select status, owner_id from shipments where id = ${draft.id} for update`.execute(trx)
          ).rows[0];
          if (s?.status !== 'draft') return false;
          const lines = (
            await sql<{ id: string; sku: string; quantity: number }>`
              select id, sku, quantity from shipment_lines where shipment_id = ${draft.id} order by position`.execute(
              trx,
            )
          ).rows;
          // The release's own walk: the oldest records of each SKU, a few per statement, in the one order.
          const records = (
            await lockStockFor(
              trx,
              s.owner_id,
              lines.map((l) => ({ ...l, stock_record_id: null })),
            )
          ).map((r) => ({ ...r, available: r.quantity_available }));
          const units = (
            await sql<{ id: string; stock_record_id: string; available: number; position: number }>`
              select id, stock_record_id, quantity - quantity_reserved as available, position from handling_units
              where stock_record_id = any(${records.map((r) => r.id)}::uuid[]) and parent_id is null`.execute(
              trx,
            )
          ).rows;
          const left = new Map(records.map((r) => [r.id, r.available]));
          const unitLeft = new Map(units.map((u) => [u.id, u.available]));
          const takes: { line: string; record: string; unit: string | null; q: number }[] = [];
          for (const l of lines) {
            const plan = planFifo(
              records
                .filter((r) => r.sku === l.sku)
                .map((r) => ({
                  id: r.id,
                  receivedOn: r.received_on,
                  available: left.get(r.id) ?? 0,
                  units: units
                    .filter((u) => u.stock_record_id === r.id)
                    .map((u) => ({ id: u.id, available: unitLeft.get(u.id) ?? 0, position: u.position })),
                })),
              l.quantity,
            );
            if (plan.short > 0) return false;
            for (const t of plan.takes) {
              takes.push({ line: l.id, record: t.stockRecordId, unit: t.handlingUnitId, q: t.quantity });
              left.set(t.stockRecordId, (left.get(t.stockRecordId) ?? 0) - t.quantity);
              if (t.handlingUnitId)
                unitLeft.set(t.handlingUnitId, (unitLeft.get(t.handlingUnitId) ?? 0) - t.quantity);
            }
          }
          const rows = takes.map(
            (t) => sql`(${t.line}::uuid, ${t.record}::uuid, ${t.unit}::uuid, ${t.q}::int)`,
          );
          await sql`
            insert into shipment_allocations (shipment_id, line_id, stock_record_id, handling_unit_id, quantity, state)
            select ${draft.id}, v.line, v.record, v.unit, v.q, 'reserved' from (values ${sql.join(rows)}) v(line, record, unit, q)`.execute(
            trx,
          );
          await sql`
            update stock_records r set quantity_reserved = r.quantity_reserved + v.q
            from (select record, sum(q)::int q from (values ${sql.join(rows)}) v(line, record, unit, q) group by record) v
            where r.id = v.record`.execute(trx);
          await sql`
            update handling_units u set quantity_reserved = u.quantity_reserved + v.q
            from (select unit, sum(q)::int q from (values ${sql.join(rows)}) v(line, record, unit, q)
                  where unit is not null group by unit) v
            where u.id = v.unit`.execute(trx);
          await sql`
            update shipments set status = 'released', released_at = now(), version = version + 1, updated_at = now()
            where id = ${draft.id}`.execute(trx);
          return true;
        });
      },
      C,
      SECONDS,
    );
    const floorCheck = await checkRun(floorDrafts.map((d) => d.id));
    await giveBack([...apiDrafts, ...floorDrafts].map((d) => d.id));
    const clean = (x: typeof apiCheck) =>
      !!x && x.short_lines === 0 && x.oversold === 0 && x.reserved_twice === 0 && x.released > 0;
    console.log(
      `releasing, ${C} releaser${C === 1 ? '' : 's'} on ${hot.skus.join(', ')}: API ${api.rps} releases/s (p50 ${api.p50} p95 ${api.p95} p99 ${api.p99} ms, errors ${api.errors}), ${apiCheck?.released} released, oversold ${apiCheck?.oversold}, reserved twice ${apiCheck?.reserved_twice}, short ${apiCheck?.short_lines} | SQL floor ${floor.rps}/s (p95 ${floor.p95} ms), ${floorCheck?.released} released, oversold ${floorCheck?.oversold}`,
    );
    if (!clean(apiCheck) || !clean(floorCheck)) process.exitCode = 1;
    return { skus: hot.skus, api, floor, apiCheck, floorCheck };
  }

  type Row = { name: string; api: LoadResult; floor: LoadResult; eventsPerRequest?: number };
  const runs: {
    connections: number;
    rows: Row[];
    issuing?: Awaited<ReturnType<typeof benchIssuing>>;
    releasing?: Awaited<ReturnType<typeof benchRelease>>;
  }[] = [];
  const chosen = scenarios.filter((s) => !ONLY.length || ONLY.some((w) => s.name.includes(w)));
  for (const C of CONNECTIONS) {
    const rows: Row[] = [];
    for (const s of chosen) {
      const cfg = {
        urls: s.urls.map((u) => `${origin}${u}`),
        concurrency: C,
        seconds: SECONDS,
        ...(s.ingest
          ? { apiKey, ingest: { batch: s.ingest, containers } }
          : { token: s.admin ? adminToken : token }),
      };
      const { stdout } = await promisify(execFile)(
        path.join(root, 'node_modules/.bin/tsx'),
        ['bench/api-load.ts', JSON.stringify(cfg)],
        {
          cwd: root,
          maxBuffer: 1 << 20,
        },
      );
      const api = JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
      const floor = await drive(
        async (i) => {
          await s.floor(i);
          return true;
        },
        C,
        SECONDS,
      );
      rows.push({ name: s.name, api, floor, ...(s.ingest ? { eventsPerRequest: s.ingest } : {}) });
      console.log(
        `${s.name}: API p50 ${api.p50} p95 ${api.p95} p99 ${api.p99} ms, ${api.rps} req/s (errors ${api.errors}) | SQL floor p50 ${floor.p50} p95 ${floor.p95} p99 ${floor.p99} ms, ${floor.rps}/s${s.ingest ? ` | events/s API ${api.rps * s.ingest}, floor ${floor.rps * s.ingest}` : ''}`,
      );
    }

    const pad = (s: string | number, n: number) => String(s).padStart(n);
    console.log(
      `\n${total.toLocaleString('en-US')} dossiers, ${C} connections, ${SECONDS} s per run, ${os.cpus().length} cores, PostgreSQL ${dataDir ? 'embedded' : 'external'}`,
    );
    console.log(
      `${'scenario'.padEnd(34)}${pad('API p50', 9)}${pad('p95', 8)}${pad('p99', 8)}${pad('req/s', 8)} |${pad('SQL p50', 9)}${pad('p95', 8)}${pad('p99', 8)}${pad('q/s', 8)} |${pad('p95 ratio', 10)}${pad('rps ratio', 10)}`,
    );
    for (const r of rows) {
      console.log(
        `${r.name.padEnd(34)}${pad(r.api.p50, 9)}${pad(r.api.p95, 8)}${pad(r.api.p99, 8)}${pad(r.api.rps, 8)} |${pad(r.floor.p50, 9)}${pad(r.floor.p95, 8)}${pad(r.floor.p99, 8)}${pad(r.floor.rps, 8)} |${pad((r.api.p95 / r.floor.p95).toFixed(2), 10)}${pad((r.api.rps / r.floor.rps).toFixed(2), 10)}`,
      );
    }

    const issuing =
      ONLY.length && !ONLY.some((w) => 'issuing'.includes(w)) ? undefined : await benchIssuing(C);
    const releasing =
      ONLY.length && !ONLY.some((w) => 'releasing'.includes(w)) ? undefined : await benchRelease(C);
    runs.push({ connections: C, rows, ...(issuing ? { issuing } : {}), ...(releasing ? { releasing } : {}) });
  }
  const sandbox = !ONLY.length || ONLY.some((w) => 'sandbox'.includes(w)) ? await benchSandbox() : undefined;
  // A transit's IE015, built, and built and checked against the NCTS schema (issue 26).
  const ncts = !ONLY.length || ONLY.some((w) => 'ncts'.includes(w)) ? await benchNcts() : undefined;
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    path.join(root, 'bench/results/api-latest.json'),
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        dossiers: total,
        transports: Number(counts?.transports),
        containerEvents: Number(counts?.events),
        documents: Number(counts?.documents),
        salesOffers: Number(counts?.offers),
        salesInvoices: Number(counts?.invoices),
        declarations: declarationCount,
        stockRecords: warehouse.records,
        handlingUnits: warehouse.units,
        shipments: warehouse.shipments,
        seconds: SECONDS,
        cores: os.cpus().length,
        runs,
        ...(sandbox ? { sandbox } : {}),
        ...(ncts ? { ncts } : {}),
      },
      null,
      2,
    )}\n`,
  );
} finally {
  server?.kill('SIGTERM');
  if (server) await once(server, 'exit').catch(() => {});
  await database.shutdown();
}
// Non-zero when the issuing check found a gap or a duplicate.
process.exit(process.exitCode ?? 0);
