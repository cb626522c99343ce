import { type Kysely, sql } from 'kysely';

/**
 * Issue 26 item 3: how an import's duties and taxes are paid, DE 4/8 (Annex B, title II), the code each
 * calculated tax line carries (A cash, E deferred, H electronic credit transfer, …). The lodging rules
 * require it on an import whose items carry duties or taxes; the column keeps out what is not a code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table declarations add column method_of_payment text
      check (method_of_payment in ('A','B','C','D','E','G','H','J','K','M','O','P','R','S','T','U','V'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table declarations drop column if exists method_of_payment`.execute(db);
}
