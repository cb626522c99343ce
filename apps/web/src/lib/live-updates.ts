import type { RecordChanged, RecordKind } from '@fvg/contracts';
import { hashKey, partialMatchKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { HubClient } from './hub-client.ts';
import { sessionKeys } from './session.ts';

/*
 * Live updates, in one place: the hub's RecordChanged events become TanStack Query invalidations.
 * Feature modules register the query-key factories of their record kind once, at module level:
 *
 *   export const dossierKeys = { all: ['dossiers'] as const, detail: (id: string) => [...] as const };
 *   registerRecordKeys('dossier', dossierKeys);
 *
 * A change of a record then invalidates everything under `all` (lists, searches) and the record's
 * `detail` key; active queries refetch, inactive ones refetch when next used. A feature that is not
 * loaded yet has nothing in the cache, so registering on import is exactly early enough.
 * The signed-in user's own record (kind 'user', id = me) also refreshes the session's `me` query.
 */

export interface RecordKeys {
  /**
   * Prefix of the kind's queries a change of any record may affect: the lists (and searches). The
   * factory's root (`['dossiers']`) covers the details too; a lists prefix (`['dossiers', 'list']`)
   * leaves the other records' details alone.
   */
  readonly all: QueryKey;
  /** Key of one record's detail query. */
  readonly detail: (id: string) => QueryKey;
  /**
   * Refresh these keys at most once per this many ms (aggregates such as dashboard cards, which a
   * burst of changes would otherwise recount again and again): the first change refreshes at once,
   * the ones within the window once at its end. Absent: every batch refreshes.
   */
  readonly throttleMs?: number;
}

/** Which query keys each record kind has; several registrations per kind are allowed. */
export class RecordKeyRegistry {
  private readonly byKind = new Map<string, Set<RecordKeys>>();

  /** Returns the function that removes the registration. */
  register(kind: RecordKind, keys: RecordKeys): () => void {
    let set = this.byKind.get(kind);
    if (!set) {
      set = new Set();
      this.byKind.set(kind, set);
    }
    set.add(keys);
    return () => {
      this.byKind.get(kind)?.delete(keys);
    };
  }

  keysOf(kind: string): RecordKeys[] {
    return [...(this.byKind.get(kind) ?? [])];
  }
}

/** The app's registry, which feature modules fill through registerRecordKeys(). */
export const recordKeyRegistry = new RecordKeyRegistry();

/** Registers the query keys of a record kind with the app's registry; returns the undo. */
export function registerRecordKeys(kind: RecordKind, keys: RecordKeys): () => void {
  return recordKeyRegistry.register(kind, keys);
}

const ACTIONS: ReadonlySet<string> = new Set<RecordChanged['action']>(['created', 'updated', 'deleted']);

/** A RecordChanged payload as the server should send it; anything else is ignored (and logged). */
export function isRecordChanged(value: unknown): value is RecordChanged {
  if (value === null || typeof value !== 'object') return false;
  const { kind, id, action } = value as Record<string, unknown>;
  return (
    typeof kind === 'string' && typeof id === 'string' && typeof action === 'string' && ACTIONS.has(action)
  );
}

export interface LiveUpdateContext {
  registry?: RecordKeyRegistry;
  /** Id of the signed-in user, when known. */
  meId?: string | undefined;
}

export interface ChangePlan {
  /** Query-key prefixes to invalidate. */
  invalidate: QueryKey[];
  /** Detail keys of deleted records: their inactive queries are dropped rather than refetched. */
  remove: QueryKey[];
  /** Prefixes of registrations with a `throttleMs`: invalidated through a throttle when connected. */
  throttled: ThrottledKey[];
}

export interface ThrottledKey {
  key: QueryKey;
  ms: number;
}

/** The keys without duplicates and without keys another key of the list already covers as a prefix. */
function withoutCovered(keys: readonly QueryKey[]): QueryKey[] {
  const unique = [...new Map(keys.map((key) => [hashKey(key), key])).values()];
  return unique.filter((key) => !unique.some((other) => other !== key && partialMatchKey(key, other)));
}

/** What a batch of changes means for the cache. Pure: the unit tests read it directly. */
export function planRecordChanges(
  changes: readonly RecordChanged[],
  context: LiveUpdateContext = {},
): ChangePlan {
  const registry = context.registry ?? recordKeyRegistry;
  const invalidate: QueryKey[] = [];
  const remove: QueryKey[] = [];
  const throttled = new Map<string, ThrottledKey>();
  for (const change of changes) {
    for (const keys of registry.keysOf(change.kind)) {
      if (keys.throttleMs !== undefined && keys.throttleMs > 0) {
        throttled.set(hashKey(keys.all), { key: keys.all, ms: keys.throttleMs });
        continue;
      }
      invalidate.push(keys.all, keys.detail(change.id));
      if (change.action === 'deleted') remove.push(keys.detail(change.id));
    }
    if (change.kind === 'user' && context.meId !== undefined && change.id === context.meId) {
      invalidate.push(sessionKeys.me());
    }
  }
  return {
    invalidate: withoutCovered(invalidate),
    remove: withoutCovered(remove),
    throttled: [...throttled.values()],
  };
}

async function invalidatePrefixes(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  if (keys.length === 0) return;
  await queryClient.invalidateQueries({
    predicate: (query) => keys.some((key) => partialMatchKey(query.queryKey, key)),
  });
}

/**
 * Applies a batch of changes to the cache: one invalidation for all the keys concerned. Throttled
 * keys go to `throttle` when given (connectLiveUpdates keeps the clock), otherwise they refresh now.
 */
export async function applyRecordChanges(
  queryClient: QueryClient,
  changes: readonly RecordChanged[],
  context: LiveUpdateContext & { throttle?: (keys: readonly ThrottledKey[]) => void } = {},
): Promise<void> {
  const plan = planRecordChanges(changes, context);
  for (const key of plan.remove) queryClient.removeQueries({ queryKey: key, type: 'inactive' });
  if (context.throttle) context.throttle(plan.throttled);
  else plan.invalidate.push(...plan.throttled.map((t) => t.key));
  await invalidatePrefixes(queryClient, plan.invalidate);
}

/**
 * After a reconnect, changes announced while the connection was down are lost, and they could concern
 * any record: every query is marked stale, and those on screen refetch (as TanStack Query does when
 * the browser comes back online).
 */
export async function refreshAfterReconnect(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries();
}

export interface LiveUpdatesOptions {
  registry?: RecordKeyRegistry;
  /** The signed-in user's id, read at the time of each change. */
  getMeId?: () => string | undefined;
  /** Changes arriving within this window are applied together (bulk edits announce many); 0: at once. */
  batchMs?: number;
  console?: Pick<Console, 'warn' | 'error'>;
}

/** Coalescing window of RecordChanged bursts. */
export const LIVE_UPDATE_BATCH_MS = 50;

/**
 * Connects the hub's RecordChanged events to the query cache, and refreshes everything after a
 * reconnect. Returns the function that disconnects them.
 */
export function connectLiveUpdates(
  hub: Pick<HubClient, 'on' | 'onReconnected'>,
  queryClient: QueryClient,
  options: LiveUpdatesOptions = {},
): () => void {
  const { registry = recordKeyRegistry, getMeId = () => undefined, batchMs = LIVE_UPDATE_BATCH_MS } = options;
  const log = options.console ?? console;
  let pending: RecordChanged[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Per throttled prefix: when it was last refreshed, and the pending trailing refresh.
  const throttles = new Map<string, { last: number; timer?: ReturnType<typeof setTimeout> | undefined }>();

  const report = (error: unknown) => log.error('[hub] live update failed', error);
  const throttle = (keys: readonly ThrottledKey[]) => {
    const now = Date.now();
    const due: QueryKey[] = [];
    for (const { key, ms } of keys) {
      const hash = hashKey(key);
      const state = throttles.get(hash);
      if (!state || (state.timer === undefined && now - state.last >= ms)) {
        throttles.set(hash, { last: now });
        due.push(key);
      } else if (state.timer === undefined) {
        state.timer = setTimeout(
          () => {
            state.timer = undefined;
            state.last = Date.now();
            invalidatePrefixes(queryClient, [key]).catch(report);
          },
          state.last + ms - now,
        );
      }
    }
    invalidatePrefixes(queryClient, due).catch(report);
  };
  const flush = () => {
    timer = undefined;
    const changes = pending;
    pending = [];
    applyRecordChanges(queryClient, changes, { registry, meId: getMeId(), throttle }).catch(report);
  };

  const offChange = hub.on('RecordChanged', (change: unknown) => {
    if (!isRecordChanged(change)) {
      log.warn('[hub] ignored a malformed RecordChanged', change);
      return;
    }
    pending.push(change);
    if (batchMs <= 0) flush();
    else timer ??= setTimeout(flush, batchMs);
  });
  const offReconnected = hub.onReconnected(() => {
    refreshAfterReconnect(queryClient).catch(report);
  });

  return () => {
    offChange();
    offReconnected();
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = [];
    for (const state of throttles.values()) if (state.timer !== undefined) clearTimeout(state.timer);
    throttles.clear();
  };
}
