import type { Planning } from '@fvg/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { typeDateTime } from '../../../test/date-inputs.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aTransport } from '../test-support.ts';
import { groupPlanning, PlanningBoard, weekOf } from './planning-board.tsx';

const CARRIER = { id: '3b1f7a52-1c2d-4e5f-8a9b-0c1d2e3f4a5b', code: 'TRUCKS', name: 'Trucks BV' };
const OTHER = { id: '7c2e8b63-2d3e-4f60-9bac-1d2e3f4a5b6c', code: 'FAST', name: 'Fast Lines' };

const leg = aTransport;

// The server's time order: t-2 starts first, then t-1, then t-3.
const items: Planning['items'] = [
  {
    ...leg('t-2', 2, { carrier: CARRIER, truckPlate: 'AB-12-CD', deliveryTo: '2026-11-17T14:00:00.000Z' }),
    flags: ['vehicle_overlap'],
  },
  { ...leg('t-1', 1), flags: ['missing_carrier', 'pickup_passed'] },
  {
    ...leg('t-3', 3, {
      carrier: CARRIER,
      truckPlate: 'AB 12 CD',
      pickupFrom: '2026-11-17T10:00:00.000Z',
      deliveryTo: '2026-11-17T16:00:00.000Z',
    }),
    flags: ['vehicle_overlap'],
  },
];
const planning: Planning = { from: '2026-11-16', to: '2026-11-22', total: 3, items, nextCursor: null };

const carriers: LookupSource = {
  key: ['parties', 'lookup', 'carrier'],
  search: async () => [
    { value: CARRIER.id, label: `${CARRIER.name} (${CARRIER.code})` },
    { value: OTHER.id, label: `${OTHER.name} (${OTHER.code})` },
  ],
  byId: async () => null,
};

function stubApi(patch: () => Promise<Response>, pages: Planning[] = [planning]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'PATCH') return patch();
    const cursor = new URL(String(input), 'http://app.test').searchParams.get('cursor');
    return jsonResponse(cursor ? (pages.find((p) => p.from === cursor) ?? planning) : pages[0]);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (onRangeChange = vi.fn()) =>
  renderRoute(
    <PlanningBoard
      from="2026-11-16"
      to="2026-11-22"
      onRangeChange={onRangeChange}
      carrierLookup={carriers}
      staff
    />,
    { path: '/planning/list', url: '/planning/list' },
  );

describe('weekOf', () => {
  it('is Monday to Sunday of the week', () => {
    expect(weekOf(new Date(2026, 10, 22))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(weekOf(new Date(2026, 10, 16))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(weekOf(new Date(2026, 10, 19))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
  });
});

describe('groupPlanning', () => {
  it('puts unassigned legs first, then carriers by name, each keeping the time order', () => {
    const other = { ...leg('t-4', 4, { carrier: OTHER }), flags: [] };
    const groups = groupPlanning([...items, other]);
    expect(groups.map((g) => g.carrier?.code ?? null)).toEqual([null, 'FAST', 'TRUCKS']);
    expect(groups[2]?.transports.map((t) => t.id)).toEqual(['t-2', 't-3']);
    expect(groupPlanning([])).toEqual([]);
  });
});

describe('PlanningBoard', () => {
  it('asks for the range and shows the groups (unassigned first) with each row’s flags', async () => {
    const fetchMock = stubApi(async () => jsonResponse({}));
    await start();
    await screen.findByTestId('planning-row-t-1');
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://app.test');
    expect(url.pathname).toBe('/api/planning');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      from: '2026-11-16',
      to: '2026-11-22',
      tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });

    const groups = screen.getAllByTestId(/^planning-group-/).map((g) => g.dataset.testid);
    expect(groups).toEqual(['planning-group-unassigned', 'planning-group-TRUCKS']);
    const unassigned = within(screen.getByTestId('planning-row-t-1'));
    expect(unassigned.getByTestId('flag-missing_carrier').textContent).toBe('No carrier');
    expect(unassigned.getByTestId('flag-pickup_passed').textContent).toBe('Overdue');
    expect(unassigned.queryByTestId('flag-vehicle_overlap')).toBeNull();
    expect(
      within(screen.getByTestId('planning-group-TRUCKS')).getAllByTestId('flag-vehicle_overlap'),
    ).toHaveLength(2);
    expect(screen.getByTestId('planning-row-t-2').textContent).toContain('D-2026-000042-2');
    expect(screen.getByTestId('planning-count').textContent).toBe('3 legs');
    expect(screen.queryByTestId('planning-more')).toBeNull();
  });

  it('shows the first page with the total and loads the next page on request, through the cursor', async () => {
    // The second page is found by its cursor ('page-2', carried in `from` of the stub page).
    const first: Planning = { ...planning, total: 4, items: items.slice(0, 2), nextCursor: 'page-2' };
    const second: Planning = {
      ...planning,
      from: 'page-2',
      total: 4,
      items: [items[2] as Planning['items'][number], { ...leg('t-4', 4, { carrier: OTHER }), flags: [] }],
      nextCursor: null,
    };
    const fetchMock = stubApi(async () => jsonResponse({}), [first, second]);
    await start();
    await screen.findByTestId('planning-row-t-1');
    expect(screen.queryByTestId('planning-row-t-3')).toBeNull();
    expect(screen.getByTestId('planning-count').textContent).toBe(
      'Showing the first 2 of 4 legs, in time order',
    );
    fireEvent.click(screen.getByTestId('planning-more'));
    await screen.findByTestId('planning-row-t-4');
    const cursors = fetchMock.mock.calls.map(([u]) =>
      new URL(String(u), 'http://app.test').searchParams.get('cursor'),
    );
    expect(cursors).toEqual([null, 'page-2']);
    expect(screen.getAllByTestId(/^planning-group-/).map((g) => g.dataset.testid)).toEqual([
      'planning-group-unassigned',
      'planning-group-FAST',
      'planning-group-TRUCKS',
    ]);
    expect(screen.getByTestId('planning-count').textContent).toBe('4 legs');
    expect(screen.queryByTestId('planning-more')).toBeNull();
  });

  it('assigns a carrier at once with the leg’s version, and takes it back on a 409', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubApi(() => new Promise<Response>((resolve) => (answer = resolve)));
    await start();
    const input = (await screen.findByTestId('assign-carrier-t-1')) as HTMLInputElement;
    expect(input.value).toBe('');

    fireEvent.click(input);
    const listbox = screen.getByRole('listbox', { name: 'Carrier of D-2026-000042-1', hidden: true });
    const option = await within(listbox).findByRole('option', { name: 'Fast Lines (FAST)', hidden: true });
    fireEvent.click(option);

    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true));
    const [patchUrl, patchInit] = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH') as [
      string,
      RequestInit,
    ];
    expect(new URL(patchUrl, 'http://app.test').pathname).toBe('/api/transports/t-1');
    expect(JSON.parse(String(patchInit.body))).toEqual({ carrierId: OTHER.id, version: 3 });
    // Optimistic: the board shows the carrier before the server answers.
    await waitFor(() =>
      expect((screen.getByTestId('assign-carrier-t-1') as HTMLInputElement).value).toBe('Fast Lines (FAST)'),
    );

    await act(async () => {
      answer(
        jsonResponse(
          {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            detail: 'This transport was changed by someone else; reload to see the changes.',
          },
          409,
        ),
      );
    });
    expect((await screen.findByTestId('planning-error')).textContent).toContain('changed by someone else');
    await waitFor(() =>
      expect((screen.getByTestId('assign-carrier-t-1') as HTMLInputElement).value).toBe(''),
    );
  });

  it('saves a changed pickup time with the version', async () => {
    const fetchMock = stubApi(async () => jsonResponse(leg('t-2', 2, { version: 4 })));
    await start();
    typeDateTime(await screen.findByTestId('pickup-t-2'), '18 Nov 2026', '09:30');
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'PATCH') as [string, RequestInit];
    const body = JSON.parse(String(init.body)) as { pickupFrom: string; version: number };
    expect(body.version).toBe(3);
    // 09:30 on the browser's clock, sent with the zone's offset.
    expect(Date.parse(body.pickupFrom)).toBe(new Date('2026-11-18T09:30').getTime());
  });

  it('sends the version the previous save produced when a leg is edited twice in a row', async () => {
    let version = 3;
    const fetchMock = stubApi(async () => jsonResponse(leg('t-2', 2, { version: ++version })));
    await start();
    typeDateTime(await screen.findByTestId('pickup-t-2'), '18 Nov 2026', '09:30');
    typeDateTime(screen.getByTestId('delivery-t-2'), '18 Nov 2026', '15:00');
    const patches = () =>
      fetchMock.mock.calls
        .filter(([, init]) => init?.method === 'PATCH')
        .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as { version: number });
    await waitFor(() => expect(patches()).toHaveLength(2));
    expect(patches().map((p) => p.version)).toEqual([3, 4]);
    expect(screen.queryByTestId('planning-error')).toBeNull();
  });
});

describe('planning flags', () => {
  it('show an icon and a short word, the full sentence as tooltip and for screen readers', async () => {
    stubApi(async () => jsonResponse({}));
    await start();
    const overlap = (await screen.findAllByTestId('flag-vehicle_overlap'))[0] as HTMLElement;
    expect(overlap.textContent).toBe('Overlap');
    expect(overlap.querySelector('svg')).not.toBeNull();
    // t-2 (08:00–14:00 UTC) and t-3 (10:00–16:00 UTC) share the truck, its plate written two ways:
    // t-2's flag names t-3 and when it ends, in the browser's zone.
    const t3End = new Date('2026-11-17T16:00:00.000Z');
    const until = `${String(t3End.getHours()).padStart(2, '0')}:${String(t3End.getMinutes()).padStart(2, '0')}`;
    const sentence = `Vehicle overlap — AB-12-CD is also on leg D-2026-000042-3 until ${until}`;
    expect(overlap.getAttribute('aria-label')).toBe(sentence);
    // Keyboard users reach it and get the same sentence.
    expect(overlap.tabIndex).toBe(0);
    fireEvent.focus(overlap);
    expect((await screen.findByRole('tooltip', { hidden: true })).textContent).toBe(sentence);

    const missing = within(screen.getByTestId('planning-row-t-1')).getByTestId('flag-missing_carrier');
    expect(missing.getAttribute('aria-label')).toBe(
      'Missing carrier — no carrier is assigned to this leg yet',
    );
    expect(
      within(screen.getByTestId('planning-row-t-1'))
        .getByTestId('flag-pickup_passed')
        .getAttribute('aria-label'),
    ).toMatch(
      /^Pickup passed — the pickup window ended 1\d Nov 2026, \d\d:\d\d and the leg is still planned$/,
    );
  });

  it('lay out every carrier group in the same columns of one table', async () => {
    stubApi(async () => jsonResponse({}));
    await start();
    await screen.findByTestId('planning-row-t-1');
    const tables = screen.getAllByRole('table', { hidden: true });
    expect(tables).toHaveLength(1);
    const groups = screen.getAllByTestId(/^planning-group-/);
    // The groups are sections (tbody) of that one table, under one header row.
    expect(groups.every((g) => g.tagName === 'TBODY' && g.closest('table') === tables[0])).toBe(true);
    const head = (tables[0] as HTMLElement).querySelector('thead') as HTMLElement;
    expect(
      within(head)
        .getAllByRole('columnheader', { hidden: true })
        .map((h) => h.textContent),
    ).toEqual(['Leg', 'Flags', 'Route', 'Vehicle', 'Carrier', 'Pickup and delivery']);
    // Each group's header row spans them all.
    for (const g of groups) expect(g.querySelector('th')?.getAttribute('colspan')).toBe('6');
    expect((tables[0] as HTMLElement).querySelectorAll('col')).toHaveLength(6);
  });
});
