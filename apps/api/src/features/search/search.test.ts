import {
  SEARCH_KINDS,
  type SearchKind,
  type SearchResponse,
  type SearchResult,
  WAREHOUSE_SEARCH_KINDS,
} from '@fvg/contracts';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildSearchIndex } from '../../db/search-index.ts';
import { type Auth, apiTest } from '../../test/api-test.ts';
import { type Json, waitUntil } from '../../test/helpers.ts';
import { NAMED_KINDS, searchSql } from './search.service.ts';

// The demo company: every kind has records of both customers, drafts and warehouse stock.
const setup = apiTest({ files: 'fvg-search-', demoCompany: true });
const { db, tokens: auth, partyId, call } = setup;
type RoleName = 'admin' | 'staff' | 'acme' | 'globex';
const ROLE_NAMES: RoleName[] = ['admin', 'staff', 'acme', 'globex'];

async function search(who: Auth, q: string, params: Record<string, string> = {}) {
  const r = await call('GET', `/search?${new URLSearchParams({ q, ...params })}`, who);
  return { status: r.status, body: r.body as unknown as SearchResponse & Json };
}
const results = (r: SearchResponse, kind?: SearchKind): SearchResult[] =>
  r.groups.filter((g) => !kind || g.kind === kind).flatMap((g) => g.results);

/** Each kind's own list endpoint and the identifier a user would type to find one of its records. */
const AREAS: Record<SearchKind, { path: string; ident: (item: Json) => string | null }> = {
  dossier: { path: '/dossiers', ident: (i) => i.number as string },
  container: { path: '/containers', ident: (i) => i.containerNumber as string },
  transport: { path: '/transports', ident: (i) => (i.dossier as Json).number as string },
  document: { path: '/documents', ident: (i) => i.fileName as string },
  party: { path: '/parties', ident: (i) => i.code as string },
  offer: { path: '/sales-offers', ident: (i) => i.number as string },
  // A draft invoice has no number yet: nothing to type, so the parity check skips it.
  invoice: { path: '/sales-invoices', ident: (i) => (i.number as string | null) ?? null },
  declaration: { path: '/declarations', ident: (i) => i.lrn as string },
  stock: { path: '/stock', ident: (i) => i.sku as string },
  shipment: { path: '/shipments', ident: (i) => i.number as string },
};
const KINDS = Object.keys(AREAS) as SearchKind[];

/** Every item the role's own list shows (null: the list refuses the role, 403). */
async function listAll(who: Auth, path: string): Promise<Json[] | null> {
  const out: Json[] = [];
  for (let page = 1; ; page++) {
    const r = await call('GET', `${path}?pageSize=200&page=${page}`, who);
    if (r.status === 403) return null;
    expect(r.status, `${path} page ${page}`).toBe(200);
    const items = r.body.items as Json[];
    out.push(...items);
    if (items.length < 200) return out;
  }
}

/** Pages through one kind's results for q ("more" cursors) until `stop` says so or they end. */
async function allOfKind(who: Auth, q: string, kind: SearchKind, stop: (ids: Set<string>) => boolean) {
  const ids = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const r = await search(who, q, { kinds: kind, limit: '50', ...(cursor ? { cursor } : {}) });
    expect(r.status, `search ${q} ${kind}: ${JSON.stringify(r.body)}`).toBe(200);
    const group = r.body.groups.find((g) => g.kind === kind);
    for (const x of group?.results ?? []) ids.add(x.id);
    cursor = group?.nextCursor ?? null;
    if (!cursor || stop(ids)) break;
  }
  return ids;
}

describe('scoping parity with each area’s own list', () => {
  // Every record any role can list, by kind: what each role then searches for.
  const everything = new Map<SearchKind, Json[]>();

  beforeAll(async () => {
    for (const kind of KINDS) everything.set(kind, (await listAll(auth.admin, AREAS[kind].path)) ?? []);
  });

  it('the demo data has records of every kind for the admin (else the parity proves nothing)', () => {
    for (const kind of KINDS) expect(everything.get(kind)?.length, kind).toBeGreaterThan(0);
  });

  for (const role of ROLE_NAMES) {
    it(`${role}: finds every record its lists show by its identifier, and nothing they do not show`, async () => {
      let checked = 0;
      for (const kind of KINDS) {
        const listed = await listAll(auth[role], AREAS[kind].path);
        if (listed === null) {
          // The list refuses the role (warehouse without cw_access): so does the search of that kind.
          expect(WAREHOUSE_SEARCH_KINDS).toContain(kind);
          expect((await search(auth[role], 'ab', { kinds: kind })).status).toBe(403);
        }
        const visible = new Set((listed ?? []).map((i) => i.id as string));
        const idents = new Set(
          (everything.get(kind) ?? []).map((i) => AREAS[kind].ident(i)).filter((x): x is string => !!x),
        );
        for (const ident of idents) {
          const wanted = (listed ?? [])
            .filter((i) => AREAS[kind].ident(i) === ident)
            .map((i) => i.id as string);
          if (listed === null) {
            // Not even asked for: the default kinds leave the warehouse out.
            const r = await search(auth[role], ident);
            expect(r.body.groups.map((g) => g.kind)).not.toContain(kind);
            continue;
          }
          const found = await allOfKind(auth[role], ident, kind, (ids) => wanted.every((id) => ids.has(id)));
          for (const id of found)
            expect(visible.has(id), `${role} found ${kind} ${id} (${ident}) not in its list`).toBe(true);
          for (const id of wanted)
            expect(found.has(id), `${role} did not find ${kind} ${id} by ${ident}`).toBe(true);
          checked += wanted.length;
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  it('a customer never finds another party’s records, whatever kind, even by their exact identifiers', async () => {
    const globexDossiers = (await listAll(auth.globex, '/dossiers')) ?? [];
    expect(globexDossiers.length).toBeGreaterThan(0);
    for (const d of globexDossiers) {
      const r = await search(auth.acme, d.number as string);
      expect(results(r.body).filter((x) => x.id === d.id)).toEqual([]);
      for (const x of results(r.body)) expect(x.subtitle).not.toContain('Globex');
    }
  });
});

describe('per kind and per role', () => {
  it('every kind answers title, subtitle and a link of a web route; a customer sees the same text as staff', async () => {
    for (const kind of KINDS) {
      const item = (await listAll(auth.acme, AREAS[kind].path))?.find((i) => AREAS[kind].ident(i));
      if (!item) continue;
      const ident = AREAS[kind].ident(item) as string;
      const asAdmin = results(
        (await search(auth.admin, ident, { kinds: kind, limit: '50' })).body,
        kind,
      ).find((x) => x.id === item.id);
      const asAcme = results((await search(auth.acme, ident, { kinds: kind, limit: '50' })).body, kind).find(
        (x) => x.id === item.id,
      );
      expect(asAcme, kind).toBeDefined();
      expect(asAcme).toEqual(asAdmin);
      expect(asAcme?.title.length).toBeGreaterThan(0);
      expect(asAcme?.link.route).toMatch(/^[a-z-]+$/);
    }
  });

  it('subtitles never carry internal figures or notes', async () => {
    await sql`update dossiers set cargo_description = 'Pumps' where number = (select min(number) from dossiers)`.execute(
      db.db,
    );
    const rows = await sql<{
      subtitle: string;
      kind: string;
    }>`select kind, subtitle from search_entries`.execute(db.db);
    const internal = await sql<{ v: string }>`
      select notes as v from sales_offers where notes is not null
      union select notes from sales_invoices where notes is not null
      union select notes from declarations where notes is not null
      union select notes from shipments where notes is not null
      union select notes from stock_records where notes is not null
      union select profit::text from dossiers where profit <> 0`.execute(db.db);
    for (const { v } of internal.rows) {
      for (const r of rows.rows) expect(r.subtitle, `${r.kind} subtitle`).not.toContain(v);
    }
  });

  it('warehouse kinds: 403 when asked for without cw_access, silently left out by default', async () => {
    for (const who of [auth.staff, auth.globex]) {
      for (const kinds of ['stock', 'shipment', 'dossier,stock']) {
        const r = await search(who, 'ab', { kinds });
        expect(r.status).toBe(403);
        expect(r.body.type).toBeDefined();
      }
    }
    const sku = (await listAll(auth.admin, '/stock'))?.[0]?.sku as string;
    expect(results((await search(auth.admin, sku)).body, 'stock').length).toBeGreaterThan(0);
    expect(results((await search(auth.staff, sku)).body, 'stock')).toEqual([]);
    // Documents of warehouse records follow the warehouse: not for staff without cw_access.
    const whDoc = await sql<{ file_name: string; id: string }>`
      select file_name, id from documents where record_type in ('stock', 'shipment') limit 1`.execute(db.db);
    if (whDoc.rows[0]) {
      const name = whDoc.rows[0].file_name;
      expect(
        results((await search(auth.admin, name, { limit: '50' })).body, 'document').map((x) => x.id),
      ).toContain(whDoc.rows[0].id);
      expect(
        results((await search(auth.staff, name, { limit: '50' })).body, 'document').map((x) => x.id),
      ).not.toContain(whDoc.rows[0].id);
    }
  });
});

describe('matching and ranking', () => {
  it('identifiers match however typed: case, spaces, dashes and dots ignored', async () => {
    const d = (await listAll(auth.admin, '/dossiers'))?.[0] as Json;
    const number = d.number as string;
    const mangled = `  ${number.toLowerCase().split('').join(' ')} `.replace(/-/g, '.');
    for (const q of [number, number.toLowerCase(), number.replace(/-/g, ''), mangled.slice(0, 100)]) {
      const r = await search(auth.admin, q, { kinds: 'dossier' });
      expect(r.status).toBe(200);
      expect(results(r.body, 'dossier')[0]).toMatchObject({ id: d.id, match: 'exact' });
    }
  });

  it('exact before prefix before words, then the newest first; groups ordered by their best match', async () => {
    const make = async (ref: string, cargo: string) =>
      (
        await call('POST', '/dossiers', auth.staff, {
          type: 'import',
          mode: 'sea',
          customerId: partyId.ACME,
          customerReference: ref,
          cargoDescription: cargo,
        })
      ).body;
    const words = await make('OTHER-1', 'Spare rnk-7731 gears');
    const prefixOld = await make('RNK-77310', 'Valves');
    const prefixNew = await make('RNK-77311', 'Valves');
    const exact = await make('RNK-7731', 'Valves');
    for (const x of [words, prefixOld, prefixNew, exact]) expect(x.id).toBeDefined();
    const r = await search(auth.staff, 'rnk 7731', { kinds: 'dossier', limit: '10' });
    // A query with a digit is an identifier: exact, then prefixes, never words (ADR 0036) — the
    // dossier that only mentions it in its cargo description is not among them.
    expect(results(r.body, 'dossier').map((x) => [x.id, x.match])).toEqual([
      [exact.id, 'exact'],
      [prefixNew.id, 'prefix'],
      [prefixOld.id, 'prefix'],
    ]);
    expect(results(r.body, 'dossier')[1]?.matched).toBe('RNK-77311');
    // Words without digits find it, below nothing else here.
    const byWords = await search(auth.staff, 'spare gears', { kinds: 'dossier', limit: '10' });
    expect(results(byWords.body, 'dossier').map((x) => [x.id, x.match])).toEqual([[words.id, 'words']]);
    // Whole words before words that only start so (the last typed word is a prefix), even older ones;
    // among each, the newest first.
    const whole = await make('OTHER-2', 'Spare gear');
    const startsSo = await make('OTHER-3', 'Spare gearboxes');
    const byPrefix = await search(auth.staff, 'spare gear', { kinds: 'dossier', limit: '10' });
    expect(results(byPrefix.body, 'dossier').map((x) => x.id)).toEqual([whole.id, startsSo.id, words.id]);
    // A document name with a number is matched by whole words only: a cut-off number is not a prefix
    // there (it would be every word starting so, in every document: seconds at volume).
    const doc = (await listAll(auth.admin, '/documents'))?.find((d) =>
      /[0-9]{4,}/.test(d.fileName as string),
    );
    const name = doc?.fileName as string;
    const cut = name.slice(0, (name.match(/[0-9]{4,}/)?.index ?? 0) + 2);
    const byName = await search(auth.admin, name, { kinds: 'document', limit: '50' });
    expect(results(byName.body, 'document').map((x) => x.id)).toContain(doc?.id);
    const byCut = await search(auth.admin, cut, { kinds: 'document', limit: '50' });
    expect(results(byCut.body, 'document').map((x) => x.id)).not.toContain(doc?.id);
    // Paging keeps that order: the whole word on the first page, the one that starts so on the next.
    const first = await search(auth.staff, 'spare gear', { kinds: 'dossier', limit: '1' });
    expect(results(first.body, 'dossier').map((x) => x.id)).toEqual([whole.id]);
    const next = await search(auth.staff, 'spare gear', {
      kinds: 'dossier',
      limit: '1',
      cursor: first.body.groups[0]?.nextCursor as string,
    });
    expect(results(next.body, 'dossier').map((x) => x.id)).toEqual([startsSo.id]);

    // A group with an exact match comes before one with only words.
    const party = (
      await call('POST', '/parties', auth.staff, {
        code: 'RNK7731',
        name: 'Rnk Holding',
        kinds: ['agent'],
        countryCode: 'NL',
      })
    ).body;
    const both = await search(auth.staff, 'RNK7731', { kinds: 'dossier,party' });
    expect(both.body.groups.map((g) => g.kind)).toEqual(['dossier', 'party']);
    expect(results(both.body, 'party')[0]).toMatchObject({ id: party.id, match: 'exact' });
    const onlyWords = await search(auth.staff, 'rnk holding', { kinds: 'dossier,party' });
    expect(onlyWords.body.groups.map((g) => g.kind)).toEqual(['party']);
  });

  it('names: accents and case ignored; a typo found by similarity, never on identifiers', async () => {
    const p = (
      await call('POST', '/parties', auth.staff, {
        code: 'SOCGEN',
        name: 'Société Générale Logistique',
        kinds: ['customer'],
        countryCode: 'FR',
      })
    ).body;
    for (const q of ['societe generale', 'SOCIÉTÉ GÉNÉRALE', 'Générale logis']) {
      expect(results((await search(auth.staff, q, { kinds: 'party' })).body, 'party')[0], q).toMatchObject({
        id: p.id,
        match: 'words',
      });
    }
    expect(
      results((await search(auth.staff, 'Societe Genrale Logistique', { kinds: 'party' })).body, 'party')[0],
    ).toMatchObject({ id: p.id, match: 'similar' });
    // One character off an identifier is another identifier: no result.
    const number = (await listAll(auth.admin, '/dossiers'))?.[0]?.number as string;
    const typo = `${number.slice(0, -1)}${number.endsWith('9') ? '8' : '9'}`;
    expect(
      results((await search(auth.staff, typo, { kinds: 'dossier' })).body, 'dossier').map((x) => x.title),
    ).not.toContain(number);
  });

  it('"more" pages one kind with its cursor, without repeats; a cursor needs exactly one kind', async () => {
    const first = await search(auth.admin, 'D', { kinds: 'dossier', limit: '2' });
    expect(first.status).toBe(400); // one character
    const page1 = await search(
      auth.admin,
      String((await listAll(auth.admin, '/dossiers'))?.[0]?.number).slice(0, 4),
      {
        kinds: 'dossier',
        limit: '2',
      },
    );
    const g1 = page1.body.groups[0];
    expect(g1?.results.length).toBe(2);
    expect(g1?.nextCursor).toBeTruthy();
    const page2 = await search(auth.admin, page1.body.q, {
      kinds: 'dossier',
      limit: '2',
      cursor: g1?.nextCursor as string,
    });
    const ids2 = results(page2.body).map((x) => x.id);
    expect(ids2.length).toBeGreaterThan(0);
    for (const id of ids2) expect(g1?.results.map((x) => x.id)).not.toContain(id);

    const noKind = await search(auth.admin, page1.body.q, { cursor: g1?.nextCursor as string });
    expect(noKind.status).toBe(400);
    expect((noKind.body.errors as { field: string }[])[0]?.field).toBe('cursor');
    const twoKinds = await search(auth.admin, page1.body.q, {
      kinds: 'dossier,party',
      cursor: g1?.nextCursor as string,
    });
    expect(twoKinds.status).toBe(400);
    const otherKind = await search(auth.admin, page1.body.q, {
      kinds: 'party',
      cursor: g1?.nextCursor as string,
    });
    expect(otherKind.status).toBe(400);
    const garbage = await search(auth.admin, page1.body.q, { kinds: 'dossier', cursor: 'not-a-cursor' });
    expect(garbage.status).toBe(400);
    expect((garbage.body.errors as { field: string }[])[0]?.field).toBe('cursor');
  });

  it('too short, too long, unknown kinds: 400 problems naming the field', async () => {
    for (const [q, field] of [
      ['a', 'q'],
      [' a ', 'q'],
      ['', 'q'],
      ['x'.repeat(101), 'q'],
    ] as const) {
      const r = await search(auth.staff, q);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect((r.body.errors as { field: string }[])[0]?.field).toBe(field);
    }
    const kinds = await search(auth.staff, 'ab', { kinds: 'dossier,planets' });
    expect(kinds.status).toBe(400);
    expect((kinds.body.errors as { field: string }[])[0]?.field).toBe('kinds');
    const limit = await search(auth.staff, 'ab', { limit: '51' });
    expect(limit.status).toBe(400);
    // Punctuation only: a valid query that matches nothing, not an error.
    const punct = await search(auth.staff, '--');
    expect(punct.status).toBe(200);
    expect(punct.body.groups).toEqual([]);
  });
});

/** Thrown to roll a transaction back with what it found. */
class PlanOf extends Error {
  constructor(readonly plan: string) {
    super('rolled back');
  }
}

describe('words and names: one GIN per kind (migration 0028, ADR 0036)', () => {
  it('every kind has its own partial index on words (and names), and no index over all kinds is left', async () => {
    const rows = (
      await sql<{ indexname: string; indexdef: string }>`
        select indexname, indexdef from pg_indexes
        where tablename = 'search_entries' and indexdef like '%USING gin (words)%'`.execute(db.db)
    ).rows;
    expect(rows.map((r) => r.indexname).sort()).toEqual(
      SEARCH_KINDS.map((k) => `search_entries_words_${k}`).sort(),
    );
    for (const r of rows) {
      const kind = r.indexname.replace('search_entries_words_', '');
      expect(r.indexdef).toContain(`WHERE (kind = '${kind}'::text)`);
    }
    // Names (typos) the same way, for the kinds that have names.
    const names = (
      await sql<{ indexname: string; indexdef: string }>`
        select indexname, indexdef from pg_indexes
        where tablename = 'search_entries' and indexdef like '%gin_trgm_ops%'`.execute(db.db)
    ).rows;
    expect(names.map((r) => r.indexname).sort()).toEqual(
      NAMED_KINDS.map((k) => `search_entries_name_${k}`).sort(),
    );
    for (const r of names) {
      expect(r.indexdef).toContain(
        `WHERE ((kind = '${r.indexname.replace('search_entries_name_', '')}'::text)`,
      );
    }
  });

  it('the words of each kind are looked up in that kind’s index, for staff and for a customer', async () => {
    const scopes = [{ all: true } as const, { all: false, partyId: partyId.ACME } as const];
    for (const kind of SEARCH_KINDS) {
      for (const scope of scopes) {
        // On a table this small the planner prefers a sequential scan or the primary key's range on
        // kind; what is asked here is whether the query lets it prove the partial index at all. So,
        // in a transaction rolled back: no sequential scans, and no primary key to fall back on.
        const plan = await db.db
          .transaction()
          .execute(async (tx) => {
            await sql`set local enable_seqscan = off`.execute(tx);
            await sql`alter table search_entries drop constraint search_entries_pkey`.execute(tx);
            const stmt = searchSql({ q: 'harbour crane', kinds: [kind], scope, cw: true, limit: 5 }).compile(
              tx,
            );
            const r = await tx.executeQuery<{ 'QUERY PLAN': string }>({
              ...stmt,
              sql: `explain (costs off) ${stmt.sql}`,
            });
            throw new PlanOf(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
          })
          .catch((e: unknown) => {
            if (e instanceof PlanOf) return e.plan;
            throw e;
          });
        expect(plan, `${kind}, ${scope.all ? 'staff' : 'customer'}`).toContain(
          `search_entries_words_${kind}`,
        );
        // A customer has two routes, chosen at run time by its number of entries: both are planned.
        if (!scope.all) expect(plan, `${kind}, a small party`).toContain('search_entries_party_kind');
        // Staff look typos up in the kind's trigram index (a customer's party index may be cheaper).
        if (!NAMED_KINDS.includes(kind))
          expect(plan, `${kind} has no names`).not.toContain('search_entries_name');
        else if (scope.all) expect(plan, `${kind} names`).toContain(`search_entries_name_${kind}`);
      }
    }
  });
  it('a customer finds the same by its own entries (a small party) as through the kind’s index', async () => {
    const queries = [
      'harbour crane',
      'spare gear',
      'acme',
      'rotterdam',
      'bill lading',
      'invoice',
      'pallets',
      'de',
    ];
    let found = 0;
    for (const party of [partyId.ACME, partyId.GLOBEX]) {
      for (const q of queries) {
        const run = (smallParty: number) =>
          searchSql({
            q,
            kinds: SEARCH_KINDS,
            scope: { all: false, partyId: party },
            cw: true,
            limit: 50,
            smallParty,
          })
            .execute(db.db)
            .then((r) => r.rows.map((x) => `${x.kind} ${x.record_id} ${x.rank}`));
        const byOwnEntries = await run(Number.MAX_SAFE_INTEGER);
        expect(await run(0), `${q} as ${party === partyId.ACME ? 'ACME' : 'Globex'}`).toEqual(byOwnEntries);
        found += byOwnEntries.length;
      }
    }
    // Else the comparison proves nothing.
    expect(found).toBeGreaterThan(20);
  });
});

describe('the index stays in step with writes (same transaction)', () => {
  it('create, update and delete of a party', async () => {
    const created = (
      await call('POST', '/parties', auth.staff, {
        code: 'INSTEP1',
        name: 'Instep Freight',
        kinds: ['agent'],
        countryCode: 'NL',
      })
    ).body;
    expect(
      results((await search(auth.staff, 'instep freight', { kinds: 'party' })).body, 'party')[0]?.id,
    ).toBe(created.id);
    const patched = await call('PATCH', `/parties/${created.id}`, auth.staff, {
      version: created.version,
      name: 'Outstep Cargo',
    });
    expect(patched.status).toBe(200);
    expect(results((await search(auth.staff, 'instep freight', { kinds: 'party' })).body, 'party')).toEqual(
      [],
    );
    expect(results((await search(auth.staff, 'outstep', { kinds: 'party' })).body, 'party')[0]?.title).toBe(
      'Outstep Cargo',
    );
    const del = await call('DELETE', `/parties/${created.id}`, auth.admin);
    expect(del.status).toBeLessThan(300);
    expect(results((await search(auth.staff, 'INSTEP1', { kinds: 'party' })).body, 'party')).toEqual([]);
  });

  it('a dossier given to another customer takes its transports, documents and containers along', async () => {
    const dossiers = (await listAll(auth.acme, '/dossiers')) ?? [];
    const transports = (await listAll(auth.acme, '/transports')) ?? [];
    const d = dossiers.find((x) => transports.some((t) => (t.dossier as Json).id === x.id)) as Json;
    expect(d).toBeDefined();
    const number = d.number as string;
    const before = await search(auth.acme, number, { limit: '50' });
    expect(results(before.body, 'dossier').map((x) => x.id)).toContain(d.id);
    expect(results(before.body, 'transport').length).toBeGreaterThan(0);
    expect((await search(auth.globex, number, { limit: '50' })).body.groups).toEqual([]);

    const full = (await call('GET', `/dossiers/${d.id}`, auth.staff)).body;
    const moved = await call('PATCH', `/dossiers/${d.id}`, auth.staff, {
      version: full.version,
      customerId: partyId.GLOBEX,
    });
    expect(moved.status).toBe(200);

    // Its invoices, offers and declarations keep their own customer (as their lists do).
    const acmeAfter = await search(auth.acme, number, { limit: '50' });
    for (const kind of ['dossier', 'transport', 'document', 'container'] as const) {
      expect(results(acmeAfter.body, kind), kind).toEqual([]);
    }
    const globexAfter = await search(auth.globex, number, { limit: '50' });
    expect(results(globexAfter.body, 'dossier').map((x) => x.id)).toContain(d.id);
    expect(results(globexAfter.body, 'transport').length).toBe(results(before.body, 'transport').length);
    // Its documents and containers moved too: no index row of this dossier's dependents still names ACME.
    const stale = await sql<{ n: number }>`
      select count(*)::int as n from search_entries e
      where e.party_id = ${partyId.ACME}::uuid and (
        (e.kind = 'transport' and e.record_id in (select id from transports where dossier_id = ${d.id as string}::uuid))
        or (e.kind = 'document' and e.record_id in (select id from documents where dossier_id = ${d.id as string}::uuid))
        or (e.kind = 'container' and e.record_id in (select id from container_summaries where dossier_id = ${d.id as string}::uuid)))`.execute(
      db.db,
    );
    expect(stale.rows[0]?.n).toBe(0);

    const back = await call('PATCH', `/dossiers/${d.id}`, auth.staff, {
      version: moved.body.version,
      customerId: partyId.ACME,
    });
    expect(back.status).toBe(200);
    expect(
      results((await search(auth.acme, number, { limit: '50' })).body, 'dossier').map((x) => x.id),
    ).toContain(d.id);
  });

  it('two transactions re-indexing the same record at once: both commit, the later one wins', async () => {
    // A document's own update and its dossier's customer change both rewrite the document's entry; the
    // second waits for the first's row lock, and then must not trip over the row the first inserted.
    const doc = (
      await sql<{ id: string; dossier_id: string; customer_id: string }>`
        select doc.id, doc.dossier_id, d.customer_id from documents doc join dossiers d on d.id = doc.dossier_id
        where d.customer_id = ${partyId.ACME}::uuid limit 1`.execute(db.db)
    ).rows[0];
    expect(doc).toBeDefined();
    if (!doc) return;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let updated!: () => void;
    const aUpdated = new Promise<void>((r) => {
      updated = r;
    });
    const a = db.db.transaction().execute(async (trx) => {
      await sql`update documents set visible_to_customer = not visible_to_customer where id = ${doc.id}::uuid`.execute(
        trx,
      );
      updated();
      await gate;
    });
    await aUpdated;
    const b = db.db
      .transaction()
      .execute(async (trx) => {
        await sql`update dossiers set customer_id = ${partyId.GLOBEX}::uuid where id = ${doc.dossier_id}::uuid`.execute(
          trx,
        );
      })
      .then(
        () => 'committed',
        (e: Error) => e.message,
      );
    await waitUntil('the dossier change waits for the document change', async () => {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db.db);
      return (r.rows[0]?.n ?? 0) > 0;
    });
    release();
    await a;
    expect(await b).toBe('committed');
    const entry = await sql<{ party_id: string; n: number }>`
      select party_id, count(*) over ()::int as n from search_entries
      where kind = 'document' and record_id = ${doc.id}::uuid`.execute(db.db);
    expect(entry.rows).toEqual([{ party_id: partyId.GLOBEX, n: 1 }]);
    // Back as it was, for the tests after this one.
    await sql`update documents set visible_to_customer = not visible_to_customer where id = ${doc.id}::uuid`.execute(
      db.db,
    );
    await sql`update dossiers set customer_id = ${partyId.ACME}::uuid where id = ${doc.dossier_id}::uuid`.execute(
      db.db,
    );
  });

  it('a deleted dossier (a booking request) leaves no trace; odd data (nulls) never fails the write', async () => {
    const created = (
      await call('POST', '/dossiers/bookings', auth.acme, {
        type: 'export',
        mode: 'road',
        originLocode: 'NLRTM',
        destinationLocode: 'DEHAM',
        cargoDescription: 'Bicycles',
        packages: 4,
      })
    ).body as Json;
    expect(created.id).toBeDefined();
    const number = created.number as string;
    expect(results((await search(auth.acme, number)).body, 'dossier')[0]?.id).toBe(created.id);
    const del = await call('DELETE', `/dossiers/${created.id}`, auth.admin);
    expect(del.status).toBeLessThan(300);
    expect((await search(auth.staff, number)).body.groups).toEqual([]);
    const left = await sql<{ n: number }>`
      select (select count(*) from search_entries where record_id = ${created.id as string}::uuid)
        + (select count(*) from search_idents where record_id = ${created.id as string}::uuid) as n`.execute(
      db.db,
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
  });

  it('the rebuild gives exactly what the triggers kept', async () => {
    const snapshot = async () =>
      (
        await sql<{ r: string }>`
          select concat_ws('|', kind, record_id, party_id, customer_visible, needs_cw, title, subtitle, link::text,
            words::text, name, sort_at) as r from search_entries
          union all
          select concat_ws('|', ident, kind, record_id, party_id, customer_visible, needs_cw, label) from search_idents
          order by 1`.execute(db.db)
      ).rows.map((x) => x.r);
    const before = await snapshot();
    const counts = await rebuildSearchIndex(db.db);
    expect(counts.dossier).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
  });
});
