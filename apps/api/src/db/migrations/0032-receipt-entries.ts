import { type Kysely, sql } from 'kysely';

/**
 * A customs-warehouse receipt names a real entry (issue 23 item 10, ADR 0046): non-Union goods under
 * customs warehousing come in under their owner's released H2 declaration of this system, or under an
 * MRN marked as external. The API's rule is receiptEntryProblems (contracts); these are its last line
 * for every writer (the API, the seeds, an operator's SQL): a check that the entry is named, and a
 * trigger that judges a linked declaration and refuses an "external" MRN that is one of ours.
 *
 * Existing receipts: an unlinked MRN that a released H2 declaration of the receipt's owner holds is
 * linked to it (never another party's declaration, nor one that is not a customs-warehousing entry);
 * the other unlinked MRNs are marked external. Rows written before are not re-judged (the
 * trigger fires on insert and on a change of the entry's columns).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table stock_receipts add column inbound_mrn_external boolean not null default false`.execute(
    db,
  );
  await sql`
    update stock_receipts r set entry_declaration_id = d.id
    from declarations d
    where r.entry_declaration_id is null and r.inbound_mrn is not null and d.mrn = r.inbound_mrn
      and r.customs_status = 'non_union_customs_warehousing'
      and d.customer_id = r.owner_id and d.type = 'import' and d.category = 'H2' and d.status = 'released'`.execute(
    db,
  );
  await sql`
    update stock_receipts set inbound_mrn_external = true
    where entry_declaration_id is null and inbound_mrn is not null
      and customs_status = 'non_union_customs_warehousing'`.execute(db);
  await sql`
    alter table stock_receipts
      add constraint stock_receipts_entry_named check (
        customs_status <> 'non_union_customs_warehousing'
        or entry_declaration_id is not null
        or (inbound_mrn is not null and inbound_mrn_external)),
      add constraint stock_receipts_entry_external_unlinked check (
        not (inbound_mrn_external and entry_declaration_id is not null))`.execute(db);
  // Only goods under customs warehousing link an (H2) entry; rows written before are not re-judged.
  await sql`
    alter table stock_receipts add constraint stock_receipts_entry_warehousing_only check (
      entry_declaration_id is null or customs_status = 'non_union_customs_warehousing') not valid`.execute(
    db,
  );
  await sql`
    create function stock_receipt_entry_check() returns trigger language plpgsql as $$
    declare
      d record;
    begin
      if new.customs_status <> 'non_union_customs_warehousing' then
        return new;
      end if;
      if new.entry_declaration_id is not null then
        select type, category, status, customer_id, mrn, lrn into d from declarations
        where id = new.entry_declaration_id;
        if d.type <> 'import' or d.category <> 'H2' or d.status <> 'released'
           or d.customer_id <> new.owner_id or d.mrn is distinct from new.inbound_mrn then
          raise exception 'receipt % names % (% %, %), not a released H2 entry of its owner with MRN %',
            new.number, d.lrn, d.type, d.category, d.status, new.inbound_mrn
            using errcode = '23514', constraint = 'stock_receipts_entry_released_h2';
        end if;
      elsif exists (select 1 from declarations where mrn = new.inbound_mrn) then
        raise exception 'receipt % marks MRN % as external, but it is a declaration of this system',
          new.number, new.inbound_mrn
          using errcode = '23514', constraint = 'stock_receipts_entry_external_not_ours';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger stock_receipts_entry_check
      before insert or update of customs_status, owner_id, inbound_mrn, inbound_mrn_external, entry_declaration_id
      on stock_receipts for each row execute function stock_receipt_entry_check()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists stock_receipts_entry_check on stock_receipts`.execute(db);
  await sql`drop function if exists stock_receipt_entry_check()`.execute(db);
  await sql`
    alter table stock_receipts
      drop constraint if exists stock_receipts_entry_named,
      drop constraint if exists stock_receipts_entry_external_unlinked,
      drop constraint if exists stock_receipts_entry_warehousing_only,
      drop column if exists inbound_mrn_external`.execute(db);
}
