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

/**
 * The audit entry of a deletion: what the record was known by (`field`, its number or file name)
 * goes from `was` to nothing.
 */
export function auditDeletion(
  db: Db,
  entry: { kind: string; id: string; actorId: string; field: string; was: unknown },
): Promise<void> {
  const { field, was, ...of } = entry;
  return writeAudit(db, { ...of, action: 'deleted', changes: [{ field, from: was, to: null }] });
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

/** What a reference field of a history holds the id of. */
export type ReferenceKind = 'party' | 'user';

/** An area's fields whose values are ids of other records: `{ carrierId: 'party', handlerId: 'user' }`. */
export type HistoryReferences = Readonly<Record<string, ReferenceKind>>;

type Named = { id: string; code?: string; name: string };

/**
 * The ids in the reference fields of a history, as the records they name (`{ id, code, name }` for a
 * party, `{ id, name }` for a user), so every client reads names and not ids: one query per kind for
 * the whole history. It runs on the history as the viewer may see it, so it names nothing the viewer
 * is not shown (a customer's history has no change of the party field, hence no other customer); an
 * id that no longer names a record stays as it is.
 */
async function withNames(
  db: Db,
  entries: AuditEntry[],
  references: HistoryReferences,
): Promise<AuditEntry[]> {
  const wanted: Record<ReferenceKind, Set<string>> = { party: new Set(), user: new Set() };
  for (const entry of entries)
    for (const change of entry.changes) {
      const kind = references[change.field];
      if (!kind) continue;
      for (const value of [change.from, change.to])
        if (typeof value === 'string' && UUID.test(value)) wanted[kind].add(value);
    }
  const named = new Map<string, Named>();
  if (wanted.party.size > 0) {
    const parties = await db
      .selectFrom('parties')
      .select(['id', 'code', 'name'])
      .where('id', 'in', [...wanted.party])
      .execute();
    for (const p of parties) named.set(`party:${p.id}`, { id: p.id, code: p.code, name: p.name });
  }
  if (wanted.user.size > 0) {
    const users = await db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('id', 'in', [...wanted.user])
      .execute();
    for (const u of users) named.set(`user:${u.id}`, { id: u.id, name: u.name });
  }
  if (named.size === 0) return entries;
  const name = (field: string, value: unknown) => {
    const kind = references[field];
    return kind && typeof value === 'string' ? (named.get(`${kind}:${value}`) ?? value) : value;
  };
  return entries.map((entry) => ({
    ...entry,
    changes: entry.changes.map((c) => ({ ...c, from: name(c.field, c.from), to: name(c.field, c.to) })),
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The audit trail of one record, newest first, as the viewer may see it: the area's visibility applies
 * to its history as to the record (a customer never reads a cost in a change); the ids of its
 * `references` read as names.
 */
export async function historyOf(
  db: Db,
  kind: string,
  id: string,
  viewer: { scope: Scope; visibility: FieldVisibility },
  references: HistoryReferences = {},
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
  return withNames(db, visibleHistory(viewer.scope, viewer.visibility, entries), references);
}
