import type { AuditEntry, FieldVisibility } from '@fvg/contracts';
import type { Db } from '../db/database.ts';
import type { Scope } from './scope.ts';
import { visibleHistory } from './visibility.ts';

export interface Change {
  field: string;
  from: unknown;
  to: unknown;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a == null && b == null) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields whose values differ between two versions of a record, in the order given. */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields: readonly string[],
): Change[] {
  const changes: Change[] = [];
  for (const field of fields) {
    if (!(field in after)) continue;
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (!same(from, to)) changes.push({ field, from, to });
  }
  return changes;
}

export interface AuditWrite {
  kind: string;
  id: string;
  action: string;
  actorId: string | null;
  changes: Change[];
  /** When it happened, if not now: the demo company's records carry a past that reads like use. */
  at?: Date;
}

export async function writeAudit(db: Db, entry: AuditWrite): Promise<void> {
  await writeAudits(db, [entry]);
}

/** Several entries in one statement (a seed writes hundreds). */
export async function writeAudits(db: Db, entries: AuditWrite[]): Promise<void> {
  if (!entries.length) return;
  await db
    .insertInto('audit_log')
    .values(
      entries.map((entry) => ({
        record_kind: entry.kind,
        record_id: entry.id,
        action: entry.action,
        actor_id: entry.actorId,
        changes: JSON.stringify(entry.changes),
        ...(entry.at ? { at: entry.at } : {}),
      })),
    )
    .execute();
}

/**
 * The audit trail of one record, newest first, as the viewer may see it: the area's visibility applies
 * to its history as to the record (a customer never reads a cost in a change).
 */
export async function historyOf(
  db: Db,
  kind: string,
  id: string,
  viewer: { scope: Scope; visibility: FieldVisibility },
): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_id')
    .select([
      'audit_log.id',
      'audit_log.at',
      'audit_log.action',
      'audit_log.changes',
      'users.id as actor_id',
      'users.name as actor_name',
    ])
    .where('audit_log.record_kind', '=', kind)
    .where('audit_log.record_id', '=', id)
    .orderBy('audit_log.id', 'desc')
    .limit(500)
    .execute();
  const entries = rows.map((r) => ({
    id: String(r.id),
    at: r.at.toISOString(),
    action: r.action,
    actor: r.actor_id && r.actor_name ? { id: r.actor_id, name: r.actor_name } : null,
    changes: r.changes as Change[],
  }));
  return visibleHistory(viewer.scope, viewer.visibility, entries);
}
