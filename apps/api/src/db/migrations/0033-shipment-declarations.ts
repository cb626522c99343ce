import { type Kysely, sql } from 'kysely';

/**
 * A shipment has many outbound declarations (issue 23 item 12, ADR 0048): the link moves from the
 * shipment (`shipments.declaration_id`, one at a time) to the declaration (`declarations.shipment_id`),
 * so a copy made after a rejection, or a new declaration, is the shipment's too, and the one the
 * authority released is the one that lets the goods leave. Today's single links are carried over.
 * A trigger is the last line behind the API's rule: a declaration of a shipment is for the shipment's
 * owner, and a shipment with declarations keeps its owner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table declarations add column shipment_id uuid references shipments (id)`.execute(db);
  await sql`update declarations x set shipment_id = sh.id from shipments sh where sh.declaration_id = x.id`.execute(
    db,
  );
  await sql`create index declarations_shipment on declarations (shipment_id, created_at, id) where shipment_id is not null`.execute(
    db,
  );
  await sql`drop index shipments_declaration`.execute(db);
  await sql`alter table shipments drop column declaration_id`.execute(db);

  await sql`
    create function declarations_shipment_owner() returns trigger language plpgsql as $$
    begin
      if new.shipment_id is not null and not exists (
        select 1 from shipments sh where sh.id = new.shipment_id and sh.owner_id = new.customer_id
      ) then
        raise exception 'declaration % is not for the owner of its shipment', new.lrn
          using errcode = '23514', constraint = 'declarations_shipment_owner';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger declarations_shipment_owner before insert or update of shipment_id, customer_id on declarations
    for each row execute function declarations_shipment_owner()`.execute(db);
  await sql`
    create function shipments_declarations_owner() returns trigger language plpgsql as $$
    begin
      if new.owner_id <> old.owner_id and exists (select 1 from declarations x where x.shipment_id = new.id) then
        raise exception 'shipment % has declarations: its owner cannot change', new.number
          using errcode = '23514', constraint = 'declarations_shipment_owner';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger shipments_declarations_owner before update of owner_id on shipments
    for each row execute function shipments_declarations_owner()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger shipments_declarations_owner on shipments`.execute(db);
  await sql`drop function shipments_declarations_owner()`.execute(db);
  await sql`drop trigger declarations_shipment_owner on declarations`.execute(db);
  await sql`drop function declarations_shipment_owner()`.execute(db);
  await sql`alter table shipments add column declaration_id uuid references declarations (id)`.execute(db);
  // The latest declaration of each shipment becomes its single link again.
  await sql`
    update shipments sh set declaration_id = (
      select x.id from declarations x where x.shipment_id = sh.id order by x.created_at desc, x.id desc limit 1
    )`.execute(db);
  await sql`create index shipments_declaration on shipments (declaration_id) where declaration_id is not null`.execute(
    db,
  );
  await sql`drop index declarations_shipment`.execute(db);
  await sql`alter table declarations drop column shipment_id`.execute(db);
}
