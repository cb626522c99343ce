import type { Db } from '../db/database.ts';
import { type HttpProblem, problems } from '../http/problem.ts';

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
  throw staleVersion(opts.what, opts.version, current.version);
}

/** The 409 of a stale version: the client read `version` of the record, it is at `current` now. */
export function staleVersion(what: string, version: number, current: number): HttpProblem {
  return problems.conflict(
    `This ${what} was changed by someone else since you opened it (you had version ${version}, it is now ${current}). Reload it to see their changes, then apply yours again.`,
    [{ field: 'version', message: `Stale version ${version}; current is ${current}` }],
  );
}

/** Optimistic concurrency on a locked row: 409 unless the client's version (when it sends one) is current. */
export function checkVersion(what: string, current: number, version: number | undefined): void {
  if (version !== undefined && version !== current) throw staleVersion(what, version, current);
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

/**
 * API field → column (`customerId` → `customer_id`) for the fields a service writes; the audit trail
 * records the API names.
 */
export function columnsOf<const F extends string>(fields: readonly F[]): Readonly<Record<F, string>> {
  return Object.fromEntries(
    fields.map((f) => [f, f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
  ) as Record<F, string>;
}
