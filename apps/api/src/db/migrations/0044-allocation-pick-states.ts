import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 item 6: an allocation says where its goods are as the shipment moves. `picked` now means
 * taken from the location to the packing area (confirmed while picking, or all at "Mark packed"): the
 * goods are still on hand and still reserved. `shipped` is what `picked` meant before, goods gone with
 * their pick movements. Allocations of shipped shipments are renamed accordingly.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table shipment_allocations drop constraint shipment_allocations_state_check`.execute(db);
  await sql`update shipment_allocations set state = 'shipped' where state = 'picked'`.execute(db);
  await sql`
    alter table shipment_allocations add constraint shipment_allocations_state_check
      check (state in ('reserved', 'picked', 'shipped', 'freed'))`.execute(db);
  // What holds a reservation: reserved and picked allocations (the goods are still on hand).
  await sql`drop index shipment_allocations_reserved`.execute(db);
  await sql`
    create index shipment_allocations_holding on shipment_allocations (stock_record_id)
      where state in ('reserved', 'picked')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index shipment_allocations_holding`.execute(db);
  await sql`create index shipment_allocations_reserved on shipment_allocations (stock_record_id) where state = 'reserved'`.execute(
    db,
  );
  await sql`alter table shipment_allocations drop constraint shipment_allocations_state_check`.execute(db);
  await sql`update shipment_allocations set state = 'reserved' where state = 'picked'`.execute(db);
  await sql`update shipment_allocations set state = 'picked' where state = 'shipped'`.execute(db);
  await sql`
    alter table shipment_allocations add constraint shipment_allocations_state_check
      check (state in ('reserved', 'picked', 'freed'))`.execute(db);
}
