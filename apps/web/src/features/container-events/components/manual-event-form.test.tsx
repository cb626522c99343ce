import type { TimelineEvent } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsTo,
  gateIn,
  latest,
  startContainersScreen,
  stubContainersApi,
} from '../../../test/container-events-screen.tsx';
import { dateInputOf, typeDateTime, typeTime } from '../../../test/date-inputs.ts';
import { giveElementsSize, jsonResponse } from '../../../test/render-route.tsx';
import { CONTAINER, timelineEvent } from './test-events.ts';

// Times are entered in the browser's zone: Amsterdam here, UTC+01:00 in March, UTC+02:00 in summer.
// (vi.stubEnv: the zone of the machine comes back after the file, unset if it was; assigning the saved
// `undefined` set TZ to the string "undefined" for the files that share this worker.)
beforeAll(() => {
  vi.stubEnv('TZ', 'Europe/Amsterdam');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const NOW = new Date('2026-03-05T12:00:00Z');
const EVENTS = '/api/container-events';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const form = () => screen.getByTestId('manual-event-form');
const field = (name: string) => within(form()).getByTestId(`field-${name}`) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
function choose(name: string, label: string) {
  fireEvent.click(field(name));
  // The field's own list (the list's filters offer the same labels); still in its opening
  // transition in jsdom, hence `hidden`.
  const list = document.getElementById(field(name).getAttribute('aria-controls') ?? '') as HTMLElement;
  fireEvent.click(within(list).getByRole('option', { name: label, hidden: true }));
}
const errorOf = (name: string) => {
  // A date-time field is a group (date and time) under one label: its message is the group's.
  if (!(field(name) instanceof HTMLInputElement)) {
    return field(name).querySelector('.mantine-InputWrapper-error')?.textContent ?? '';
  }
  const ids = (field(name).getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
};
const submit = () => fireEvent.click(within(form()).getByTestId('form-submit'));
const sent = (fetchMock: ReturnType<typeof stubContainersApi>) =>
  callsTo(fetchMock, EVENTS).map(({ init }) => JSON.parse(String(init?.body)) as Record<string, unknown>);

/** The ingest's answer to one new event. */
const created = (init: RequestInit | undefined) => {
  const { eventID } = JSON.parse(String(init?.body)) as { eventID: string };
  const result = { index: 0, eventID, status: 'created', id: '0190a000-0000-7000-8000-0000000000ff' };
  return jsonResponse({ created: 1, duplicates: 0, invalid: 0, results: [result] }, 201);
};

describe('Add event (by hand)', () => {
  beforeEach(() => {
    giveElementsSize();
    // Only the clock is fixed: timers stay real, so the screen's waits work as usual.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('posts an equipment event in the DCSA shape from the open timeline; the form closes and the timeline shows it', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const items: TimelineEvent[] = [gateIn, latest];
    const fetchMock = stubContainersApi('staff', {
      [`GET /api/containers/${CONTAINER}/events`]: () =>
        jsonResponse({ containerNumber: CONTAINER, items, truncated: false }),
      [`POST ${EVENTS}`]: (init) => {
        items.push(timelineEvent({ source: 'manual', eventDateTime: '2026-03-05T09:30:00+01:00' }));
        return created(init);
      },
    });
    const { router } = await startContainersScreen(`/containers?open=${CONTAINER}`);
    fireEvent.click(await screen.findByTestId('add-event'));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ open: CONTAINER, add: 1 }));

    await screen.findByTestId('manual-event-form');
    expect(field('equipmentReference').value).toBe(CONTAINER);
    expect(field('equipmentReference').readOnly).toBe(true);
    // Now, in the browser's zone, as the starting point.
    expect(dateInputOf(field('eventDateTime')).value).toBe('5 Mar 2026');
    expect(within(field('eventDateTime')).getByLabelText('Date and time hours')).toHaveProperty(
      'value',
      '13',
    );
    choose('equipmentEventTypeCode', 'Gated in (GTIN)');
    typeTime(field('eventDateTime'), '09:30');
    choose('emptyIndicatorCode', 'Laden');
    type('transportCall.UNLocationCode', 'nlrtm');
    choose('transportCall.facilityTypeCode', 'Port terminal (POTE)');
    choose('transportCall.modeOfTransport', 'Truck');
    type('carrierBookingReference', ' BK-2026-7 ');
    submit();

    await waitFor(() => expect(screen.queryByTestId('manual-event-form')).toBeNull());
    const [event] = sent(fetchMock);
    expect(event).toEqual({
      eventID: expect.stringMatching(UUID),
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      eventDateTime: '2026-03-05T09:30:00+01:00',
      eventCreatedDateTime: NOW.toISOString(),
      equipmentEventTypeCode: 'GTIN',
      equipmentReference: CONTAINER,
      emptyIndicatorCode: 'LADEN',
      transportCall: { modeOfTransport: 'TRUCK', UNLocationCode: 'NLRTM', facilityTypeCode: 'POTE' },
      documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: 'BK-2026-7' }],
    });
    expect(shown).toHaveBeenCalledWith(
      expect.objectContaining({ message: `Gated in (Actual) added to ${CONTAINER}.` }),
    );
    expect(router.state.location.search).toEqual({ open: CONTAINER });
    // The timeline is read again at once (the hub announces it too).
    const timeline = await screen.findByTestId('container-timeline');
    await waitFor(() => expect(within(timeline).getAllByTestId('timeline-event')).toHaveLength(3));
  });

  it('shows a missing UN/LOCODE and an actual event in the future on their fields, and sends nothing', async () => {
    const fetchMock = stubContainersApi('staff', { [`POST ${EVENTS}`]: created });
    await startContainersScreen(`/containers?open=${CONTAINER}&add=1`);
    await screen.findByTestId('manual-event-form');
    choose('equipmentEventTypeCode', 'Discharged (DISC)');
    choose('emptyIndicatorCode', 'Empty');
    choose('transportCall.modeOfTransport', 'Rail');
    typeDateTime(field('eventDateTime'), '8 Mar 2026', '10:00');
    submit();

    await waitFor(() => expect(errorOf('transportCall.UNLocationCode')).toBe('UN/LOCODE is required'));
    expect(errorOf('eventDateTime')).toContain(
      'The actual time cannot be later than when the event was recorded',
    );
    expect(dateInputOf(field('eventDateTime')).getAttribute('aria-invalid')).toBe('true');

    // Estimated, the same time is fine; the place is still missing.
    choose('eventClassifierCode', 'Estimated');
    submit();
    await waitFor(() => expect(errorOf('eventDateTime')).toBe(''));
    expect(errorOf('transportCall.UNLocationCode')).toBe('UN/LOCODE is required');
    expect(callsTo(fetchMock, EVENTS)).toHaveLength(0);
  });

  it('puts the server’s problem on transportCall.UNLocationCode onto the UN/LOCODE field of a transport event', async () => {
    const fetchMock = stubContainersApi('staff', {
      [`POST ${EVENTS}`]: () =>
        jsonResponse(
          {
            type: 'about:blank',
            title: 'Bad request',
            status: 400,
            detail: 'The event has invalid fields: transportCall.UNLocationCode.',
            errors: [{ field: 'transportCall.UNLocationCode', message: 'NLXXX is no known UN/LOCODE' }],
          },
          400,
        ),
    });
    await startContainersScreen(`/containers?open=${CONTAINER}&add=1`);
    await screen.findByTestId('manual-event-form');
    choose('eventType', 'Transport');
    // A transport event has no empty/laden; its type codes are arrival and departure.
    expect(within(form()).queryByTestId('field-emptyIndicatorCode')).toBeNull();
    choose('transportEventTypeCode', 'Arrived (ARRI)');
    choose('eventClassifierCode', 'Estimated');
    typeDateTime(field('eventDateTime'), '20 Mar 2026', '08:00');
    type('transportCall.UNLocationCode', 'NLXXX');
    choose('transportCall.modeOfTransport', 'Vessel');
    type('transportCall.vessel.vesselName', 'MAERSK EMDEN');
    type('transportCall.vessel.vesselIMONumber', '9321483');
    type('transportCall.carrierVoyageNumber', '2107w');
    type('transportDocumentReference', 'MBL-7');
    submit();

    await waitFor(() => expect(errorOf('transportCall.UNLocationCode')).toBe('NLXXX is no known UN/LOCODE'));
    expect(screen.getByTestId('manual-event-form')).toBeTruthy();
    expect(sent(fetchMock)).toEqual([
      {
        eventID: expect.stringMatching(UUID),
        eventType: 'TRANSPORT',
        eventClassifierCode: 'EST',
        eventDateTime: '2026-03-20T08:00:00+01:00',
        eventCreatedDateTime: NOW.toISOString(),
        transportEventTypeCode: 'ARRI',
        transportCall: {
          modeOfTransport: 'VESSEL',
          UNLocationCode: 'NLXXX',
          carrierVoyageNumber: '2107W',
          vessel: { vesselName: 'MAERSK EMDEN', vesselIMONumber: '9321483' },
        },
        documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MBL-7' }],
        references: [{ referenceType: 'EQ', referenceValue: CONTAINER }],
      },
    ]);
  });

  it('is not offered to customers, not even through the URL', async () => {
    stubContainersApi('customer');
    await startContainersScreen(`/containers?open=${CONTAINER}&add=1`);
    const timeline = await screen.findByTestId('container-timeline');
    expect(within(timeline).getAllByTestId('timeline-event')).toHaveLength(2);
    expect(screen.queryByTestId('add-event')).toBeNull();
    expect(screen.queryByTestId('manual-event-form')).toBeNull();
  });
});
