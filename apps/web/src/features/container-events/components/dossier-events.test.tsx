import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { typeDateTime } from '../../../test/date-inputs.ts';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { validateDossierSearch } from '../../dossiers/index.ts';
import { DossierEvents } from './dossier-events.tsx';
import { arrival, CONTAINER, DOSSIER, timelineEvent } from './test-events.ts';

const OTHER = 'TEXU3070079';

function stubEvents(items: unknown[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input) === '/api/container-events' && init?.method === 'POST') {
      const event = JSON.parse(String(init.body)) as { eventID: string; equipmentReference: string };
      items.push(timelineEvent({ equipmentReference: event.equipmentReference, source: 'manual' }));
      const result = { index: 0, eventID: event.eventID, status: 'created', id: 'e-new' };
      return jsonResponse({ created: 1, duplicates: 0, invalid: 0, results: [result] }, 201);
    }
    return String(input) === `/api/dossiers/${DOSSIER.id}/events`
      ? jsonResponse({ dossierId: DOSSIER.id, items, truncated: false })
      : jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = () =>
  renderRoute(<DossierEvents dossierId={DOSSIER.id} />, {
    path: '/dossiers/$dossierId',
    url: `/dossiers/${DOSSIER.number}?tab=events`,
  });

describe('dossier events tab', () => {
  it('groups the dossier’s events by container, each a timeline, voyage events last', async () => {
    stubEvents([
      timelineEvent({ eventDateTime: '2026-03-01T10:00:00Z' }),
      arrival({ eventDateTime: '2026-03-20T08:00:00Z' }),
      timelineEvent({ equipmentReference: OTHER, eventDateTime: '2026-03-01T11:00:00Z' }),
      timelineEvent({ equipmentEventTypeCode: 'LOAD', eventDateTime: '2026-03-03T10:00:00Z' }),
    ]);
    await start();
    const groups = await screen.findAllByTestId('dossier-events-group');
    expect(groups.map((g) => g.getAttribute('data-container'))).toEqual([CONTAINER, OTHER, null]);
    const labels = (g: HTMLElement) =>
      within(g)
        .getAllByTestId('timeline-label')
        .map((l) => l.textContent);
    expect(labels(groups[0] as HTMLElement)).toEqual(['Gated in', 'Loaded on board']);
    expect(labels(groups[1] as HTMLElement)).toEqual(['Gated in']);
    expect(labels(groups[2] as HTMLElement)).toEqual(['Arrived']);
    expect(groups[2]?.textContent).toContain('Vessel and voyage events');
    // A container's number leads to its whole timeline on /containers.
    expect(
      within(groups[0] as HTMLElement)
        .getByRole('link', { name: CONTAINER })
        .getAttribute('href'),
    ).toBe(`/containers?open=${CONTAINER}`);
  });

  it('says when the dossier has no events yet', async () => {
    stubEvents([]);
    await start();
    expect((await screen.findByTestId('timeline-empty')).textContent).toContain(
      'No container events for this dossier yet',
    );
  });

  it('lets staff add an event to any container of the dossier, also one without events', async () => {
    giveElementsSize();
    const shown = vi.spyOn(notifications, 'show');
    stubEvents([timelineEvent({ eventDateTime: '2026-03-01T10:00:00Z' })]);
    const { router } = await renderRoute(
      <DossierEvents dossierId={DOSSIER.id} containers={[CONTAINER, OTHER]} staff />,
      {
        path: '/dossiers/$dossierId',
        url: `/dossiers/${DOSSIER.number}?tab=events`,
        validateSearch: validateDossierSearch,
      },
    );
    const groups = await screen.findAllByTestId('dossier-events-group');
    // The container without events has its group, said in words, with its own "Add event".
    expect(groups.map((g) => g.getAttribute('data-container'))).toEqual([CONTAINER, OTHER]);
    expect(within(groups[1] as HTMLElement).getByTestId('container-no-events').textContent).toBe(
      'No events for this container yet.',
    );
    fireEvent.click(within(groups[1] as HTMLElement).getByTestId(`add-event-${OTHER}`));
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ tab: 'events', add: 'event', container: OTHER }),
    );
    const form = await screen.findByTestId('manual-event-form');
    const field = (name: string) => within(form).getByTestId(`field-${name}`) as HTMLInputElement;
    expect(field('equipmentReference').value).toBe(OTHER);
    const choose = (name: string, label: string) => {
      fireEvent.click(field(name));
      const list = document.getElementById(field(name).getAttribute('aria-controls') ?? '') as HTMLElement;
      fireEvent.click(within(list).getByRole('option', { name: label, hidden: true }));
    };
    choose('equipmentEventTypeCode', 'Gated in (GTIN)');
    choose('emptyIndicatorCode', 'Laden');
    fireEvent.change(field('transportCall.UNLocationCode'), { target: { value: 'NLRTM' } });
    choose('transportCall.facilityTypeCode', 'Port terminal (POTE)');
    choose('transportCall.modeOfTransport', 'Truck');
    typeDateTime(field('eventDateTime'), '2026-03-02', '09:30');
    fireEvent.click(within(form).getByTestId('form-submit'));

    await waitFor(() => expect(screen.queryByTestId('manual-event-form')).toBeNull());
    expect(shown).toHaveBeenCalledWith(
      expect.objectContaining({ message: `Gated in (Actual) added to ${OTHER}.` }),
    );
    expect(router.state.location.search).toEqual({ tab: 'events' });
    // The tab reads the dossier's events again: the container's group now has its timeline.
    await waitFor(() => {
      const other = screen
        .getAllByTestId('dossier-events-group')
        .find((g) => g.getAttribute('data-container') === OTHER) as HTMLElement;
      expect(
        within(other)
          .getAllByTestId('timeline-label')
          .map((l) => l.textContent),
      ).toEqual(['Gated in']);
    });
  });

  it('offers customers no way to add events', async () => {
    stubEvents([]);
    await renderRoute(<DossierEvents dossierId={DOSSIER.id} containers={[CONTAINER]} />, {
      path: '/dossiers/$dossierId',
      url: `/dossiers/${DOSSIER.number}?tab=events&add=event&container=${CONTAINER}`,
      validateSearch: validateDossierSearch,
    });
    const group = await screen.findByTestId('dossier-events-group');
    expect(group.getAttribute('data-container')).toBe(CONTAINER);
    expect(screen.queryByTestId(`add-event-${CONTAINER}`)).toBeNull();
    expect(screen.queryByTestId('manual-event-form')).toBeNull();
  });
});
