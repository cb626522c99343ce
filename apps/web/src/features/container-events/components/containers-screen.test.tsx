import type { ContainerSummary } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../lib/session.ts';
import ContainerEventsScreen from '../../../routes/container-events.tsx';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { validateContainersSearch } from '../search.ts';
import { CONTAINER, DOSSIER, timelineEvent, unlinkedEvent } from './test-events.ts';

const latest = timelineEvent({ eventDateTime: '2026-03-03T10:00:00Z', equipmentEventTypeCode: 'LOAD' });
const summary: ContainerSummary = {
  id: 's-1',
  containerNumber: CONTAINER,
  ISOEquipmentCode: '22G1',
  dossier: { ...DOSSIER, customer: { id: 'p-acme', code: 'ACME', name: 'Acme Trading' } },
  status: 'LOAD',
  emptyIndicatorCode: 'LADEN',
  location: { UNLocationCode: 'NLRTM', facilityCode: 'ECTDE', facilityTypeCode: 'POTE' },
  eventCount: 2,
  lastEventAt: '2026-03-03T10:00:00.000Z',
  updatedAt: '2026-03-03T10:06:00.000Z',
  latestEvent: latest,
};
const stray = unlinkedEvent({
  equipmentReference: 'TEXU3070079',
  suggestedDossier: DOSSIER,
  documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MBL-7' }],
});
const page = <T,>(items: T[]) => ({
  items,
  total: items.length,
  totalIsEstimate: false,
  page: 1,
  pageSize: 50,
  nextCursor: null,
});

function stubApi(
  role: string,
  link: () => Response = () => jsonResponse({ linked: [{ ...stray, dossier: DOSSIER }] }),
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const path = url.pathname;
    if (path === '/api/me')
      return jsonResponse({
        id: 'u1',
        Email: 'sam@fvg.local',
        name: 'Sam',
        role,
        party: null,
        access: { cw_access: false },
      });
    if (path === '/api/containers') return jsonResponse(page([summary]));
    if (path === '/api/container-events/unlinked') return jsonResponse(page([stray]));
    if (path === `/api/containers/${CONTAINER}/events`)
      return jsonResponse({
        containerNumber: CONTAINER,
        items: [timelineEvent(), { ...latest, superseded: false, previousEventDateTime: null }],
        truncated: false,
      });
    if (path === `/api/container-events/${stray.id}/link` && init?.method === 'POST') return link();
    if (path === '/api/dossiers') return jsonResponse(page([]));
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof stubApi>, path: string) =>
  fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://app.test'), init }))
    .filter(({ url }) => url.pathname === path);

const start = (url: string) => {
  setToken('a.b.c');
  return renderRoute(<ContainerEventsScreen />, {
    path: '/containers',
    url,
    validateSearch: validateContainersSearch,
  });
};

describe('/containers', () => {
  beforeEach(() => giveElementsSize());

  it('lists containers with their latest event; a row opens its timeline in a dialog kept in the URL', async () => {
    const fetchMock = stubApi('staff');
    const { router } = await start('/containers?q=MSKU&sort=containerNumber');

    const row = await screen.findByTestId(`row-container-${CONTAINER}`);
    expect(row.textContent).toContain('Loaded on board');
    expect(row.textContent).toContain('Actual');
    expect(row.textContent).toContain('NLRTM · ECTDE');
    expect(row.textContent).toContain(DOSSIER.number);
    expect(Object.fromEntries(calls(fetchMock, '/api/containers')[0]?.url.searchParams ?? [])).toEqual({
      page: '1',
      pageSize: '50',
      sort: 'containerNumber',
      q: 'MSKU',
    });

    fireEvent.click(row);
    await waitFor(() => expect(router.state.location.search).toMatchObject({ open: CONTAINER }));
    const dialog = await screen.findByTestId('container-timeline');
    expect(within(dialog).getAllByTestId('timeline-event')).toHaveLength(2);
    expect(within(dialog).getByTestId('timeline-dossiers').textContent).toContain(DOSSIER.number);
  });

  it('gives staff the unlinked events and links one to a dossier, showing the server’s problem first', async () => {
    let answer = () =>
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Bad request',
          status: 400,
          detail: 'The request has invalid fields.',
          errors: [{ field: 'dossierId', message: 'No such dossier' }],
        },
        400,
      );
    const fetchMock = stubApi('staff', () => answer());
    const { router } = await start('/containers?q=MSKU&status=LOAD');
    await screen.findByTestId(`row-container-${CONTAINER}`);

    // Another tab starts from its own defaults: the containers' search and filters go.
    fireEvent.click(screen.getByTestId('tab-unlinked'));
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'unlinked' }));
    const row = await screen.findByTestId(`row-unlinked-${stray.eventID}`);
    expect(row.textContent).toContain('MBL-7');
    expect(row.textContent).toContain(DOSSIER.number);

    fireEvent.click(within(row).getByTestId('link-event'));
    const form = await screen.findByTestId('link-form');
    expect((within(form).getByTestId('field-dossierId') as HTMLInputElement).value).toBe(DOSSIER.number);
    expect(within(form).getByText(`${DOSSIER.number} matches this event now.`)).toBeTruthy();
    fireEvent.click(within(form).getByTestId('form-submit'));
    expect(await within(form).findByText('No such dossier')).toBeTruthy();
    const sent = calls(fetchMock, `/api/container-events/${stray.id}/link`);
    expect(JSON.parse(String(sent[0]?.init?.body))).toEqual({
      dossierId: DOSSIER.id,
      applyToContainer: true,
    });

    answer = () => jsonResponse({ linked: [{ ...stray, dossier: DOSSIER }] });
    const before = calls(fetchMock, '/api/container-events/unlinked').length;
    fireEvent.click(within(form).getByTestId('form-submit'));
    await waitFor(() => expect(screen.queryByTestId('link-form')).toBeNull());
    // The list refreshes at once (the hub announces it too).
    await waitFor(() =>
      expect(calls(fetchMock, '/api/container-events/unlinked').length).toBeGreaterThan(before),
    );
  });

  it('offers staff the CSV import; customers get their containers and no staff tools', async () => {
    stubApi('staff');
    const staff = await start('/containers?tab=import');
    expect(await screen.findByTestId('csv-import')).toBeTruthy();
    staff.unmount();

    const fetchMock = stubApi('customer');
    await start('/containers?tab=import');
    await screen.findByTestId(`row-container-${CONTAINER}`);
    expect(screen.queryByTestId('tab-unlinked')).toBeNull();
    expect(screen.queryByTestId('tab-import')).toBeNull();
    expect(screen.queryByTestId('csv-import')).toBeNull();
    expect(calls(fetchMock, '/api/container-events/unlinked')).toHaveLength(0);
  });
});
