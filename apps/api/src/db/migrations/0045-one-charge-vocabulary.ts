import { type Kysely, sql } from 'kysely';

/**
 * Issue 27 item 4: a dossier's charges take the codes offers and invoices take (SALES_CHARGE_CODES), so a
 * charge keeps its code and name to the invoice rather than becoming "Other" there. The short codes the
 * demo and users typed are mapped to their names; what nothing matches becomes OTHER, its old code kept
 * at the head of its description. A charge priced per unit keeps its quantity, unit and unit price.
 */
const CODES = [
  'FREIGHT',
  'FUEL',
  'THC',
  'ORIGIN',
  'DESTINATION',
  'CUSTOMS',
  'SECURITY',
  'HANDLING',
  'STORAGE',
  'INSURANCE',
  'DOCUMENTATION',
  'CANCELLATION',
  'OTHER',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update dossier_charges set charge_code = case
      when charge_code in ('OFR', 'AFR', 'RFR', 'TRK', 'FER', 'FRT', 'FRE', 'ROAD', 'SEA', 'AIR') then 'FREIGHT'
      when charge_code in ('FSC', 'BAF', 'FUE') then 'FUEL'
      when charge_code in ('ORC', 'ORG') then 'ORIGIN'
      when charge_code in ('DTHC', 'DST', 'DEST') then 'DESTINATION'
      when charge_code in ('CUS', 'CUST', 'CLR') then 'CUSTOMS'
      when charge_code in ('SEC', 'SCR') then 'SECURITY'
      when charge_code in ('DOC', 'DOCS') then 'DOCUMENTATION'
      when charge_code in ('CXL', 'CAN') then 'CANCELLATION'
      when charge_code in ('HDL', 'HAN') then 'HANDLING'
      when charge_code in ('STO', 'STR') then 'STORAGE'
      when charge_code in ('INS') then 'INSURANCE'
      else charge_code end`.execute(db);
  await sql`
    update dossier_charges set description = left(charge_code || ': ' || description, 200), charge_code = 'OTHER'
    where not charge_code = any(${CODES}::text[])`.execute(db);
  await sql`
    alter table dossier_charges
      add constraint dossier_charges_code_check check (charge_code = any(${sql.raw(`array['${CODES.join("','")}']`)})),
      add column quantity numeric(14, 3) check (quantity > 0),
      add column unit text,
      add column unit_price numeric(16, 4) check (unit_price >= 0),
      add constraint dossier_charges_units_check
        check ((quantity is null) = (unit is null) and (unit is null) = (unit_price is null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table dossier_charges
      drop constraint dossier_charges_units_check,
      drop column unit_price,
      drop column unit,
      drop column quantity,
      drop constraint dossier_charges_code_check`.execute(db);
}
