import type { Planning, PlanningItem } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dayBounds, shiftDay, timelineLanes } from '../features/transports/components/planning-timeline.tsx';
import { validatePlanningSearch } from '../features/transports/search.ts';
import { aTransport } from '../features/transports/test-support.ts';
import { setToken } from '../lib/session.ts';
import { giveElementsSize, jsonResponse, meResponse, renderRoute } from '../test/render-route.tsx';
import PlanningListScreen from './planning-list.tsx';

// The day's hours are the browser's: Amsterdam here (UTC+01:00 in November).
// (vi.stubEnv: the zone of the machine comes back after the file, unset if it was; assigning the saved
// `undefined` set TZ to the string "undefined" for the files that share this worker.)
beforeAll(() => {
  vi.stubEnv('TZ', 'Europe/Amsterdam');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const CARRIER = { id: '3b1f7a52-1c2d-4e5f-8a9b-0c1d2e3f4a5b', code: 'TRUCKS', name: 'Trucks BV' };
const DAY = '2026-11-17';

const item = (id: string, sequence: number, extra: Partial<PlanningItem>): PlanningItem => ({
  ...aTransport(id, sequence),
  flags: [],
  ...extra,
});

// Two legs of one truck at the same time (its plate written two ways), one later on another truck,
// one from the evening before to the morning, and one without carrier or vehicle.
const items: PlanningItem[] = [
  item('t-night', 4, {
    carrier: CARRIER,
    truckPlate: 'XY-99-ZZ',
    pickupFrom: '2026-11-16T21:00:00Z',
    deliveryTo: '2026-11-17T05:00:00Z',
  }),
  item('t-a', 1, {
    carrier: CARRIER,
    truckPlate: 'AB-12-CD',
    pickupFrom: '2026-11-17T07:00:00Z',
    deliveryTo: '2026-11-17T13:00:00Z',
    flags: ['vehicle_overlap'],
  }),
  item('t-b', 2, {
    carrier: CARRIER,
    truckPlate: 'AB 12 CD',
    pickupFrom: '2026-11-17T09:00:00Z',
    deliveryTo: '2026-11-17T11:00:00Z',
    flags: ['vehicle_overlap'],
  }),
  item('t-c', 3, {
    carrier: CARRIER,
    truckPlate: 'AB-12-CD',
    pickupFrom: '2026-11-17T13:00:00Z',
    deliveryTo: '2026-11-17T15:00:00Z',
  }),
  item('t-open', 5, {
    pickupFrom: '2026-11-17T11:00:00Z',
    deliveryTo: '2026-11-17T17:00:00Z',
    flags: ['missing_carrier'],
  }),
];

describe('timelineLanes', () => {
  it('makes a lane per carrier and vehicle, bars over the day’s hours, overlapping legs stacked', () => {
    const [unassigned, trucks] = timelineLanes(items, DAY);
    expect(unassigned?.carrier).toBeNull();
    expect(unassigned?.lanes.map((l) => l.vehicle)).toEqual(['No vehicle']);
    expect(trucks?.lanes.map((l) => l.vehicle)).toEqual(['AB-12-CD', 'XY-99-ZZ']);

    const ab = trucks?.lanes[0];
    const bar = (id: string) => ab?.bars.find((b) => b.item.id === id);
    // 08:00–14:00 local: a quarter of the day in, a quarter long.
    expect(bar('t-a')?.left).toBeCloseTo(100 * (8 / 24));
    expect(bar('t-a')?.width).toBeCloseTo(100 * (6 / 24));
    // t-b lies within t-a: the next row. t-c starts when t-a ends: back on the first row.
    expect([bar('t-a')?.row, bar('t-b')?.row, bar('t-c')?.row]).toEqual([0, 1, 0]);
    expect(ab?.rows).toBe(2);

    // The night leg starts the day before: cut at midnight, ends at 06:00 local.
    const night = trucks?.lanes[1]?.bars[0];
    expect(night).toMatchObject({ left: 0, cutStart: true, cutEnd: false });
    expect(night?.width).toBeCloseTo(100 * (6 / 24));
    // A leg of another day has no bar.
    expect(timelineLanes(items, '2026-11-19')).toEqual([
      { key: 'unassigned', carrier: null, lanes: [] },
      { key: CARRIER.id, carrier: CARRIER, lanes: [] },
    ]);
  });

  it('knows the days of the browser’s zone, summer time included', () => {
    const { start, end } = dayBounds('2026-10-25');
    expect((end - start) / 3_600_000).toBe(25);
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
  });
});

function stubApi(role: string) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://app.test');
    if (url.pathname === '/api/me') return meResponse(role);
    if (url.pathname === '/api/planning') {
      const from = url.searchParams.get('from') as string;
      const page: Planning = { from, to: from, total: items.length, items, nextCursor: null };
      return jsonResponse(page);
    }
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (url: string) => {
  setToken('a.b.c');
  return renderRoute(<PlanningListScreen />, {
    path: '/planning/list',
    url,
    validateSearch: validatePlanningSearch,
  });
};

describe('/planning/list', () => {
  beforeEach(() => giveElementsSize());

  it('switches between table and timeline, the view and day kept in the URL', async () => {
    const fetchMock = stubApi('staff');
    const { router } = await start('/planning/list?from=2026-11-16&to=2026-11-22');
    // The first render of the board (Mantine, the router) takes its time on a busy machine.
    await screen.findByTestId('planning-table', {}, { timeout: 5000 });

    fireEvent.click(screen.getByRole('radio', { name: 'Timeline', hidden: true }));
    // Today is not in the range: the timeline opens on its first day.
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({ view: 'timeline', day: '2026-11-16' }),
    );
    await screen.findByTestId('planning-timeline');
    fireEvent.click(screen.getByTestId('timeline-next'));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ day: DAY }));
    await waitFor(() => {
      const asked = fetchMock.mock.calls
        .map(([u]) => new URL(String(u), 'http://app.test'))
        .filter((u) => u.pathname === '/api/planning')
        .map((u) => `${u.searchParams.get('from')}..${u.searchParams.get('to')}`);
      expect(asked).toContain(`${DAY}..${DAY}`);
    });

    const lanes = await screen.findAllByTestId('timeline-lane');
    expect(lanes.map((l) => l.dataset.vehicle)).toEqual(['No vehicle', 'AB-12-CD', 'XY-99-ZZ']);
    // Every leg of the day is a bar: a link to the leg that Tab reaches, its overlap said and shown.
    const overlap = within(lanes[1] as HTMLElement).getByTestId('timeline-bar-t-b');
    expect(overlap.tagName).toBe('A');
    expect(overlap.getAttribute('href')).toBe('/transports?open=t-b');
    expect(overlap.hasAttribute('data-overlap')).toBe(true);
    expect(overlap.textContent).toBe('D-2026-000042-2 · Overlap');
    expect(overlap.getAttribute('aria-label')).toContain(
      'Vehicle overlap — AB 12 CD is also on leg D-2026-000042-1 until 14:00',
    );
    expect(overlap.style.top).toBe('33px');
    const single = within(lanes[1] as HTMLElement).getByTestId('timeline-bar-t-c');
    expect(single.hasAttribute('data-overlap')).toBe(false);
    expect(single.getAttribute('aria-label')).toContain('14:00–16:00');

    fireEvent.click(screen.getByRole('radio', { name: 'Table', hidden: true }));
    await waitFor(() => expect(router.state.location.search).not.toHaveProperty('view'));
    await screen.findByTestId('planning-table');
  });

  it('shows customers no planning: no access, and nothing asked of the API', async () => {
    const fetchMock = stubApi('customer');
    await start('/planning/list?view=timeline&day=2026-11-17');
    expect((await screen.findByTestId('no-access')).textContent).toContain('not available to your account');
    expect(screen.queryByTestId('planning-timeline')).toBeNull();
    expect(screen.queryByTestId('planning-board')).toBeNull();
    const paths = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://app.test').pathname);
    expect(paths).not.toContain('/api/planning');
  });
});
