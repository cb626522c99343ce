import { type Kysely, sql } from 'kysely';

/**
 * Issue 26 item 2: the customs value built from the invoice. The consignment's additions (transport and
 * insurance to the Union border, commissions, packing) and deductions (transport after entry, duties),
 * in EUR (DE 4/9), and whether they are apportioned to the items by value or by net mass.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table declarations
      add column addition_transport_insurance numeric(14,2) check (addition_transport_insurance >= 0),
      add column addition_commissions numeric(14,2) check (addition_commissions >= 0),
      add column addition_packing numeric(14,2) check (addition_packing >= 0),
      add column deduction_transport_after_entry numeric(14,2) check (deduction_transport_after_entry >= 0),
      add column deduction_duties numeric(14,2) check (deduction_duties >= 0),
      add column apportionment text check (apportionment in ('value', 'mass'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table declarations drop column if exists addition_transport_insurance,
      drop column if exists addition_commissions, drop column if exists addition_packing,
      drop column if exists deduction_transport_after_entry, drop column if exists deduction_duties,
      drop column if exists apportionment`.execute(db);
}
