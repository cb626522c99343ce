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
 * Kinds whose entries carry a name: only those tolerate typos (trigram similarity), and only for a
 * query without digits: one digit off an identifier is another record, never a typo.
 */
const NAMED_KINDS: readonly SearchKind[] = ['party', 'document', 'stock'];

interface Row {
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
  kind: SearchKind,
  scope: Scope,
  cw: boolean,
  limit: number,
  offset: number,
): RawBuilder<Row> {
  const idScope = scopeWhere('i', scope, cw);
  const entryScope = scopeWhere('e', scope, cw);
  // The kind and (for a customer) the party are lexemes of `words`: one GIN scan intersects them.
  const wordsQuery = sql`((select q from tq) && ${`'~k${kind}'`}::tsquery
    ${scope.all ? sql`` : sql`&& ${`'~p${scope.partyId}'`}::tsquery`})`;
  const similar = NAMED_KINDS.includes(kind)
    ? sql`union all (select e.record_id, 3 as rank, null::text as label from search_entries e
        where e.kind = ${kind} and e.name % (select f from qf) and (select f from qf) !~ '[0-9]'
          ${entryScope} limit ${SEARCH_CANDIDATES})`
    : sql``;
  return sql<Row>`(
    with cand as (
      (select i.record_id, 0 as rank, i.label from search_idents i
        where i.kind = ${kind} and i.ident = (select v from qi) ${idScope} limit ${SEARCH_CANDIDATES})
      union all
      (select i.record_id, 1, i.label from search_idents i
        where i.kind = ${kind} and i.ident like (select v from qi) || '%' and i.ident > (select v from qi)
          and (select v from qi) <> '' ${idScope}
        order by i.ident limit ${SEARCH_CANDIDATES})
      union all
      (select e.record_id, 2, null from search_entries e
        where e.words @@ ${wordsQuery} ${entryScope} limit ${SEARCH_CANDIDATES})
      ${similar}
    ), best as (
      select distinct on (record_id) record_id, rank, label from cand order by record_id, rank, label
    )
    select e.kind, e.record_id, e.title, e.subtitle, p.name as party_name, e.link, b.rank, b.label
    from best b
    join search_entries e on e.kind = ${kind} and e.record_id = b.record_id
    left join parties p on p.id = e.party_id and e.kind <> 'party'
    order by b.rank, e.sort_at desc, e.record_id
    limit ${limit + 1} offset ${offset}
  )`;
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
      const parts = kinds.map(
        (k) => sql`select * from ${kindQuery(k, scope, cw, limit, offset)} as ${sql.raw(`k_${k}`)}`,
      );
      const rows = (
        await sql<Row>`
          with qi as (select search_ident(${query.q}) as v),
          qf as (select search_fold(${query.q}) as f),
          tq as (select search_query(${query.q}) as q)
          ${sql.join(parts, sql` union all `)}`.execute(db)
      ).rows;
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
