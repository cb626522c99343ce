import { type Kysely, sql } from 'kysely';

/**
 * The last dead ends of issue 23 (ADR 0046, 0048):
 * - Goods in temporary storage leave a shipment under 4000 (release for free circulation) or 3100
 *   (re-export), next to 4071/3171 for goods under customs warehousing: the shipments' check widens.
 * - One shipment leaves under one declaration, and no procedure discharges customs warehousing and
 *   temporary storage at once: behind the API's rule (`shipmentLinesMixProblem`), a trigger refuses
 *   allocations that would give a shipment stock of both.
 * - A dossier's customer reference is the customer's own: when the dossier moves to another customer
 *   without a new reference, the old one is cleared (the API does it and audits it; the trigger is the
 *   last line for any other writer).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table shipments drop constraint shipments_outbound_procedure_check`.execute(db);
  await sql`
    alter table shipments add constraint shipments_outbound_procedure_check
      check (outbound_procedure in ('4071', '3171', '4000', '3100'))`.execute(db);

  await sql`
    create function shipment_allocations_one_declaration() returns trigger language plpgsql as $$
    begin
      if (select count(distinct s.customs_status) from shipment_allocations a
          join stock_records s on s.id = a.stock_record_id
          where a.shipment_id = new.shipment_id and a.state <> 'freed'
            and s.customs_status in ('temporary_storage', 'non_union_customs_warehousing')) > 1 then
        raise exception 'shipment % would hold goods in temporary storage and under customs warehousing', new.shipment_id
          using errcode = '23514', constraint = 'shipment_allocations_one_declaration';
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger shipment_allocations_one_declaration after insert or update of state on shipment_allocations
    for each row execute function shipment_allocations_one_declaration()`.execute(db);

  await sql`
    create function dossiers_customer_reference_moves() returns trigger language plpgsql as $$
    begin
      if new.customer_id is distinct from old.customer_id
         and new.customer_reference is not distinct from old.customer_reference then
        new.customer_reference := null;
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger dossiers_customer_reference_moves before update of customer_id on dossiers
    for each row execute function dossiers_customer_reference_moves()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger dossiers_customer_reference_moves on dossiers`.execute(db);
  await sql`drop function dossiers_customer_reference_moves()`.execute(db);
  await sql`drop trigger shipment_allocations_one_declaration on shipment_allocations`.execute(db);
  await sql`drop function shipment_allocations_one_declaration()`.execute(db);
  await sql`alter table shipments drop constraint shipments_outbound_procedure_check`.execute(db);
  await sql`
    alter table shipments add constraint shipments_outbound_procedure_check
      check (outbound_procedure in ('4071', '3171'))`.execute(db);
}
