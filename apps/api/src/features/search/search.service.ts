import {
  NO_CW_ACCESS_MESSAGE,
  SEARCH_KINDS,
  SEARCH_MATCHES,
  type SearchGroup,
  type SearchKind,
  type SearchLink,
  type SearchQuery,
  type SearchResponse,
  type SearchResult,
  WAREHOUSE_SEARCH_KINDS,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { problems } from '../../http/problem.ts';
import { type Scope, scopeOf } from '../../records/scope.ts';
import type { SessionUser } from '../users/users.repository.ts';

/**
 * Candidates per kind and per way of matching: a prefix or a common word can match millions of
 * records; the ranking sees at most this many of each (ADR 0036), so "more" pages end there too.
 */
export const SEARCH_CANDIDATES = 200;
/**
 * A customer with fewer entries of a kind than this has its words checked entry by entry, through the
 * party's index; more, and the kind's GIN answers (ADR 0036).
 */
export const SMALL_PARTY_ENTRIES = 5000;
/**
 * Kinds whose entries carry a name: only those tolerate typos (trigram similarity), and only for a
 * query without digits: one digit off an identifier is another record, never a typo.
 */
export const NAMED_KINDS: readonly SearchKind[] = ['party', 'document', 'stock'];

export interface SearchRow {
  kind: SearchKind;
  record_id: string;
  title: string;
  subtitle: string;
  party_name: string | null;
  link: SearchLink;
  rank: number;
  label: string | null;
}

interface Cursor {
  kind: SearchKind;
  offset: number;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ k: c.kind, o: c.offset })).toString('base64url');
}

function decodeCursor(raw: string, kind: SearchKind): number {
  const bad = () =>
    problems.validation([{ field: 'cursor', message: 'This "more" link is no longer valid: search again' }]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const c = parsed as { k?: unknown; o?: unknown };
  if (
    c?.k !== kind ||
    typeof c.o !== 'number' ||
    !Number.isInteger(c.o) ||
    c.o < 0 ||
    c.o > 4 * SEARCH_CANDIDATES
  )
    throw bad();
  return c.o;
}

/** Who may see what: the conditions on a row of search_entries (alias e) or search_idents (alias i). */
function scopeWhere(alias: string, scope: Scope, cw: boolean): RawBuilder<unknown> {
  const a = sql.raw(alias);
  const parts: RawBuilder<unknown>[] = [];
  if (!scope.all) parts.push(sql`${a}.party_id = ${scope.partyId}::uuid and ${a}.customer_visible`);
  if (!cw) parts.push(sql`not ${a}.needs_cw`);
  return parts.length ? sql`and ${sql.join(parts, sql` and `)}` : sql``;
}

function kindQuery(
  q: string,
  kind: SearchKind,
  scope: Scope,
  cw: boolean,
  limit: number,
  offset: number,
  smallParty: number,
): RawBuilder<SearchRow> {
  // The folding functions are IMMUTABLE: with the query as a bound parameter the planner folds them
  // to constants, so it sees the actual value (an index range for the prefix LIKE, the words' real
  // selectivity), where a CTE's value would be an unknown at planning time.
  const ident = sql`search_ident(${q})`;
  const folded = sql`search_fold(${q})`;
  const idScope = scopeWhere('i', scope, cw);
  const entryScope = scopeWhere('e', scope, cw);
  // Each kind has its own partial GIN on `words` (migration 0028): the kind as a literal lets the
  // planner prove that index; a word the kind never holds is then an empty posting list. For a
  // customer the party is a lexeme of `words` too ('~p<uuid>'), intersected in the same scan.
  const partyLexeme = scope.all ? sql`` : sql`&& ${`'~p${scope.partyId}'`}::tsquery`;
  // Whole words first ('cnsha itgoa'): a GIN scan of whole words intersects posting lists and skips
  // ahead; the last word as a prefix ('itgoa:*') makes it collect every record of every word that
  // starts so — 100 ms in the 2 M transports. So the prefixes are looked at only when the whole words
  // leave the page short, and rank after them (migration 0028, docs/performance.md).
  const wholeWords = sql`search_query_whole(${q})`;
  const prefixWords = sql`search_query(${q})`;
  // Words (and similar names) rank below every identifier match: when the identifiers alone fill
  // the page they are not looked at (a one-time filter, the GIN scan never runs).
  const need = offset + limit + 1;
  // A query with a digit is an identifier (a number, a reference, an SSCC): it is looked up as one,
  // exact or prefix, and never as words — '2026' or '000123' are words of millions of entries, and
  // intersecting them in every kind cost seconds at 8.4 M entries (docs/performance.md).
  // Documents are the exception: their names ('D-2026-000013-packing-list.pdf') are words only —
  // whole words only, though: 'D-2026-20' as words with a prefix is d, 2026 and every word starting
  // with 20 (a million documents each), rechecked row by row for their order: seconds.
  const digits = /[0-9]/.test(q);
  const wordsToo = !digits || kind === 'document';
  const prefixToo = !digits;
  // A customer's words: a party with few entries of this kind (a count that stops at
  // SMALL_PARTY_ENTRIES) is read by the party's own index and each entry's words checked — a handful
  // of rows — where its lexeme in the kind's GIN would still collect a prefix over the whole kind
  // (45 ms for 'usnyc:*' among 2 M transports, for a customer's 34). `words || ''` keeps the planner
  // off the GIN on that route. A big party takes the GIN, its lexeme intersected there.
  const byParty = !scope.all;
  // The entries of this kind matching `query`, when `gate` holds (one-time filters: a route whose
  // condition fails never scans).
  const wordsSelect = (query: RawBuilder<unknown>, gate: RawBuilder<unknown>) =>
    byParty
      ? sql`(select e.record_id from search_entries e
        where ${gate} and (select n from party_n) < ${smallParty}
          and e.kind = ${sql.lit(kind)} and (e.words || ''::tsvector) @@ ${query} ${entryScope})
      union all
      (select e.record_id from search_entries e
        where ${gate} and (select n from party_n) >= ${smallParty}
          and e.kind = ${sql.lit(kind)} and e.words @@ (${query} ${partyLexeme}) ${entryScope})`
      : sql`select e.record_id from search_entries e
        where ${gate} and e.kind = ${sql.lit(kind)} and e.words @@ ${query} ${entryScope}`;
  // Each way of matching by words is planned for ALL its rows (a materialized CTE is) and read only
  // up to SEARCH_CANDIDATES (a CTE is read lazily). Planned under a LIMIT, a word the statistics think
  // common ('po <-> 20:*': 187 000 expected, 0 found) made the planner bet on a sequential scan that
  // would meet 200 early — and read all 10 M entries instead.
  const wordsCtes = wordsToo
    ? sql`${
        byParty
          ? sql`, party_n as materialized (
      select count(*) as n from (select 1 from search_entries e
        where e.party_id = ${scope.partyId}::uuid and e.kind = ${sql.lit(kind)} limit ${smallParty}) s
    )`
          : sql``
      }, whole_all as materialized (
      ${wordsSelect(wholeWords, sql`(select count(*) from idm) < ${need}`)}
    ), whole as materialized (
      select record_id, 2 as rank, null::text as label, 0 as sub from whole_all limit ${SEARCH_CANDIDATES}
    )${
      prefixToo
        ? sql`, prefix_all as materialized (
      ${wordsSelect(prefixWords, sql`(select count(*) from idm) + (select count(*) from whole) < ${need}`)}
    )`
        : sql``
    }, words as materialized (
      select * from whole
      ${prefixToo ? sql`union all (select record_id, 2, null, 1 from prefix_all limit ${SEARCH_CANDIDATES})` : sql``}
    )`
    : sql`, words as (select null::uuid as record_id, 2 as rank, null::text as label, 0 as sub where false)`;
  // Typos on names: the typed words as a whole within the name (`<%`, word similarity ≥ 0.6), in
  // the kind's own trigram index (migration 0028). A trigram index answers "shares enough of the
  // typed trigrams" first and rechecks each such row; with word similarity the typed words that share
  // too little ('bill cnsha' against a million file names) are refused in the index, not rechecked.
  // Only when everything above left the page short.
  const similarToo = !digits && NAMED_KINDS.includes(kind);
  const similarCte = similarToo
    ? sql`, similar_all as materialized (
      select e.record_id from search_entries e
      where (select count(*) from idm) + (select count(*) from words) < ${need}
        and e.kind = ${sql.lit(kind)} and e.name is not null and ${folded} <% e.name ${entryScope}
    )`
    : sql``;
  return sql<SearchRow>`(
    with idm as materialized (
      (select i.record_id, 0 as rank, i.label from search_idents i
        where i.kind = ${kind} and i.ident = ${ident} ${idScope} limit ${SEARCH_CANDIDATES})
      union all
      (select i.record_id, 1, i.label from search_idents i
        where i.kind = ${kind} and i.ident like ${ident} || '%' and i.ident > ${ident} and ${ident} <> ''
          ${idScope}
        order by i.ident limit ${SEARCH_CANDIDATES})
    )${wordsCtes}${similarCte}, cand as (
      select record_id, rank, label, 0 as sub from idm
      union all
      select * from words
      ${similarToo ? sql`union all (select record_id, 3, null, 0 from similar_all limit ${SEARCH_CANDIDATES})` : sql``}
    ), best as (
      select distinct on (record_id) record_id, rank, sub, label from cand order by record_id, rank, sub, label
    )
    -- LIMIT 1 keeps the lateral from being flattened: one primary-key probe per candidate, never a
    -- join over the whole kind, whatever the statistics say.
    -- The party's name too: a probe per row (after the limit), never a join over all parties.
    select e.kind, e.record_id, e.title, e.subtitle, e.link, b.rank, b.label,
      (select p.name from parties p where p.id = e.party_id and e.kind <> 'party') as party_name
    from best b
    cross join lateral (select * from search_entries e0
      where e0.kind = ${kind} and e0.record_id = b.record_id limit 1) e
    order by b.rank, b.sub, e.sort_at desc, e.record_id
    limit ${limit + 1} offset ${offset}
  )`;
}

export interface SearchSqlOptions {
  q: string;
  kinds: readonly SearchKind[];
  scope: Scope;
  /** The user's cw_access: without it, nothing that needs it (warehouse records and their documents). */
  cw: boolean;
  /** Per kind; one more row is read to know whether there is a next page. */
  limit: number;
  offset?: number;
  /** Below this many entries of a kind a customer is searched by its own index (tests set 0 and ∞). */
  smallParty?: number;
}

/**
 * The one statement a search runs (all kinds, one round trip): exported so that bench:search measures
 * exactly this SQL next to the endpoint.
 */
export function searchSql(o: SearchSqlOptions): RawBuilder<SearchRow> {
  const parts = o.kinds.map(
    (k) =>
      sql`select * from ${kindQuery(o.q, k, o.scope, o.cw, o.limit, o.offset ?? 0, o.smallParty ?? SMALL_PARTY_ENTRIES)} as ${sql.raw(`k_${k}`)}`,
  );
  return sql<SearchRow>`${sql.join(parts, sql` union all `)}`;
}

export function searchService(db: Db) {
  return {
    async search(user: SessionUser, query: SearchQuery): Promise<SearchResponse> {
      const scope = scopeOf(user);
      const cw = user.cw_access;
      let kinds: SearchKind[];
      if (query.kinds?.length) {
        if (!cw && query.kinds.some((k) => WAREHOUSE_SEARCH_KINDS.includes(k))) {
          throw problems.forbidden(NO_CW_ACCESS_MESSAGE);
        }
        kinds = SEARCH_KINDS.filter((k) => query.kinds?.includes(k));
      } else {
        kinds = SEARCH_KINDS.filter((k) => cw || !WAREHOUSE_SEARCH_KINDS.includes(k));
      }
      let offset = 0;
      if (query.cursor !== undefined) {
        if (kinds.length !== 1 || !query.kinds?.length) {
          throw problems.validation([
            { field: 'cursor', message: 'A "more" cursor needs exactly one kind in kinds' },
          ]);
        }
        offset = decodeCursor(query.cursor, kinds[0] as SearchKind);
      }
      const limit = query.limit;
      const rows = (await searchSql({ q: query.q, kinds, scope, cw, limit, offset }).execute(db)).rows;
      const groups: (SearchGroup & { best: number })[] = [];
      for (const kind of kinds) {
        const mine = rows.filter((r) => r.kind === kind);
        if (!mine.length) continue;
        const more = mine.length > limit;
        const results: SearchResult[] = mine.slice(0, limit).map((r) => ({
          kind,
          id: r.record_id,
          title: r.title,
          subtitle: [r.party_name, r.subtitle].filter(Boolean).join(' · '),
          match: SEARCH_MATCHES[r.rank] ?? 'similar',
          matched: r.label && r.label !== r.title ? r.label : null,
          link: r.link,
        }));
        groups.push({
          kind,
          results,
          nextCursor: more ? encodeCursor({ kind, offset: offset + limit }) : null,
          best: Math.min(...mine.map((r) => r.rank)),
        });
      }
      groups.sort((a, b) => a.best - b.best || SEARCH_KINDS.indexOf(a.kind) - SEARCH_KINDS.indexOf(b.kind));
      return { q: query.q, groups: groups.map(({ best: _b, ...g }) => g) };
    },
  };
}

export type SearchService = ReturnType<typeof searchService>;
