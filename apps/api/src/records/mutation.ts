import type { Db } from '../db/database.ts';
import { problems } from '../http/problem.ts';

type VersionedTable = 'parties' | 'dossiers' | 'transports' | 'documents' | 'sales_offers' | 'sales_invoices';

/**
 * Optimistic concurrency: the update applies only to the version the client read, and bumps it.
 * A stale version answers 409 with the current one; a record gone (or out of scope) answers 404.
 */
export async function versionedUpdate(
  db: Db,
  opts: {
    table: VersionedTable;
    id: string;
    version: number;
    values: Record<string, unknown>;
    actorId: string;
    what: string;
  },
): Promise<number> {
  const row = await db
    .updateTable(opts.table)
    .set((eb) => ({
      ...(opts.values as object),
      version: eb('version', '+', 1),
      updated_at: new Date(),
      updated_by: opts.actorId,
    }))
    .where('id', '=', opts.id)
    .where('version', '=', opts.version)
    .returning('version')
    .executeTakeFirst();
  if (row) return row.version;
  const current = await db
    .selectFrom(opts.table)
    .select('version')
    .where('id', '=', opts.id)
    .executeTakeFirst();
  if (!current) throw problems.notFound(`This ${opts.what} does not exist.`);
  throw problems.conflict(
    `This ${opts.what} was changed by someone else since you opened it (you had version ${opts.version}, it is now ${current.version}). Reload it to see their changes, then apply yours again.`,
    [{ field: 'version', message: `Stale version ${opts.version}; current is ${current.version}` }],
  );
}

/** Unique-violation (23505) and foreign-key (23503) errors as field problems, not 500s. */
export function pgConstraintProblem(
  e: unknown,
  fields: Record<string, { field: string; message: string }>,
): never {
  const err = e as { code?: string; constraint?: string };
  const known = err.constraint ? fields[err.constraint] : undefined;
  if (known && err.code === '23505') throw problems.conflict(known.message, [known]);
  if (known && err.code === '23503') throw problems.validation([known]);
  // A trigger's business rule (raised as a check violation naming its constraint): 422 on the field.
  if (known && err.code === '23514') throw problems.unprocessable(known.message, [known]);
  throw e;
}
