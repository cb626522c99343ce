import type { AuditEntry, FieldVisibility } from '@fvg/contracts';
import { problems } from '../http/problem.ts';
import type { Scope } from './scope.ts';

/**
 * Field visibility follows the scope: a scoped viewer (a customer, limited to their party) never sees
 * an area's internal fields; staff and admins (scope `all`) see every field. Every place a field can
 * show asks here, with the area's one declaration (`FieldVisibility` in contracts).
 */
export function canSee(scope: Scope, visibility: FieldVisibility, field: string): boolean {
  return scope.all || !visibility.internal.includes(field);
}

/** The record as the viewer may see it: hidden fields null (lists empty), so the response shape holds. */
export function redact<T extends object>(scope: Scope, visibility: FieldVisibility, item: T): T {
  if (scope.all || !visibility.internal.some((f) => f in item)) return item;
  const out = { ...item } as Record<string, unknown>;
  for (const f of visibility.internal) {
    if (f in out) out[f] = Array.isArray(out[f]) ? [] : null;
  }
  return out as T;
}

/**
 * A history (newest first) as the viewer may see it: changes of hidden fields left out, and so are
 * entries that are internal as a whole or had only hidden changes (a "charges changed" says something
 * even when empty). With a `partyField`, a customer sees none of its changes, and nothing from the
 * move that gave the record to their party back: a customer can only read a record that is theirs
 * now, so the latest move (a change from a party, not the creation's from nothing) is where their
 * history starts; the move itself names the former party and goes too.
 */
export function visibleHistory(
  scope: Scope,
  visibility: FieldVisibility,
  entries: AuditEntry[],
): AuditEntry[] {
  if (scope.all) return entries;
  const party = visibility.partyField;
  const hidden = new Set([...visibility.internal, ...(party ? [party] : [])]);
  const out: AuditEntry[] = [];
  for (const entry of entries) {
    if (party && entry.changes.some((c) => c.field === party && c.from != null)) break;
    if (visibility.internalActions?.includes(entry.action)) continue;
    const changes = entry.changes.filter((c) => !hidden.has(c.field));
    if (entry.changes.length > 0 && changes.length === 0) continue;
    out.push(changes.length === entry.changes.length ? entry : { ...entry, changes });
  }
  return out;
}

/**
 * Refuses query parameters the viewer may not use: a filter on a hidden field is a 400 on that
 * parameter (never silently ignored, which would answer as if it matched). `filterFields` maps a
 * parameter to the field it reads (`profitMax` → `profit`); a parameter named like a field reads it.
 */
export function checkFilters(
  scope: Scope,
  visibility: FieldVisibility,
  query: Record<string, unknown> | undefined,
  filterFields: Readonly<Record<string, string>> = {},
): void {
  if (scope.all || !query) return;
  const hidden = new Set(visibility.internal);
  const refused = Object.keys(query).filter(
    (param) => query[param] !== undefined && hidden.has(filterFields[param] ?? param),
  );
  if (refused.length) {
    throw problems.validation(refused.map((field) => ({ field, message: `Cannot filter by ${field}` })));
  }
}
