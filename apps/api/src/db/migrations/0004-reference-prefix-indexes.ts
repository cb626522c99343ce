import { type Kysely, sql } from 'kysely';

/**
 * Identifiers (dossier number, customer reference, booking, BL/AWB, CMR) are searched by prefix first:
 * btree indexes on their upper-cased text serve `LIKE 'X%'` in a few index pages, where a trigram
 * index over digits-heavy identifiers has to merge long posting lists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const col of [
    'number',
    'customer_reference',
    'booking_number',
    'master_bl',
    'house_bl',
    'cmr_number',
  ]) {
    await sql
      .raw(`create index dossiers_${col}_prefix on dossiers (upper(${col}) text_pattern_ops)`)
      .execute(db);
  }
}
