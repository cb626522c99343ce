import type { TimelineEvent } from '@fvg/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { resetDisplayPreferences, setDisplayPreferences } from '../../../lib/display-preferences.ts';
import { applyRecordChanges } from '../../../lib/live-updates.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { ContainerTimeline } from './container-timeline.tsx';
import { formatEventTime, formatPlaceTime } from './event-meta.ts';
import { arrival, CONTAINER, timelineEvent } from './test-events.ts';

const gateIn = timelineEvent({ eventDateTime: '2026-03-01T10:00:00+01:00' });
const load = timelineEvent({
  eventDateTime: '2026-03-03T10:00:00Z',
  equipmentEventTypeCode: 'LOAD',
  transportCall: {
    modeOfTransport: 'VESSEL',
    UNLocationCode: 'NLRTM',
    facilityCode: 'ECTDE',
    facilityTypeCode: 'POTE',
    carrierVoyageNumber: '2103E',
    vessel: { vesselName: 'MAERSK EMDEN', vesselIMONumber: '9321483' },
  },
});
// The ETA at Shanghai, announced and then moved two days: the first estimate is replaced.
const firstEta = arrival({ eventDateTime: '2026-03-20T08:00:00Z', superseded: true });
const movedEta = arrival({
  eventDateTime: '2026-03-22T08:00:00Z',
  previousEventDateTime: '2026-03-20T08:00:00Z',
});
const plannedDischarge = timelineEvent({
  eventClassifierCode: 'PLN',
  eventDateTime: '2026-03-23T12:00:00Z',
  equipmentEventTypeCode: 'DISC',
  UNLocationCode: 'CNSHA',
});

function stubTimeline(items: () => TimelineEvent[], status = 200) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url === `/api/containers/${CONTAINER}/events`) {
      if (status !== 200)
        return jsonResponse(
          { type: 'about:blank', title: 'Not found', status, detail: 'This container does not exist.' },
          status,
        );
      return jsonResponse({ containerNumber: CONTAINER, items: items(), truncated: false });
    }
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (containerNumber = CONTAINER) =>
  renderRoute(<ContainerTimeline containerNumber={containerNumber} />, {
    path: '/containers',
    url: '/containers',
  });

const entries = () => screen.getAllByTestId('timeline-event');

describe('container timeline', () => {
  it('draws the events in time order, planned, estimated and actual each in its own shape and words', async () => {
    // The server's order is not trusted: the timeline sorts by the events' own times.
    stubTimeline(() => [load, plannedDischarge, gateIn, movedEta, firstEta]);
    await start('msku 601167-2');
    await screen.findByTestId('container-timeline');

    expect(entries().map((li) => li.getAttribute('data-event-id'))).toEqual(
      [gateIn, load, firstEta, movedEta, plannedDischarge].map((e) => e.eventID),
    );
    expect(entries().map((li) => within(li).getByTestId('timeline-label').textContent)).toEqual([
      'Gated in',
      'Loaded on board',
      'Arrived',
      'Arrived',
      'Discharged',
    ]);
    // Not by colour alone: the classifier is said in words and drawn by a different marker and badge.
    const words = entries().map((li) => within(li).getByTestId('classifier-badge').textContent);
    expect(words).toEqual(['Actual', 'Actual', 'Estimated', 'Estimated', 'Planned']);
    const markers = entries().map((li) => li.querySelector('[aria-hidden][data-classifier]'));
    expect(markers.map((m) => m?.getAttribute('data-classifier'))).toEqual([
      'ACT',
      'ACT',
      'EST',
      'EST',
      'PLN',
    ]);
    // Each classifier has its own icon inside the marker (check, clock, calendar).
    const icons = new Set(markers.map((m) => m?.querySelector('svg')?.getAttribute('class')));
    expect(icons.size).toBe(3);
    expect(screen.getByTestId('timeline-legend').textContent).toBe('ActualEstimatedPlanned');

    // In the reader's zone like every other time (the tests' display zone is UTC); the place's own
    // time on hover.
    const first = within(entries()[0] as HTMLElement).getByTestId('timeline-time');
    expect(first.textContent).toBe('1 Mar 2026, 09:00');
    expect(first.getAttribute('title')).toBe('At the place of the event: 1 Mar 2026, 10:00 UTC+01:00');
    // Place, vessel and voyage, empty or laden.
    const loaded = within(entries()[1] as HTMLElement).getByTestId('timeline-facts').textContent;
    expect(loaded).toContain('NLRTM · ECTDE (Port terminal)');
    expect(loaded).toContain('MAERSK EMDEN (IMO 9321483) · voyage 2103E');
    expect(loaded).toContain('Laden');
  });

  it('strikes through a replaced estimate and says how the ETA changed', async () => {
    stubTimeline(() => [gateIn, firstEta, movedEta]);
    await start();
    await screen.findByTestId('container-timeline');
    const [, replaced, current] = entries() as HTMLElement[];

    expect(replaced?.hasAttribute('data-superseded')).toBe(true);
    expect(within(replaced as HTMLElement).getByTestId('superseded').textContent).toBe('Estimate replaced');
    expect(
      within(replaced as HTMLElement)
        .getByTestId('timeline-time')
        .querySelector('s')?.textContent,
    ).toBe('20 Mar 2026, 08:00');

    expect(current?.hasAttribute('data-superseded')).toBe(false);
    expect(
      within(current as HTMLElement)
        .getByTestId('timeline-time')
        .querySelector('s'),
    ).toBeNull();
    const change = within(current as HTMLElement).getByTestId('time-change');
    expect(change.textContent).toBe('ETA changed from 20 Mar 2026, 08:00 to 22 Mar 2026, 08:00');
    expect(within(change).getByTestId('previous-time').tagName).toBe('S');
    // Nothing moved for the other events.
    expect(within(entries()[0] as HTMLElement).queryByTestId('time-change')).toBeNull();
  });

  it('measures the actual arrival against the last estimate', async () => {
    const actual = arrival({
      eventClassifierCode: 'ACT',
      eventDateTime: '2026-03-23T06:00:00Z',
      previousEventDateTime: '2026-03-22T08:00:00Z',
    });
    stubTimeline(() => [{ ...movedEta, superseded: true }, actual]);
    await start();
    await screen.findByTestId('container-timeline');
    expect(within(entries()[1] as HTMLElement).getByTestId('time-change').textContent).toBe(
      'Last estimate was 22 Mar 2026, 08:00',
    );
  });

  it('shows an event posted meanwhile once the hub announces the container, without a reload', async () => {
    const items = [gateIn];
    const fetchMock = stubTimeline(() => items);
    const { queryClient } = await start();
    await screen.findByTestId('container-timeline');
    expect(entries()).toHaveLength(1);

    items.push(load);
    await applyRecordChanges(queryClient, [{ kind: 'container-event', id: CONTAINER, action: 'created' }]);
    await waitFor(() => expect(entries()).toHaveLength(2));
    expect(within(entries()[1] as HTMLElement).getByTestId('timeline-label').textContent).toBe(
      'Loaded on board',
    );

    // A vessel event without a container is announced under its own id; it still refreshes the timeline.
    items.push(movedEta);
    await applyRecordChanges(queryClient, [{ kind: 'container-event', id: movedEta.id, action: 'created' }]);
    await waitFor(() => expect(entries()).toHaveLength(3));
    expect(fetchMock.mock.calls.filter(([u]) => String(u).includes('/events'))).toHaveLength(3);
  });

  it('says when there are no events, and shows the server’s reason when the container is unknown', async () => {
    stubTimeline(() => []);
    const first = await start();
    expect((await screen.findByTestId('timeline-empty')).textContent).toContain(
      'No events for this container',
    );
    first.unmount();

    stubTimeline(() => [], 404);
    await start();
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The timeline could not be loaded');
    expect(error.textContent).toContain('This container does not exist.');
  });
});

describe('formatPlaceTime', () => {
  it('keeps the local time of the place with its offset, and falls back for other text', () => {
    expect(formatPlaceTime('2026-03-01T14:12:56+01:00')).toBe('1 Mar 2026, 14:12 UTC+01:00');
    expect(formatPlaceTime('2026-03-01T13:12:56.123Z')).toBe('1 Mar 2026, 13:12 UTC');
    expect(formatPlaceTime('2026-03-01T13:12:56-00:00')).toBe('1 Mar 2026, 13:12 UTC');
    expect(formatPlaceTime(null)).toBe('—');
    expect(formatPlaceTime('soon')).toBe('soon');
  });
});

describe('formatEventTime', () => {
  it('shows the instant in the reader’s zone (the tests’ display zone is UTC), as every other time', () => {
    // 14:12 in Shanghai (UTC+08:00) is 06:12 UTC.
    expect(formatEventTime('2026-03-01T14:12:56+08:00')).toBe('1 Mar 2026, 06:12');
    expect(formatEventTime(null)).toBe('—');
    // A profile in Amsterdam reads the same instant at 07:12 (UTC+01:00 in March).
    setDisplayPreferences({ timeZone: 'Europe/Amsterdam' });
    try {
      expect(formatEventTime('2026-03-01T14:12:56+08:00')).toBe('1 Mar 2026, 07:12');
    } finally {
      resetDisplayPreferences();
    }
  });
});
