import { type Kysely, sql } from 'kysely';

/**
 * Issue 26 item 2: a customs value typed under valuation methods 2–6 (UCC art. 74) says why the
 * transaction value does not apply; the lodging rules require it with those methods.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table declaration_items add column valuation_reason text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table declaration_items drop column if exists valuation_reason`.execute(db);
}
