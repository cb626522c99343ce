/**
 * `npm run bench:search` (DATA_DIR=… for another database than bench/.data): `GET /api/search?q=`
 * through the HTTP API next to the same search run from this process (searchService.search: the one
 * SQL statement of all kinds and the grouping of its few rows — the floor), as the admin (all records,
 * warehouse included) and as the customer of the party with the most dossiers, at 1 and 10
 * connections. What is typed, sampled from the index's REAL entries (never the synthetic padding):
 *   exact     a whole identifier as the record spells it (dossier, container, invoice, LRN/MRN, SSCC …)
 *   prefix    its first characters (all but the last four, at least four)
 *   words     two common words of titles and subtitles (the most frequent ones: the worst case)
 *   similar   a party's name with two letters swapped (trigram similarity on names)
 * Prints p50/p95/p99 with the API ÷ SQL ratio, the index's size (real and synthetic entries), checks
 * the budget (one user: exact p95 < 30 ms, words p95 < 100 ms) and writes bench/results/search-latest.json.
 * Fill first: `npm run seed:scale -- … --search-rows 10000000`.
 */
import { parseArgs } from 'node:util';
import { searchQuerySchema } from '@fvg/contracts';
import { sql } from 'kysely';
import { searchService } from '../apps/api/src/features/search/search.service.ts';
import type { SessionUser } from '../apps/api/src/features/users/users.repository.ts';
import { SYNTHETIC_ID_FLOOR, searchIndexSize } from '../apps/api/src/seed/scale/search.ts';
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
    /** Only these ways of matching (exact, prefix, words, similar; comma-separated). */
    only: { type: 'string', default: '' },
    /** Results per kind, as the palette asks. */
    limit: { type: 'string', default: '5' },
  },
});
const SECONDS = Number(args.seconds);
const CONNECTIONS = String(args.connections).split(',').map(Number);
const ONLY = String(args.only).split(',').filter(Boolean);
const LIMIT = String(args.limit);
const BUDGET: Record<string, number> = { exact: 30, words: 100 };

const { dataDir, database } = await openBenchDatabase();
const db = database.db;
let server: Awaited<ReturnType<typeof startApi>>['server'] | undefined;
try {
  const size = await searchIndexSize(db);
  const byKind = (
    await sql<{
      kind: string;
      n: string;
    }>`select kind, count(*) n from search_entries group by 1 order by 1`.execute(db)
  ).rows.map((r) => `${r.kind} ${Number(r.n).toLocaleString('en-US')}`);
  console.log(
    `search index: ${size.entries.toLocaleString('en-US')} entries (${(size.entries - size.synthetic).toLocaleString('en-US')} real, ${size.synthetic.toLocaleString('en-US')} synthetic), ${size.idents.toLocaleString('en-US')} identifiers; ${byKind.join(', ')}`,
  );
  const customer = await ensureBenchCustomer(db);
  console.log(`customer: party ${customer.code} with ${customer.dossiers} dossiers`);
  const admin = await sessionUserOf(db, ADMIN.email);
  const sampleRate = Math.min(100, Math.max(0.01, (2_000_000 / Math.max(1, size.idents)) * 100));

  /** Identifiers as spelled, of real records the user may see, spread over the kinds. */
  const identsFor = async (user: SessionUser) => {
    const scoped = user.role === 'customer';
    const rows = (
      await sql<{ label: string }>`
        select label from (
          select label, kind, row_number() over (partition by kind order by random()) k
          from search_idents tablesample system (${sampleRate})
          where record_id < ${SYNTHETIC_ID_FLOOR}::uuid and length(label) >= 6
            ${scoped ? sql`and party_id = ${user.party_id} and customer_visible` : sql``}
        ) x where k <= 20 order by random() limit 100`.execute(db)
    ).rows.map((r) => r.label);
    if (rows.length) return rows;
    // A customer's records are few: look at all of theirs.
    return (
      await sql<{ label: string }>`
        select label from search_idents where party_id = ${user.party_id} and customer_visible
          and record_id < ${SYNTHETIC_ID_FLOOR}::uuid and length(label) >= 6 order by random() limit 100`.execute(
        db,
      )
    ).rows.map((r) => r.label);
  };
  // The most frequent words of the index (letters only, 4+): the searches that match the most records.
  const common = (
    await sql<{ word: string }>`
      select word from ts_stat($$select words from search_entries tablesample system (0.5)$$)
      where word ~ '^[a-z]{4,}$' order by ndoc desc limit 12`.execute(db)
  ).rows.map((r) => r.word);
  const wordPairs = common.slice(0, 6).map((w, i) => `${w} ${common[(i + 3) % common.length]}`);
  const typo = (name: string) => {
    // Without the words that hold a digit (the scale seed numbers its parties' names): a query with a
    // digit is looked up as an identifier, never by similarity, so it would measure nothing here.
    const w = name.split(' ').filter((x) => !/[0-9]/.test(x));
    const i = w.findIndex((x) => x.length >= 5);
    if (i < 0) return name;
    const x = w[i] as string;
    w[i] = `${x.slice(0, 2)}${x[3]}${x[2]}${x.slice(4)}`;
    return w.join(' ');
  };
  const namesFor = async (user: SessionUser) =>
    (
      await sql<{ name: string }>`
        select name from parties ${user.role === 'customer' ? sql`where id = ${user.party_id}` : sql`where name ~ '[A-Za-z]{5}'`} order by random()
        limit 50`.execute(db)
    ).rows.map((r) => typo(r.name));

  const service = searchService(db);
  const scenarios: Scenario[] = [];
  const samples: Record<string, Record<string, string[]>> = {};
  for (const [as, user] of [
    ['staff', admin],
    ['customer', customer.user],
  ] as const) {
    const idents = await identsFor(user);
    const qs: Record<string, string[]> = {
      exact: idents,
      prefix: idents.map((l) => l.slice(0, Math.max(4, l.length - 4))),
      words: wordPairs,
      similar: await namesFor(user),
    };
    samples[as] = Object.fromEntries(Object.entries(qs).map(([k, v]) => [k, v.slice(0, 5)]));
    for (const [how, list] of Object.entries(qs)) {
      if (ONLY.length && !ONLY.includes(how)) continue;
      if (!list.length) throw new Error(`no ${how} samples for ${as}`);
      const parsed = list.map((q) => searchQuerySchema.parse({ q, limit: LIMIT }));
      scenarios.push({
        name: how,
        as,
        urls: list.map((q) => `/api/search?${new URLSearchParams({ q, limit: LIMIT })}`),
        floor: (i) => service.search(user, parsed[i % parsed.length] as (typeof parsed)[number]),
      });
    }
  }
  console.log(`samples: ${JSON.stringify(samples)}`);

  const api = await startApi(dataDir);
  server = api.server;
  const tokens = {
    staff: await tokenOf(api.origin, ADMIN),
    customer: await tokenOf(api.origin, BENCH_CUSTOMER),
  };
  // What each way of matching finds (the first sample), so the figures measure real answers.
  for (const s of scenarios) {
    const r = await fetch(`${api.origin}${s.urls[0]}`, {
      headers: { authorization: `Bearer ${tokens[s.as]}` },
    });
    if (!r.ok) throw new Error(`${s.urls[0]} as ${s.as}: ${r.status} ${await r.text()}`);
    const body = (await r.json()) as { groups: { kind: string; results: { match: string }[] }[] };
    console.log(
      `  ${s.name}/${s.as} ${decodeURIComponent(s.urls[0] as string)}: ${body.groups.map((g) => `${g.kind} ${g.results.length} (${g.results[0]?.match})`).join(', ') || 'nothing'}`,
    );
  }
  const runs = await runScenarios(scenarios, {
    origin: api.origin,
    tokens,
    connections: CONNECTIONS,
    seconds: SECONDS,
  });
  const one = runs.find((r) => r.connections === 1)?.rows ?? [];
  for (const [how, ms] of Object.entries(BUDGET))
    for (const r of one.filter((x) => x.name === how))
      console.log(
        `budget ${how} p95 < ${ms} ms (API, 1 connection, ${r.as}): ${r.api.p95} ms ${r.api.p95 < ms ? 'met' : 'OVER'}`,
      );
  writeResults('search', {
    index: size,
    customer: { party: customer.code, dossiers: customer.dossiers },
    samples,
    seconds: SECONDS,
    budgetMs: BUDGET,
    runs,
  });
} finally {
  await stopApi(server);
  await database.shutdown();
}
process.exit(0);
