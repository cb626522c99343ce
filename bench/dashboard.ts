/**
 * `npm run bench:dashboard` (DATA_DIR=… for another database than bench/.data): every dashboard card,
 * `GET /api/dashboard/<card>?tz=UTC`, through the HTTP API next to the card's own SQL (cardQueries of
 * features/dashboard, run from this process: the floor), as the admin (every record, warehouse
 * included) and as the customer of the party with the most dossiers, at 1 and 10 connections.
 * Prints p50/p95/p99 and the API ÷ SQL ratio, checks the budget (p95 < 100 ms through the API, one
 * connection) and writes bench/results/dashboard-latest.json. Seed first: `npm run seed:scale`.
 */
import { parseArgs } from 'node:util';
import {
  CUSTOMS_STATUSES,
  DASHBOARD_CARDS,
  type DashboardCardName,
  STAFF_DASHBOARD_CARDS,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { cardQueries, dashboardRepository } from '../apps/api/src/features/dashboard/dashboard.repository.ts';
import {
  AWAITING_DECLARATION_STATUSES,
  LIVE_TRANSPORT_STATUSES,
  OPEN_DOSSIER_STATUSES,
  OPEN_SHIPMENT_STATUSES,
  windowOf,
} from '../apps/api/src/features/dashboard/dashboard.service.ts';
import { type Scope, scopeOf } from '../apps/api/src/records/scope.ts';
import {
  ADMIN,
  BENCH_CUSTOMER,
  ensureBenchCustomer,
  openBenchDatabase,
  runScenarios,
  type Scenario,
  sessionUserOf,
  startApi,
  stopApi,
  tokenOf,
  writeResults,
} from './read-bench.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1,10' },
    /** Only these cards (comma-separated). */
    only: { type: 'string', default: '' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = String(args.connections).split(',').map(Number);
const ONLY = String(args.only).split(',').filter(Boolean);
const BUDGET_MS = 100;

const { dataDir, database } = await openBenchDatabase();
const db = database.db;
let server: Awaited<ReturnType<typeof startApi>>['server'] | undefined;
try {
  const sizes = (
    await sql<Record<string, string>>`
      select (select count(*) from dossiers) dossiers, (select count(*) from transports) transports,
             (select count(*) from sales_invoices) invoices, (select count(*) from declarations) declarations,
             (select count(*) from container_summaries) containers, (select count(*) from stock_records) stock,
             (select count(*) from shipments) shipments`.execute(db)
  ).rows[0] as Record<string, string>;
  console.log(`sizes: ${JSON.stringify(sizes)}`);
  const customer = await ensureBenchCustomer(db);
  console.log(`customer: party ${customer.code} with ${customer.dossiers} dossiers`);
  const admin = await sessionUserOf(db, ADMIN.email);

  const repo = dashboardRepository(db);
  // The card's SQL exactly as the service builds it (same window, same statuses; a customer's
  // declarations card leaves drafts out as the service does).
  const floorOf = (card: DashboardCardName, scope: Scope) => async () => {
    const w = windowOf('UTC', new Date());
    const q = cardQueries(scope, w, {
      dossiers: OPEN_DOSSIER_STATUSES,
      declarations: scope.all
        ? AWAITING_DECLARATION_STATUSES
        : AWAITING_DECLARATION_STATUSES.filter((s) => s !== 'draft'),
      stock: CUSTOMS_STATUSES,
      shipments: OPEN_SHIPMENT_STATUSES,
      transports: LIVE_TRANSPORT_STATUSES,
    });
    const rows = await repo.run(q[card]);
    if (card === 'revenue' || (card === 'invoices' && rows.length === 0)) await repo.baseCurrency();
    return rows;
  };
  const scenarios: Scenario[] = [];
  for (const card of DASHBOARD_CARDS.filter((c) => !ONLY.length || ONLY.includes(c))) {
    scenarios.push({
      name: card,
      as: 'staff',
      urls: [`/api/dashboard/${card}?tz=UTC`],
      floor: floorOf(card, scopeOf(admin)),
    });
    if (!STAFF_DASHBOARD_CARDS.includes(card))
      scenarios.push({
        name: card,
        as: 'customer',
        urls: [`/api/dashboard/${card}?tz=UTC`],
        floor: floorOf(card, scopeOf(customer.user)),
      });
  }

  const api = await startApi(dataDir);
  server = api.server;
  const tokens = {
    staff: await tokenOf(api.origin, ADMIN),
    customer: await tokenOf(api.origin, BENCH_CUSTOMER),
  };
  // Every card answers 200 before it is timed (a 4xx would be timed as an error otherwise).
  for (const s of scenarios) {
    const r = await fetch(`${api.origin}${s.urls[0]}`, {
      headers: { authorization: `Bearer ${tokens[s.as]}` },
    });
    if (!r.ok) throw new Error(`${s.urls[0]} as ${s.as}: ${r.status} ${await r.text()}`);
  }
  const runs = await runScenarios(scenarios, {
    origin: api.origin,
    tokens,
    connections: CONNECTIONS,
    seconds: SECONDS,
  });
  const one = runs.find((r) => r.connections === 1)?.rows ?? [];
  const over = one.filter((r) => r.api.p95 >= BUDGET_MS);
  console.log(
    over.length
      ? `\nbudget p95 < ${BUDGET_MS} ms (API, 1 connection): OVER for ${over.map((r) => `${r.name}/${r.as} ${r.api.p95} ms`).join(', ')}`
      : `\nbudget p95 < ${BUDGET_MS} ms (API, 1 connection): met by every card (worst ${Math.max(...one.map((r) => r.api.p95))} ms)`,
  );
  writeResults('dashboard', {
    sizes,
    customer: { party: customer.code, dossiers: customer.dossiers },
    seconds: SECONDS,
    budgetMs: BUDGET_MS,
    runs,
  });
} finally {
  await stopApi(server);
  await database.shutdown();
}
process.exit(0);
