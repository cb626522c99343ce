import type { RecordChanged } from '@fvg/contracts';
import { QueryClient, type QueryKey, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeHub } from '../test/fake-hub-connection.ts';
import {
  applyRecordChanges,
  connectLiveUpdates,
  isRecordChanged,
  planRecordChanges,
  RecordKeyRegistry,
  recordKeyRegistry,
  registerRecordKeys,
} from './live-updates.ts';
import { sessionKeys } from './session.ts';

const dossierKeys = {
  all: ['dossiers'] as const,
  lists: () => ['dossiers', 'list'] as const,
  list: (filters: object) => ['dossiers', 'list', filters] as const,
  detail: (id: string) => ['dossiers', 'detail', id] as const,
};
const partyKeys = {
  all: ['parties', 'list'] as const,
  detail: (id: string) => ['parties', 'detail', id] as const,
};

function registry(): RecordKeyRegistry {
  const r = new RecordKeyRegistry();
  r.register('dossier', { all: dossierKeys.lists(), detail: dossierKeys.detail });
  r.register('party', partyKeys);
  return r;
}

const change = (kind: RecordChanged['kind'], id: string, action: RecordChanged['action'] = 'updated') => ({
  kind,
  id,
  action,
});

function seed(queryClient: QueryClient, keys: QueryKey[]): void {
  for (const key of keys) queryClient.setQueryData(key, { seeded: key });
}

function invalidated(queryClient: QueryClient, key: QueryKey): boolean | undefined {
  return queryClient.getQueryState(key)?.isInvalidated;
}

/** Keeps a query active (observed), counting its fetches; resolves once the first fetch is done. */
async function observe(queryClient: QueryClient, key: QueryKey) {
  const queryFn = vi.fn(async () => ({ fetched: key }));
  const observer = new QueryObserver(queryClient, {
    queryKey: key,
    queryFn,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const unsubscribe = observer.subscribe(() => {});
  await vi.waitFor(() => expect(observer.getCurrentResult().fetchStatus).toBe('idle'));
  return { queryFn, unsubscribe };
}

const seededKeys: QueryKey[] = [
  dossierKeys.list({ page: 1 }),
  dossierKeys.list({ page: 2, q: 'MSKU' }),
  dossierKeys.detail('D-1'),
  dossierKeys.detail('D-2'),
  partyKeys.all,
  partyKeys.detail('P-1'),
  sessionKeys.me(),
  ['search', 'D-1'],
];

afterEach(() => {
  vi.useRealTimers();
});

describe('planRecordChanges', () => {
  it('maps a change to the kind’s list prefix and the record’s detail key', () => {
    expect(planRecordChanges([change('dossier', 'D-1')], { registry: registry() })).toEqual({
      invalidate: [
        ['dossiers', 'list'],
        ['dossiers', 'detail', 'D-1'],
      ],
      remove: [],
      throttled: [],
    });
  });

  it('adds the session user for a change of the signed-in user only', () => {
    const r = registry();
    expect(planRecordChanges([change('user', 'u1')], { registry: r, meId: 'u1' }).invalidate).toEqual([
      sessionKeys.me(),
    ]);
    expect(planRecordChanges([change('user', 'u2')], { registry: r, meId: 'u1' }).invalidate).toEqual([]);
    expect(planRecordChanges([change('user', 'u1')], { registry: r }).invalidate).toEqual([]);
  });

  it('merges a batch: duplicates once, keys covered by a prefix dropped', () => {
    const r = registry();
    r.register('dossier', { all: dossierKeys.all, detail: dossierKeys.detail }); // a second, broader registration
    const plan = planRecordChanges(
      [change('dossier', 'D-1'), change('dossier', 'D-1'), change('party', 'P-1')],
      {
        registry: r,
      },
    );
    expect(plan.invalidate).toEqual([['dossiers'], ['parties', 'list'], ['parties', 'detail', 'P-1']]);
  });

  it('marks the detail of a deleted record for removal', () => {
    expect(planRecordChanges([change('party', 'P-1', 'deleted')], { registry: registry() }).remove).toEqual([
      ['parties', 'detail', 'P-1'],
    ]);
  });

  it('knows nothing about kinds nobody registered', () => {
    expect(planRecordChanges([change('user', 'u9')], { registry: registry(), meId: 'u1' })).toEqual({
      invalidate: [],
      remove: [],
      throttled: [],
    });
  });

  it('keeps throttled registrations apart, once per prefix', () => {
    const r = registry();
    r.register('dossier', { all: ['dashboard', 'card', 'dossiers'], detail: () => [], throttleMs: 1000 });
    const plan = planRecordChanges([change('dossier', 'D-1'), change('dossier', 'D-2')], { registry: r });
    expect(plan.throttled).toEqual([{ key: ['dashboard', 'card', 'dossiers'], ms: 1000 }]);
    expect(plan.invalidate).not.toContainEqual(['dashboard', 'card', 'dossiers']);
  });
});

describe('applyRecordChanges with a real QueryClient', () => {
  it('invalidates the lists and the one detail, and nothing else', async () => {
    const queryClient = new QueryClient();
    seed(queryClient, seededKeys);
    await applyRecordChanges(queryClient, [change('dossier', 'D-1')], { registry: registry(), meId: 'u1' });

    expect(invalidated(queryClient, dossierKeys.list({ page: 1 }))).toBe(true);
    expect(invalidated(queryClient, dossierKeys.list({ page: 2, q: 'MSKU' }))).toBe(true);
    expect(invalidated(queryClient, dossierKeys.detail('D-1'))).toBe(true);
    expect(invalidated(queryClient, dossierKeys.detail('D-2'))).toBe(false);
    expect(invalidated(queryClient, partyKeys.all)).toBe(false);
    expect(invalidated(queryClient, partyKeys.detail('P-1'))).toBe(false);
    expect(invalidated(queryClient, sessionKeys.me())).toBe(false);
    expect(invalidated(queryClient, ['search', 'D-1'])).toBe(false);
  });

  it('refetches active queries once each', async () => {
    const queryClient = new QueryClient();
    const list = await observe(queryClient, dossierKeys.list({ page: 1 }));
    const detail = await observe(queryClient, dossierKeys.detail('D-1'));
    const other = await observe(queryClient, dossierKeys.detail('D-2'));
    expect([list, detail, other].map((o) => o.queryFn.mock.calls.length)).toEqual([1, 1, 1]);

    await applyRecordChanges(queryClient, [change('dossier', 'D-1')], { registry: registry() });
    expect(list.queryFn).toHaveBeenCalledTimes(2);
    expect(detail.queryFn).toHaveBeenCalledTimes(2);
    expect(other.queryFn).toHaveBeenCalledTimes(1);
    for (const o of [list, detail, other]) o.unsubscribe();
  });

  it('drops the inactive detail of a deleted record and refetches an active one', async () => {
    const queryClient = new QueryClient();
    seed(queryClient, [partyKeys.detail('P-1'), partyKeys.detail('P-2'), partyKeys.all]);
    const active = await observe(queryClient, dossierKeys.detail('D-1'));

    await applyRecordChanges(
      queryClient,
      [change('party', 'P-1', 'deleted'), change('dossier', 'D-1', 'deleted')],
      {
        registry: registry(),
      },
    );
    expect(queryClient.getQueryData(partyKeys.detail('P-1'))).toBeUndefined();
    expect(queryClient.getQueryData(partyKeys.detail('P-2'))).toBeDefined();
    expect(invalidated(queryClient, partyKeys.all)).toBe(true);
    expect(active.queryFn).toHaveBeenCalledTimes(2); // the open screen learns it is gone
    active.unsubscribe();
  });

  it('refreshes `me` when the signed-in user changed', async () => {
    const queryClient = new QueryClient();
    seed(queryClient, seededKeys);
    await applyRecordChanges(queryClient, [change('user', 'u2')], { registry: registry(), meId: 'u1' });
    expect(invalidated(queryClient, sessionKeys.me())).toBe(false);
    await applyRecordChanges(queryClient, [change('user', 'u1')], { registry: registry(), meId: 'u1' });
    expect(invalidated(queryClient, sessionKeys.me())).toBe(true);
    expect(invalidated(queryClient, dossierKeys.detail('D-1'))).toBe(false);
  });
});

describe('registerRecordKeys', () => {
  it('fills the app registry and can be undone', () => {
    const undo = registerRecordKeys('party', partyKeys);
    try {
      expect(recordKeyRegistry.keysOf('party')).toContain(partyKeys);
      expect(planRecordChanges([change('party', 'P-7')]).invalidate).toContainEqual([
        'parties',
        'detail',
        'P-7',
      ]);
    } finally {
      undo();
    }
    expect(recordKeyRegistry.keysOf('party')).not.toContain(partyKeys);
  });
});

describe('isRecordChanged', () => {
  it('accepts the contract shape only', () => {
    expect(isRecordChanged({ kind: 'dossier', id: 'D-1', action: 'created' })).toBe(true);
    expect(isRecordChanged({ kind: 'dossier', id: 'D-1', action: 'archived' })).toBe(false);
    expect(isRecordChanged({ kind: 'dossier', id: 7, action: 'updated' })).toBe(false);
    expect(isRecordChanged(null)).toBe(false);
    expect(isRecordChanged('dossier')).toBe(false);
  });
});

describe('connectLiveUpdates through the hub client', () => {
  async function connectedHub() {
    const { hub, connection } = fakeHub({ autoStart: true });
    await hub.start();
    return { hub, connection };
  }

  it('turns RecordChanged events into invalidations, a burst in one go', async () => {
    vi.useFakeTimers();
    const { hub, connection } = await connectedHub();
    const queryClient = new QueryClient();
    seed(queryClient, seededKeys);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const log = { warn: vi.fn(), error: vi.fn() };
    const disconnect = connectLiveUpdates(hub, queryClient, {
      registry: registry(),
      getMeId: () => 'u1',
      console: log,
    });

    connection.emit('RecordChanged', change('dossier', 'D-2'));
    connection.emit('RecordChanged', change('user', 'u1'));
    connection.emit('RecordChanged', { kind: 'dossier' }); // malformed: ignored
    expect(invalidate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(50);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidated(queryClient, dossierKeys.detail('D-2'))).toBe(true);
    expect(invalidated(queryClient, dossierKeys.detail('D-1'))).toBe(false);
    expect(invalidated(queryClient, sessionKeys.me())).toBe(true);
    expect(log.warn).toHaveBeenCalledWith('[hub] ignored a malformed RecordChanged', { kind: 'dossier' });

    disconnect();
    connection.emit('RecordChanged', change('party', 'P-1'));
    await vi.advanceTimersByTimeAsync(100);
    expect(invalidated(queryClient, partyKeys.detail('P-1'))).toBe(false);
  });

  it('applies at once with batchMs 0', async () => {
    const { hub, connection } = await connectedHub();
    const queryClient = new QueryClient();
    seed(queryClient, seededKeys);
    connectLiveUpdates(hub, queryClient, { registry: registry(), batchMs: 0 });
    connection.emit('RecordChanged', change('party', 'P-1'));
    await vi.waitFor(() => expect(invalidated(queryClient, partyKeys.detail('P-1'))).toBe(true));
  });

  it('after a reconnect, marks everything stale (changes may have been missed) and refetches what is on screen', async () => {
    const { hub, connection } = await connectedHub();
    const queryClient = new QueryClient();
    const onScreenKey = ['dossiers', 'detail', 'D-9'];
    seed(queryClient, seededKeys);
    const onScreen = await observe(queryClient, onScreenKey);
    expect(onScreen.queryFn).toHaveBeenCalledTimes(1);
    connectLiveUpdates(hub, queryClient, { registry: registry(), batchMs: 0 });

    connection.drop();
    expect(invalidated(queryClient, partyKeys.all)).toBe(false);
    connection.reconnect();
    await vi.waitFor(() => expect(onScreen.queryFn).toHaveBeenCalledTimes(2));
    for (const key of seededKeys) expect(invalidated(queryClient, key)).toBe(true);
    onScreen.unsubscribe();
  });

  it('refreshes a throttled key at once, then once at the end of its window however many changes come', async () => {
    vi.useFakeTimers();
    const { hub, connection } = await connectedHub();
    const queryClient = new QueryClient();
    const cardKey = ['dashboard', 'card', 'dossiers'];
    const r = registry();
    r.register('dossier', { all: cardKey, detail: () => cardKey, throttleMs: 1000 });
    const card = await observe(queryClient, cardKey);
    expect(card.queryFn).toHaveBeenCalledTimes(1);
    const disconnect = connectLiveUpdates(hub, queryClient, { registry: r });

    connection.emit('RecordChanged', change('dossier', 'D-1'));
    await vi.advanceTimersByTimeAsync(50);
    expect(card.queryFn).toHaveBeenCalledTimes(2); // leading edge

    for (let i = 0; i < 5; i++) {
      connection.emit('RecordChanged', change('dossier', `D-${i + 2}`));
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(card.queryFn).toHaveBeenCalledTimes(2); // inside the window: held back
    await vi.advanceTimersByTimeAsync(1000);
    expect(card.queryFn).toHaveBeenCalledTimes(3); // one trailing refresh for the five

    await vi.advanceTimersByTimeAsync(5000);
    expect(card.queryFn).toHaveBeenCalledTimes(3); // nothing new: no refresh
    connection.emit('RecordChanged', change('dossier', 'D-9'));
    await vi.advanceTimersByTimeAsync(50);
    expect(card.queryFn).toHaveBeenCalledTimes(4); // a quiet window later: at once again

    connection.emit('RecordChanged', change('dossier', 'D-10'));
    await vi.advanceTimersByTimeAsync(50);
    disconnect(); // the pending trailing refresh goes with the connection
    await vi.advanceTimersByTimeAsync(2000);
    expect(card.queryFn).toHaveBeenCalledTimes(4);
    card.unsubscribe();
  });
});
