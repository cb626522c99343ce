import { ALLOCATION_STATES_BY_STATUS } from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * The rules the customs warehouse's data must obey whatever made it (the API, the demo, seed:scale):
 * on hand = the sum of the record's movements = the sum of its root units; a parent unit holds the sum of
 * its children; what a record and a root unit have reserved = their open (reserved or picked, still on hand)
 * allocations; an allocation's state is one its shipment's status allows (ALLOCATION_STATES_BY_STATUS); a shipped shipment's pick movements take exactly its
 * allocations; a released line is fully allocated, of its own article and owner (loose stock, without
units, has only the record's rules). Counts of the rows
 * that break each rule (all 0 when the data is sound), so a test shows which one broke.
 */
export async function warehouseInvariantBreaks(d: Db): Promise<Record<string, number>> {
  // The contract's one table of which allocation states each shipment status allows.
  const allowedStates = sql.join(
    Object.entries(ALLOCATION_STATES_BY_STATUS).map(
      ([status, states]) => sql`when ${status} then ${[...states]}::text[]`,
    ),
    sql` `,
  );
  const r = await sql<Record<string, number>>`
      select
        (select count(*)::int from stock_records r
          where r.quantity_on_hand <> (select coalesce(sum(m.quantity), 0) from stock_movements m where m.stock_record_id = r.id)) as on_hand_not_movements,
        (select count(*)::int from stock_records r
          where exists (select 1 from handling_units u where u.stock_record_id = r.id)
            and r.quantity_on_hand <> (select sum(u.quantity) from handling_units u where u.stock_record_id = r.id and u.parent_id is null)) as on_hand_not_roots,
        (select count(*)::int from handling_units p
          where exists (select 1 from handling_units c where c.parent_id = p.id)
            and p.quantity <> (select sum(c.quantity) from handling_units c where c.parent_id = p.id)) as parent_not_children,
        (select count(*)::int from stock_records r
          where r.quantity_reserved <> (select coalesce(sum(a.quantity), 0) from shipment_allocations a
                                        where a.stock_record_id = r.id and a.state in ('reserved', 'picked'))) as reserved_not_allocations,
        (select count(*)::int from handling_units u
          where u.parent_id is null and u.quantity_reserved <> (select coalesce(sum(a.quantity), 0) from shipment_allocations a
                                                               where a.handling_unit_id = u.id and a.state in ('reserved', 'picked'))) as unit_reserved_not_allocations,
        (select count(*)::int from shipment_allocations a join shipments s on s.id = a.shipment_id
          where not a.state = any (case s.status ${allowedStates} else array[]::text[] end)) as allocation_state_not_status,
        (select count(*)::int from shipments s
          where s.status = 'shipped' and (select coalesce(sum(m.quantity), 0) from stock_movements m where m.shipment_id = s.id)
                <> -(select sum(a.quantity) from shipment_allocations a where a.shipment_id = s.id)) as shipped_without_picks,
        (select count(*)::int from shipment_lines l
          where l.quantity <> coalesce((select sum(a.quantity) from shipment_allocations a where a.line_id = l.id),
                                       case when (select status from shipments where id = l.shipment_id) = 'draft' then l.quantity end)) as line_not_allocated,
        (select count(*)::int from shipment_lines l join shipment_allocations a on a.line_id = l.id
           join stock_records r on r.id = a.stock_record_id join shipments s on s.id = l.shipment_id
          where r.sku <> l.sku or r.owner_id <> s.owner_id) as allocation_of_another_article`.execute(d);
  return r.rows[0] as Record<string, number>;
}
