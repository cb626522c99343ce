import { type Kysely, sql } from 'kysely';

/**
 * What was issued or said to a party stays with that party (issue 23 item 8, ADR 0044), and a
 * transport leg's remark for the customer apart from its internal notes (item 9, ADR 0045).
 *
 * - `chat_messages.party_id`: the customer party a message was said to or by, the dossier's customer
 *   when it was written (backfilled from the author, then the dossier's audit log of customer changes,
 *   see chatPartyBackfill). A customer reads only
 *   their own party's messages. A trigger fills it on every insert (API, seed, anything) from the
 *   dossier, holding the dossier row so a concurrent change of customer is either before or after,
 *   and refuses a message whose customer author is not of that party.
 * - `document_party(record_type, dossier_customer, party_id)`: the one rule for which customer party a
 *   document is shown to: a dossier's or transport's to the dossier's customer now, any other record's
 *   to the party stored on the document. Documents addressed to a party store it by trigger: an
 *   invoice's or credit note's the invoice's customer (frozen at issue, so its PDF never follows the
 *   dossier), a declaration's the declaration's customer (followed while it is a draft), a shipment's
 *   or stock record's its owner (a shipment's followed when staff change a draft's owner). The documents
 *   list and the search index both ask it.
 * - `transports.customer_remark`: the leg's remark for the customer; `notes` stay internal.
 */
/**
 * The party each existing chat message was said to: a customer author's own party; else the dossier's
 * customer at the time, from the dossier's audit log: the `to` of the last change of customerId at or
 * before the message, else (the message predates every change) the first change's `from`, else the
 * dossier's customer now.
 */
export async function chatPartyBackfill(db: Kysely<unknown>): Promise<void> {
  await sql`
    update chat_messages m set party_id = coalesce(
      (select u.party_id from users u where u.id = m.author_id and u.role = 'customer'),
      (select (c->>'to')::uuid from audit_log a, jsonb_array_elements(a.changes) c
        where a.record_kind = 'dossier' and a.record_id = m.dossier_id and c->>'field' = 'customerId'
          and a.at <= m.sent_at and c->>'to' is not null
        order by a.at desc, a.id desc limit 1),
      (select (c->>'from')::uuid from audit_log a, jsonb_array_elements(a.changes) c
        where a.record_kind = 'dossier' and a.record_id = m.dossier_id and c->>'field' = 'customerId'
          and c->>'from' is not null
        order by a.at, a.id limit 1),
      (select d.customer_id from dossiers d where d.id = m.dossier_id))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table chat_messages add column party_id uuid references parties (id)`.execute(db);
  await chatPartyBackfill(db);
  await sql`alter table chat_messages alter column party_id set not null`.execute(db);
  await sql`create index chat_messages_dossier_party on chat_messages (dossier_id, party_id, sent_at, id)`.execute(
    db,
  );
  await sql`
    create or replace function chat_message_party() returns trigger language plpgsql as $$
    declare
      current_customer uuid;
      author_party uuid;
      author_role text;
    begin
      -- Shares the dossier row with other messages, excludes a change of its customer meanwhile.
      select customer_id into current_customer from dossiers where id = new.dossier_id for share;
      if new.party_id is null then
        new.party_id := current_customer;
      elsif new.party_id is distinct from current_customer then
        raise exception 'chat message for party % on a dossier of party %', new.party_id, current_customer
          using errcode = 'check_violation', constraint = 'chat_messages_party_is_dossier_customer';
      end if;
      select role, party_id into author_role, author_party from users where id = new.author_id;
      if author_role = 'customer' and author_party is distinct from new.party_id then
        raise exception 'a customer of another party cannot write in this chat'
          using errcode = 'check_violation', constraint = 'chat_messages_author_of_party';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger chat_messages_party before insert or update of party_id, dossier_id, author_id on chat_messages
      for each row execute function chat_message_party()`.execute(db);

  // Documents addressed to a party carry it: an invoice's (its customer, frozen at issue) and a
  // declaration's (its customer, followed while it is a draft), on every insert and every change.
  await sql`
    create or replace function document_addressee() returns trigger language plpgsql as $$
    begin
      if new.record_type = 'invoice' then
        new.party_id := (select i.customer_id from sales_invoices i where i.id = new.record_id);
      elsif new.record_type = 'declaration' then
        new.party_id := (select x.customer_id from declarations x where x.id = new.record_id);
      elsif new.record_type = 'shipment' then
        new.party_id := (select sh.owner_id from shipments sh where sh.id = new.record_id);
      elsif new.record_type = 'stock' then
        new.party_id := (select sr.owner_id from stock_records sr where sr.id = new.record_id);
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger documents_addressee before insert or update of record_type, record_id, party_id on documents
      for each row execute function document_addressee()`.execute(db);
  await sql`
    create or replace function declaration_documents_follow() returns trigger language plpgsql as $$
    begin
      update documents set party_id = new.customer_id
      where record_type = 'declaration' and record_id = new.id and party_id is distinct from new.customer_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger declarations_documents_party after update of customer_id on declarations
      for each row when (old.customer_id is distinct from new.customer_id)
      execute function declaration_documents_follow()`.execute(db);
  // A shipment's documents are its owner's: staff may change a draft shipment's owner, and its
  // documents go with it. (A stock record's owner never changes once received.)
  await sql`
    create or replace function shipment_documents_follow() returns trigger language plpgsql as $$
    begin
      update documents set party_id = new.owner_id
      where record_type = 'shipment' and record_id = new.id and party_id is distinct from new.owner_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger shipments_documents_party after update of owner_id on shipments
      for each row when (old.owner_id is distinct from new.owner_id)
      execute function shipment_documents_follow()`.execute(db);
  await sql`
    update documents doc set party_id = sh.owner_id from shipments sh
    where doc.record_type = 'shipment' and sh.id = doc.record_id and doc.party_id is distinct from sh.owner_id`.execute(
    db,
  );
  await sql`
    update documents doc set party_id = i.customer_id from sales_invoices i
    where doc.record_type = 'invoice' and i.id = doc.record_id and doc.party_id is distinct from i.customer_id`.execute(
    db,
  );
  await sql`
    update documents doc set party_id = x.customer_id from declarations x
    where doc.record_type = 'declaration' and x.id = doc.record_id and doc.party_id is distinct from x.customer_id`.execute(
    db,
  );
  // The one rule for whose a document is (a plain expression, inlined where it is used, so a
  // customer's documents list costs what it did): a dossier's or leg's follow the dossier's customer,
  // every other record's are the party stored on the document.
  await sql`
    create or replace function document_party(record_type text, dossier_customer uuid, party_id uuid)
    returns uuid language sql immutable parallel safe
    return case when record_type in ('dossier', 'transport') then dossier_customer else party_id end`.execute(
    db,
  );
  // The search entry of a document: its party by document_party (0025's source otherwise); a
  // declaration's only once lodged and for its customer, as the documents list has it.
  await sql`
    create or replace function search_source_document(ids uuid[]) returns setof search_source_row
    language plpgsql stable set plan_cache_mode = force_generic_plan as $$ begin return query
    select doc.id, document_party(doc.record_type, d.customer_id, doc.party_id),
      doc.visible_to_customer and (doc.record_type <> 'declaration' or exists (select 1 from declarations x
        where x.id = doc.record_id and x.customer_id = doc.party_id and x.status <> 'draft')),
      doc.record_type in ('stock', 'shipment'),
      doc.file_name,
      concat_ws(' · ', search_label(doc.document_type), d.number),
      jsonb_strip_nulls(jsonb_build_object('route', 'documents', 'params', '{}'::jsonb, 'search',
        jsonb_build_object('open', doc.id::text))),
      concat_ws(' ', doc.file_name, d.number), doc.file_name, doc.uploaded_at,
      '{}'::text[]
    from documents doc left join dossiers d on d.id = doc.dossier_id where doc.id = any(ids); end $$`.execute(
    db,
  );
  // Re-index the documents whose party the rule now names differently (invoice and declaration ones).
  await sql`select search_refresh('document', array(select id from documents where record_type in ('invoice', 'declaration')))`.execute(
    db,
  );

  await sql`alter table transports add column customer_remark text check (length(customer_remark) <= 2000)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transports drop column if exists customer_remark`.execute(db);
  // document_party stays: 0025's down drops the search source that calls it.
  await sql`drop trigger if exists shipments_documents_party on shipments`.execute(db);
  await sql`drop function if exists shipment_documents_follow()`.execute(db);
  await sql`drop trigger if exists declarations_documents_party on declarations`.execute(db);
  await sql`drop function if exists declaration_documents_follow()`.execute(db);
  await sql`drop trigger if exists documents_addressee on documents`.execute(db);
  await sql`drop function if exists document_addressee()`.execute(db);
  await sql`drop trigger if exists chat_messages_party on chat_messages`.execute(db);
  await sql`drop function if exists chat_message_party()`.execute(db);
  await sql`alter table chat_messages drop column if exists party_id`.execute(db);
}
