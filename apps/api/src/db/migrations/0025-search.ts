import { type Kysely, sql } from 'kysely';
import { rebuildSearchIndex } from '../search-index.ts';

/**
 * The global search index (issue 14, ADR 0036): one row per searchable record in `search_entries`
 * (scope, title, subtitle, link, words, name) and one row per identifier in `search_idents`
 * (normalized, for exact and prefix matches). Kept in step by statement triggers with transition
 * tables, in the writing transaction (lag 0). Every kind has ONE source, `search_source_<kind>(ids)`,
 * which the triggers and the rebuild both use, so what is indexed never depends on the path.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`create extension if not exists pg_trgm`.execute(db);

  // unaccent() is only STABLE (it reads a dictionary by name); with the dictionary named explicitly
  // the result cannot change, so the wrappers are IMMUTABLE and may feed indexes.
  await sql`
    create or replace function search_fold(t text) returns text
    language sql immutable parallel safe strict
    return lower(public.unaccent('public.unaccent'::regdictionary, t))`.execute(db);
  await sql`
    create or replace function search_ident(t text) returns text
    language sql immutable parallel safe strict
    return regexp_replace(upper(public.unaccent('public.unaccent'::regdictionary, t)), '[^A-Z0-9]+', '', 'g')`.execute(
    db,
  );
  // The words of a text as a tsvector: folded, split on anything that is not a letter or digit, with
  // their positions ('D-2026-000123' is d:1 2026:2 000123:3, so the query can ask for them in a row).
  // Odd data never fails the write: the text is cut at 4000 characters, a "word" over 100 is no word.
  await sql`
    create or replace function search_words(t text) returns tsvector
    language sql immutable parallel safe
    return coalesce((
      select string_agg(quote_literal(w) || ':' || least(n, 16383), ' ')::tsvector
      from unnest(regexp_split_to_array(search_fold(left(coalesce(t, ''), 4000)), '[^[:alnum:]]+')) with ordinality as u(w, n)
      where w <> '' and length(w) <= 100), ''::tsvector)`.execute(db);
  // What a typed query asks of the words: groups split by spaces must all match (&); inside a group the
  // words follow each other ('rnk-7731' = rnk <-> 7731); the last word may be a prefix (typing).
  // Null when nothing is left to look for ('--').
  await sql`
    create or replace function search_query(q text) returns tsquery
    language sql immutable parallel safe
    begin atomic
      with g as (
        select gn, array(select w from unnest(regexp_split_to_array(grp, '[^[:alnum:]]+')) as w
          where w <> '' and length(w) <= 100) as toks
        from regexp_split_to_table(search_fold(coalesce(q, '')), '[[:space:]]+') with ordinality as x(grp, gn)
      ), ne as (
        select row_number() over (order by gn) as gn, toks from g where cardinality(toks) > 0
      )
      select string_agg(
        (select string_agg(quote_literal(t)
            || case when ne.gn = (select max(gn) from ne) and tn = cardinality(ne.toks) then ':*' else '' end,
            ' <-> ' order by tn)
          from unnest(ne.toks) with ordinality as u(t, tn)),
        ' & ' order by ne.gn)::tsquery
      from ne;
    end`.execute(db);
  // A status or code in words: 'under_control' → 'Under control'.
  await sql`
    create or replace function search_label(t text) returns text
    language sql immutable parallel safe strict
    return upper(left(t, 1)) || replace(substr(t, 2), '_', ' ')`.execute(db);

  await sql`
    create table search_entries (
      kind text not null,
      record_id uuid not null,
      party_id uuid,
      customer_visible boolean not null,
      needs_cw boolean not null,
      title text not null,
      subtitle text not null,
      link jsonb not null,
      words tsvector not null,
      name text,
      sort_at timestamptz not null,
      primary key (kind, record_id)
    )`.execute(db);
  // Kind and party are lexemes of words too ('~kdossier', '~p<uuid>'; a typed word is only letters and digits), so one
  // GIN answers "these words, this kind, this party" by intersecting posting lists.
  await sql`create index search_entries_words on search_entries using gin (words)`.execute(db);
  await sql`create index search_entries_name on search_entries using gin (name gin_trgm_ops) where name is not null`.execute(
    db,
  );

  await sql`
    create table search_idents (
      ident text collate "C" not null,
      kind text not null,
      record_id uuid not null,
      party_id uuid,
      customer_visible boolean not null,
      needs_cw boolean not null,
      label text not null
    )`.execute(db);
  await sql`create index search_idents_kind_ident on search_idents (kind, ident)`.execute(db);
  await sql`create index search_idents_party_ident on search_idents (party_id, kind, ident) where party_id is not null`.execute(
    db,
  );
  await sql`create index search_idents_record on search_idents (kind, record_id)`.execute(db);

  // Summaries are keyed (equipment_reference, id): the source finds them by id.
  await sql`create index if not exists container_summaries_id on container_summaries (id)`.execute(db);

  await sql`
    create type search_source_row as (
      record_id uuid, party_id uuid, customer_visible boolean, needs_cw boolean, title text, subtitle text,
      link jsonb, words text, name text, sort_at timestamptz, idents text[])`.execute(db);

  for (const source of SOURCES) await sql.raw(source).execute(db);

  await sql`
    create or replace function search_source(k text, ids uuid[]) returns setof search_source_row
    language plpgsql stable as $$
    begin
      case k
        when 'dossier' then return query select * from search_source_dossier(ids);
        when 'container' then return query select * from search_source_container(ids);
        when 'transport' then return query select * from search_source_transport(ids);
        when 'document' then return query select * from search_source_document(ids);
        when 'party' then return query select * from search_source_party(ids);
        when 'offer' then return query select * from search_source_offer(ids);
        when 'invoice' then return query select * from search_source_invoice(ids);
        when 'declaration' then return query select * from search_source_declaration(ids);
        when 'stock' then return query select * from search_source_stock(ids);
        when 'shipment' then return query select * from search_source_shipment(ids);
      end case;
    end $$`.execute(db);

  // Replaces the index rows of these records by what their source says now (none: gone).
  await sql`
    create or replace function search_refresh(k text, ids uuid[], fresh boolean default false) returns void
    language plpgsql volatile set plan_cache_mode = force_generic_plan as $$
    begin
      if ids is null or cardinality(ids) = 0 then return; end if;
      -- fresh: a rebuild into an emptied index, nothing to replace.
      if not fresh then
        -- Another transaction may be re-indexing the same records (a document's own update and its
        -- dossier's new customer): wait for it here, so that the deletes below, each with a snapshot
        -- taken after it committed, also remove the rows it inserted. Without this wait the second
        -- writer deleted only the rows it saw and failed on the first's new entry (unique violation).
        perform 1 from search_entries where kind = k and record_id = any(ids) order by record_id for update;
        delete from search_idents where kind = k and record_id = any(ids);
        delete from search_entries where kind = k and record_id = any(ids);
      end if;
      with src as materialized (select * from search_source(k, ids)),
      e as (
        insert into search_entries (kind, record_id, party_id, customer_visible, needs_cw, title, subtitle, link,
          words, name, sort_at)
        select k, s.record_id, s.party_id, s.customer_visible, s.needs_cw, s.title, s.subtitle, s.link,
          search_words(s.words) || array_to_tsvector(array_remove(array['~k' || k, '~p' || s.party_id::text], null)),
          search_fold(left(s.name, 500)), s.sort_at
        from src s
        -- A record nobody had indexed yet, indexed by two transactions at once: the later one wins.
        on conflict (kind, record_id) do update set party_id = excluded.party_id,
          customer_visible = excluded.customer_visible, needs_cw = excluded.needs_cw, title = excluded.title,
          subtitle = excluded.subtitle, link = excluded.link, words = excluded.words, name = excluded.name,
          sort_at = excluded.sort_at
      )
      insert into search_idents (ident, kind, record_id, party_id, customer_visible, needs_cw, label)
      select distinct on (s.record_id, x.ident) x.ident, k, s.record_id, s.party_id, s.customer_visible, s.needs_cw,
        left(i.label, 200)
      from src s cross join lateral unnest(s.idents) as i(label) cross join lateral (select search_ident(i.label) as ident) x
      where length(x.ident) between 2 and 100;
    end $$`.execute(db);

  for (const t of TRIGGERS) for (const stmt of triggerSql(t)) await sql.raw(stmt).execute(db);

  await rebuildSearchIndex(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of TRIGGERS) {
    for (const op of ['ins', 'upd', 'del']) {
      await sql.raw(`drop trigger if exists ${t.table}_search_${op} on ${t.table}`).execute(db);
    }
    await sql.raw(`drop function if exists search_sync_${t.table}()`).execute(db);
  }
  await sql`drop function if exists search_refresh(text, uuid[], boolean)`.execute(db);
  await sql`drop function if exists search_source(text, uuid[])`.execute(db);
  for (const k of KINDS) await sql.raw(`drop function if exists search_source_${k}(uuid[])`).execute(db);
  await sql`drop type if exists search_source_row`.execute(db);
  await sql`drop table if exists search_idents`.execute(db);
  await sql`drop table if exists search_entries`.execute(db);
  await sql`drop index if exists container_summaries_id`.execute(db);
  await sql`drop function if exists search_label(text)`.execute(db);
  await sql`drop function if exists search_query(text)`.execute(db);
  await sql`drop function if exists search_words(text)`.execute(db);
  await sql`drop function if exists search_ident(text)`.execute(db);
  await sql`drop function if exists search_fold(text)`.execute(db);
}

/** The kinds this migration indexes; 0028 builds their per-kind indexes from the same list. */
export const KINDS = [
  'dossier',
  'container',
  'transport',
  'document',
  'party',
  'offer',
  'invoice',
  'declaration',
  'stock',
  'shipment',
];

// PL/pgSQL, not SQL, and generic plans: planned once per session, where a SQL function's body is
// planned on every call, and a custom plan (for 1 id, cheaper than the generic one's guess of 10) is
// what the plan cache would otherwise keep choosing, planning again on every trigger call.
const fn = (kind: string, body: string) => `
  create or replace function search_source_${kind}(ids uuid[]) returns setof search_source_row
  language plpgsql stable set plan_cache_mode = force_generic_plan as $$ begin return query ${body}; end $$`;

/** DCSA event codes in words (the containers list's vocabulary). */
const EVENT_WORDS = `case s.latest_type_code
  when 'LOAD' then 'Loaded' when 'DISC' then 'Discharged' when 'GTIN' then 'Gate in' when 'GTOT' then 'Gate out'
  when 'STUF' then 'Stuffed' when 'STRP' then 'Stripped' when 'PICK' then 'Picked up' when 'DROP' then 'Dropped off'
  when 'INSP' then 'Inspected' when 'RSEA' then 'Resealed' when 'RMVD' then 'Seal removed'
  when 'ARRI' then 'Arrived' when 'DEPA' then 'Departed'
  when 'RECE' then 'Booking received' when 'DRFT' then 'Drafted' when 'PENA' then 'Pending approval'
  when 'PENU' then 'Pending update' when 'REJE' then 'Rejected' when 'APPR' then 'Approved'
  when 'ISSU' then 'Issued' when 'SURR' then 'Surrendered' when 'SUBM' then 'Submitted' when 'VOID' then 'Void'
  when 'CONF' then 'Confirmed' when 'REQS' then 'Requested' when 'CMPL' then 'Completed' when 'HOLD' then 'On hold'
  when 'RELS' then 'Released' when 'CANC' then 'Cancelled'
  else s.latest_type_code end`;

const route = (name: string, params: string, search = 'null') =>
  `jsonb_strip_nulls(jsonb_build_object('route', '${name}', 'params', ${params}, 'search', ${search}))`;

/**
 * The sources. Scope mirrors each area's list: party_id is the party a customer must be, null = staff
 * only; customer_visible carries the area's extra rule (no drafts, visible documents). Subtitles hold
 * only what a customer of that record may read (no costs, margins, profit, notes).
 */
const SOURCES = [
  fn(
    'dossier',
    `select d.id, d.customer_id, true, false, d.number,
      concat_ws(' · ', search_label(d.type) || ' ' || d.mode,
        nullif(concat_ws(' → ', d.origin_locode, d.destination_locode), ''), search_label(d.status)),
      ${route('dossier', "jsonb_build_object('dossierId', d.id::text)")},
      concat_ws(' ', d.number, d.customer_reference, d.booking_number, d.master_bl, d.house_bl, d.cmr_number,
        d.origin_locode, d.destination_locode, d.incoterm_place, d.cargo_description),
      null, d.created_at,
      array[d.number, d.customer_reference, d.booking_number, d.master_bl, d.house_bl, d.cmr_number]
        || d.container_numbers
    from dossiers d where d.id = any(ids)`,
  ),
  fn(
    'container',
    `select s.id, d.customer_id, true, false, s.equipment_reference::text,
      concat_ws(' · ', d.number, ${EVENT_WORDS}),
      ${route('container-events', "'{}'::jsonb", "jsonb_build_object('open', s.equipment_reference::text)")},
      concat_ws(' ', s.equipment_reference, d.number), null, s.latest_event_date_time,
      array[s.equipment_reference::text]
    from container_summaries s left join dossiers d on d.id = s.dossier_id where s.id = any(ids)`,
  ),
  fn(
    'transport',
    `select t.id, d.customer_id, true, false, d.number || ' · leg ' || t.sequence,
      concat_ws(' · ', search_label(t.mode),
        nullif(concat_ws(' → ', t.pickup_locode, t.delivery_locode), ''), search_label(t.status)),
      ${route('transports', "'{}'::jsonb", "jsonb_build_object('open', t.id::text)")},
      concat_ws(' ', d.number, t.truck_plate, t.trailer_plate, t.vessel_name, t.vessel_imo, t.flight_number,
        t.pickup_locode, t.delivery_locode, array_to_string(t.containers, ' ')),
      null, t.created_at,
      -- A leg is found by its dossier's number too: typing a dossier number lists its legs.
      array[d.number, t.truck_plate, t.trailer_plate, t.flight_number, t.vessel_imo] || t.containers
    from transports t join dossiers d on d.id = t.dossier_id where t.id = any(ids)`,
  ),
  // Documents: visible ones on the customer's dossier or record; a declaration's only once the
  // declaration is theirs and no draft (documents.repository scopeWhere); warehouse records' need cw.
  fn(
    'document',
    `select doc.id, coalesce(d.customer_id, doc.party_id),
      doc.visible_to_customer and (doc.record_type <> 'declaration' or exists (select 1 from declarations x
        where x.id = doc.record_id and x.customer_id = coalesce(d.customer_id, doc.party_id) and x.status <> 'draft')),
      doc.record_type in ('stock', 'shipment'),
      doc.file_name,
      concat_ws(' · ', search_label(doc.document_type), d.number),
      ${route('documents', "'{}'::jsonb", "jsonb_build_object('open', doc.id::text)")},
      concat_ws(' ', doc.file_name, d.number), doc.file_name, doc.uploaded_at,
      '{}'::text[]
    from documents doc left join dossiers d on d.id = doc.dossier_id where doc.id = any(ids)`,
  ),
  fn(
    'party',
    `select p.id, p.id, true, false, p.name,
      concat_ws(' · ', p.code, nullif(concat_ws(' ', p.postal_code, p.city), ''), p.country_code),
      ${route('party', "jsonb_build_object('id', p.id::text)")},
      concat_ws(' ', p.name, p.code, p.vat_number, p.eori, p.city), p.name, p.created_at,
      array[p.code, p.vat_number, p.eori]
    from parties p where p.id = any(ids)`,
  ),
  fn(
    'offer',
    `select o.id, o.customer_id, o.status <> 'draft', false, o.number,
      concat_ws(' · ', nullif(concat_ws(' → ', o.origin_locode, o.destination_locode), ''), search_label(o.status)),
      ${route('sales-offers', "'{}'::jsonb", "jsonb_build_object('open', o.id::text)")},
      concat_ws(' ', o.number, o.origin_locode, o.destination_locode, o.incoterm_place, o.cargo_description),
      null, o.created_at,
      array[o.number]
    from sales_offers o where o.id = any(ids)`,
  ),
  fn(
    'invoice',
    `select i.id, i.customer_id, i.number is not null, false,
      coalesce(i.number, case i.kind when 'credit_note' then 'Draft credit note' else 'Draft invoice' end),
      concat_ws(' · ', case i.kind when 'credit_note' then 'Credit note' else 'Invoice' end, d.number,
        search_label(i.status)),
      ${route('sales-invoice', "jsonb_build_object('id', i.id::text)")},
      concat_ws(' ', i.number, d.number, i.buyer_reference, i.order_reference), null, i.created_at,
      array[i.number, i.buyer_reference, i.order_reference]
    from sales_invoices i left join dossiers d on d.id = i.dossier_id where i.id = any(ids)`,
  ),
  fn(
    'declaration',
    `select x.id, x.customer_id, x.status <> 'draft', false, coalesce(x.mrn, x.lrn),
      concat_ws(' · ', search_label(x.type) || ' ' || x.category, d.number, search_label(x.status)),
      ${route('declaration', "jsonb_build_object('id', x.id::text)")},
      concat_ws(' ', x.lrn, x.mrn, d.number), null, x.created_at,
      array[x.lrn, x.mrn]
    from declarations x left join dossiers d on d.id = x.dossier_id where x.id = any(ids)`,
  ),
  fn(
    'stock',
    `select s.id, s.owner_id, true, true, s.sku,
      concat_ws(' · ', s.description, r.number, s.location),
      ${route('stock-item', "jsonb_build_object('id', s.id::text)")},
      concat_ws(' ', s.sku, s.description, r.number, s.inbound_mrn), s.description, s.created_at,
      array[s.sku, r.number] || coalesce((select array_agg(u.sscc) from handling_units u
        where u.stock_record_id = s.id and u.sscc is not null), '{}')
    from stock_records s join stock_receipts r on r.id = s.receipt_id where s.id = any(ids)`,
  ),
  fn(
    'shipment',
    `select sh.id, sh.owner_id, true, true, sh.number,
      concat_ws(' · ', sh.consignee_name, to_char(sh.planned_date, 'FMDD Mon YYYY'), search_label(sh.status)),
      ${route('shipment', "jsonb_build_object('id', sh.id::text)")},
      concat_ws(' ', sh.number, sh.customer_reference, sh.consignee_name), null, sh.created_at,
      array[sh.number, sh.customer_reference]
    from shipments sh where sh.id = any(ids)`,
  ),
];

interface TriggerSpec {
  table: string;
  /** The kinds whose records these rows are (or belong to): the column naming the record. */
  targets: { kind: string; idColumn: string }[];
  /** Columns whose change rewrites the entries (an update touching none of them rewrites nothing). */
  columns: string[];
  /** Records of other kinds that follow these rows when one of `on` changes (a dossier's new customer). */
  dependents?: { kind: string; on: string[]; ids: (changed: string) => string }[];
}

/**
 * Which writes re-index what. A customer, party or status that decides the scope of a dependent record
 * re-indexes that record in the same statement (a dossier's customer → its transports, documents and
 * containers; a declaration's status → its documents).
 */
const TRIGGERS: TriggerSpec[] = [
  {
    table: 'dossiers',
    targets: [{ kind: 'dossier', idColumn: 'id' }],
    columns: [
      'number',
      'status',
      'type',
      'mode',
      'customer_id',
      'origin_locode',
      'destination_locode',
      'incoterm_place',
      'customer_reference',
      'booking_number',
      'master_bl',
      'house_bl',
      'cmr_number',
      'cargo_description',
      'container_numbers',
    ],
    dependents: [
      {
        kind: 'transport',
        on: ['customer_id', 'number'],
        ids: (c) => `select id from transports where dossier_id = any(${c})`,
      },
      {
        kind: 'document',
        on: ['customer_id', 'number'],
        ids: (c) => `select id from documents where dossier_id = any(${c})`,
      },
      {
        kind: 'container',
        on: ['customer_id', 'number'],
        ids: (c) => `select id from container_summaries where dossier_id = any(${c})`,
      },
      {
        kind: 'invoice',
        on: ['number'],
        ids: (c) => `select id from sales_invoices where dossier_id = any(${c})`,
      },
      {
        kind: 'declaration',
        on: ['number'],
        ids: (c) => `select id from declarations where dossier_id = any(${c})`,
      },
    ],
  },
  {
    table: 'container_summaries',
    targets: [{ kind: 'container', idColumn: 'id' }],
    // Not the latest event's time: an ingest rewrites it every time; the entry's recency is as of its
    // last relevant change (ADR 0036).
    columns: ['equipment_reference', 'dossier_id', 'latest_type_code'],
  },
  {
    table: 'transports',
    targets: [{ kind: 'transport', idColumn: 'id' }],
    columns: [
      'dossier_id',
      'sequence',
      'status',
      'mode',
      'truck_plate',
      'trailer_plate',
      'vessel_name',
      'vessel_imo',
      'flight_number',
      'pickup_locode',
      'delivery_locode',
      'containers',
    ],
  },
  {
    table: 'documents',
    targets: [{ kind: 'document', idColumn: 'id' }],
    columns: [
      'record_type',
      'record_id',
      'dossier_id',
      'party_id',
      'file_name',
      'document_type',
      'visible_to_customer',
    ],
  },
  {
    table: 'parties',
    targets: [{ kind: 'party', idColumn: 'id' }],
    columns: ['name', 'code', 'vat_number', 'eori', 'postal_code', 'city', 'country_code'],
  },
  {
    table: 'sales_offers',
    targets: [{ kind: 'offer', idColumn: 'id' }],
    columns: [
      'number',
      'status',
      'customer_id',
      'origin_locode',
      'destination_locode',
      'incoterm_place',
      'cargo_description',
    ],
  },
  {
    table: 'sales_invoices',
    targets: [{ kind: 'invoice', idColumn: 'id' }],
    columns: ['number', 'kind', 'status', 'customer_id', 'dossier_id', 'buyer_reference', 'order_reference'],
  },
  {
    table: 'declarations',
    targets: [{ kind: 'declaration', idColumn: 'id' }],
    columns: ['lrn', 'mrn', 'type', 'category', 'status', 'customer_id', 'dossier_id'],
    dependents: [
      {
        kind: 'document',
        on: ['status', 'customer_id'],
        ids: (c) => `select id from documents where record_type = 'declaration' and record_id = any(${c})`,
      },
    ],
  },
  {
    table: 'stock_records',
    targets: [{ kind: 'stock', idColumn: 'id' }],
    columns: ['sku', 'description', 'owner_id', 'receipt_id', 'location', 'inbound_mrn'],
  },
  {
    table: 'stock_receipts',
    targets: [],
    columns: [],
    dependents: [
      {
        kind: 'stock',
        on: ['number'],
        ids: (c) => `select id from stock_records where receipt_id = any(${c})`,
      },
    ],
  },
  {
    table: 'handling_units',
    targets: [{ kind: 'stock', idColumn: 'stock_record_id' }],
    columns: ['sscc', 'stock_record_id'],
  },
  {
    table: 'shipments',
    targets: [{ kind: 'shipment', idColumn: 'id' }],
    columns: ['number', 'owner_id', 'status', 'consignee_name', 'planned_date', 'customer_reference'],
  },
];

const changedRow = (alias: string, cols: string[]) => `row(${cols.map((c) => `${alias}.${c}`).join(', ')})`;

/** Statement triggers with transition tables: one refresh per kind per statement, however many rows. */
function triggerSql(t: TriggerSpec): string[] {
  const f = `search_sync_${t.table}`;
  const refresh = (rows: string) =>
    t.targets
      .map(
        (g) =>
          `perform search_refresh('${g.kind}', (select array_agg(distinct r.${g.idColumn}) from ${rows} r where r.${g.idColumn} is not null));`,
      )
      .join('\n');
  const updated = t.targets
    .map(
      (g) => `perform search_refresh('${g.kind}', (select array_agg(distinct x) from (
        select n.${g.idColumn} as x from new_rows n join old_rows o on o.id = n.id
          where ${changedRow('n', t.columns)} is distinct from ${changedRow('o', t.columns)}
        union all
        select o.${g.idColumn} from new_rows n join old_rows o on o.id = n.id
          where n.${g.idColumn} is distinct from o.${g.idColumn}) z where x is not null));`,
    )
    .join('\n');
  const dependents = (t.dependents ?? [])
    .map(
      (d) => `changed := (select array_agg(n.id) from new_rows n join old_rows o on o.id = n.id
          where ${changedRow('n', d.on)} is distinct from ${changedRow('o', d.on)});
        if changed is not null then
          perform search_refresh('${d.kind}', array(${d.ids('changed')}));
        end if;`,
    )
    .join('\n');
  const out = [
    `create or replace function ${f}() returns trigger language plpgsql as $$
    declare changed uuid[];
    begin
      if tg_op = 'INSERT' then
        ${refresh('new_rows')}
      elsif tg_op = 'DELETE' then
        ${refresh('old_rows')}
      else
        ${updated}
        ${dependents}
      end if;
      return null;
    end $$`,
    `create trigger ${t.table}_search_upd after update on ${t.table}
      referencing old table as old_rows new table as new_rows for each statement execute function ${f}()`,
  ];
  if (t.targets.length) {
    out.push(
      `create trigger ${t.table}_search_ins after insert on ${t.table}
        referencing new table as new_rows for each statement execute function ${f}()`,
      `create trigger ${t.table}_search_del after delete on ${t.table}
        referencing old table as old_rows for each statement execute function ${f}()`,
    );
  }
  return out;
}
