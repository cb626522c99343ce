import { type Kysely, sql } from 'kysely';

/**
 * The national part of the MRNs the sandbox authority allocates (issue 12, ADR 0033): one sequence,
 * so two nodes answering at once never hand out the same MRN, and a rolled-back answer only leaves a
 * gap (MRNs need not be gap-free, unlike invoice numbers).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence if not exists declaration_mrn_serial as bigint minvalue 1 maxvalue 999999999`.execute(
    db,
  );
}
