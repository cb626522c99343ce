import { type Kysely, sql } from 'kysely';
import { KINDS } from './0025-search.ts';

/**
 * Words search per kind (ADR 0036, amended): a partial GIN on `words` for each kind replaces
 * the one GIN over all entries. Measured at 8.4 M entries: 'bill deham' in one kind intersected the
 * posting lists of both words with the kind's own lexeme ('~ktransport', 2 M entries) — 160 to 580 ms a
 * kind, seconds for the ten kinds of one search. In a kind's own index a word that kind never holds is
 * an empty posting list (0.1 ms) and a common one is only that kind's share of it. The same for the
 * names' trigram index (typos: parties, document names, stock descriptions), and a whole-words query
 * (`search_query_whole`) that the search asks before the last word's prefix, and a btree on a party's
 * entries of a kind, by which a customer with few of them is searched.
 *
 * The kinds are 0025's (a migration's list, not the contract's: a migration must mean the same thing
 * forever). A kind added later adds its index in its own migration (a test fails until it does).
 * `if not exists`: a database where the indexes were built by hand before (the bench's) keeps them.
 */
/** The kinds whose entries carry a name (typos tolerated: parties, document names, stock descriptions). */
const NAMED_KINDS = ['party', 'document', 'stock'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  // The typed words, all of them whole (search_query makes the last one a prefix, for typing): looked
  // at first, because a GIN scan of whole words skips ahead where a prefix collects everything.
  // Lexemes are letters and digits only, so ':*' is never part of one.
  await sql`
    create or replace function search_query_whole(q text) returns tsquery
    language sql immutable parallel safe
    return regexp_replace(search_query(q)::text, ':[*]', '', 'g')::tsquery`.execute(db);
  for (const kind of KINDS) {
    await sql`create index if not exists ${sql.id(`search_entries_words_${kind}`)}
      on search_entries using gin (words) where kind = ${sql.lit(kind)}`.execute(db);
  }
  await sql`drop index if exists search_entries_words`.execute(db);
  // Names the same way: a trigram index per kind that has names, so a typo in a party's name is looked
  // for among 10 000 parties, not among every name of every kind (a million file names).
  for (const kind of NAMED_KINDS) {
    await sql`create index if not exists ${sql.id(`search_entries_name_${kind}`)}
      on search_entries using gin (name gin_trgm_ops) where kind = ${sql.lit(kind)} and name is not null`.execute(
      db,
    );
  }
  await sql`drop index if exists search_entries_name`.execute(db);
  // A customer's entries of a kind: a small party's words are checked entry by entry through this,
  // rather than collecting a prefix over the whole kind in its GIN.
  await sql`create index if not exists search_entries_party_kind on search_entries (party_id, kind)
    where party_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists search_query_whole(text)`.execute(db);
  await sql`drop index if exists search_entries_party_kind`.execute(db);
  await sql`create index if not exists search_entries_name on search_entries using gin (name gin_trgm_ops)
    where name is not null`.execute(db);
  for (const kind of NAMED_KINDS) {
    await sql`drop index if exists ${sql.id(`search_entries_name_${kind}`)}`.execute(db);
  }
  await sql`create index if not exists search_entries_words on search_entries using gin (words)`.execute(db);
  for (const kind of KINDS) {
    await sql`drop index if exists ${sql.id(`search_entries_words_${kind}`)}`.execute(db);
  }
}
