import type { SessionUser } from '../features/users/users.repository.ts';
import { problems } from '../http/problem.ts';

/**
 * What a user may see: staff and admins everything, a customer only their own party's records.
 * Every repository query of a scoped record takes one of these; there is no other access path.
 */
export type Scope = { readonly all: true } | { readonly all: false; readonly partyId: string };

export function scopeOf(user: SessionUser): Scope {
  if (user.role !== 'customer') return { all: true };
  // A customer without a party sees nothing (the schema forbids it; this is belt and braces).
  return { all: false, partyId: user.party_id ?? '00000000-0000-0000-0000-000000000000' };
}

export function requireStaff(user: SessionUser): void {
  if (user.role === 'customer') throw problems.forbidden('Only staff can do this.');
}

export function requireAdmin(user: SessionUser): void {
  if (user.role !== 'admin') throw problems.forbidden('Only an administrator can do this.');
}

/** The row a scoped read found, or 404: another party's record answers as a missing one does. */
export function orNotFound<T>(row: T | undefined, what: string): T {
  if (!row) throw problems.notFound(`This ${what} does not exist.`);
  return row;
}
