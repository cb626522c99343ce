import { type Kysely, sql } from 'kysely';

/**
 * Issue 26 item 5: NCTS accepts the 6-digit HS subheading on a T1/T2 item, so a declaration item's
 * commodity code may have 6 digits as well as 8 (CN) or 10 (TARIC). Which types may use 6 is a rule of
 * the shared pre-lodging function (imports and exports keep the 8-digit CN code); the column only keeps
 * the formats out that no type accepts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table declaration_items drop constraint declaration_items_commodity_code_check`.execute(db);
  await sql`
    alter table declaration_items add constraint declaration_items_commodity_code_check
      check (commodity_code ~ '^[0-9]{6}([0-9]{2}([0-9]{2})?)?$')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table declaration_items drop constraint declaration_items_commodity_code_check`.execute(db);
  await sql`
    alter table declaration_items add constraint declaration_items_commodity_code_check
      check (commodity_code ~ '^[0-9]{8}([0-9]{2})?$')`.execute(db);
}
