import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  callsTo as calls,
  page,
  type StubRoutes,
  startContainersScreen as start,
  stubContainersApi,
} from '../../../test/container-events-screen.tsx';
import { giveElementsSize, jsonResponse } from '../../../test/render-route.tsx';
import { CANDIDATE, CONTAINER, DOSSIER, unlinkedEvent } from './test-events.ts';

const stray = unlinkedEvent({
  equipmentReference: 'TEXU3070079',
  reason: 'matched',
  suggestedDossier: DOSSIER,
  candidates: [CANDIDATE],
  documentReferences: [{ documentReferenceType: 'TRD', documentReferenceValue: 'MBL-7' }],
});
/** Two parties' dossiers name its container within its dates: staff decide. */
const contested = unlinkedEvent({
  equipmentReference: 'MSCU1234565',
  reason: 'ambiguous',
  candidates: [
    CANDIDATE,
    {
      id: '7e0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f62',
      number: 'D-2026-000043',
      customer: { id: '1c7a1e52-7c1e-4a0e-8f0e-1b2c3d4e5f63', code: 'GLOBEX', name: 'Globex Logistics' },
    },
  ],
});
const orphan = unlinkedEvent({ equipmentReference: 'CSQU3054383' });

function stubApi(
  role: string,
  link: () => Response = () => jsonResponse({ linked: [{ ...stray, dossier: DOSSIER }], leftUnlinked: 0 }),
) {
  const routes: StubRoutes = {
    'GET /api/container-events/unlinked': () => jsonResponse(page([stray, contested, orphan])),
    [`POST /api/container-events/${stray.id}/link`]: link,
  };
  return stubContainersApi(role, routes);
}

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

    // The row as it is now: the list may have rendered its rows again since they first showed.
    fireEvent.click(screen.getByTestId(`row-container-${CONTAINER}`));
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
    expect(within(row).getByTestId('unlinked-reason').textContent).toBe(`${DOSSIER.number} (ACME)`);
    fireEvent.click(within(row).getByTestId('link-event'));
    const form = await screen.findByTestId('link-form');
    expect((within(form).getByTestId('field-dossierId') as HTMLInputElement).value).toBe(DOSSIER.number);
    expect(within(form).getByText(`${DOSSIER.number} (ACME) matches this event now.`)).toBeTruthy();
    fireEvent.click(within(form).getByTestId('form-submit'));
    expect(await within(form).findByText('No such dossier')).toBeTruthy();
    const sent = calls(fetchMock, `/api/container-events/${stray.id}/link`);
    expect(JSON.parse(String(sent[0]?.init?.body))).toEqual({
      dossierId: DOSSIER.id,
      applyToContainer: true,
    });

    answer = () => jsonResponse({ linked: [{ ...stray, dossier: DOSSIER }], leftUnlinked: 2 });
    const shown = vi.spyOn(notifications, 'show');
    const before = calls(fetchMock, '/api/container-events/unlinked').length;
    fireEvent.click(within(form).getByTestId('form-submit'));
    await waitFor(() => expect(screen.queryByTestId('link-form')).toBeNull());
    // Other voyages' and contested events of the container are not taken along: staff are told so.
    expect(shown).toHaveBeenCalledWith(
      expect.objectContaining({
        message: `1 event linked to ${DOSSIER.number}. 2 events of ${stray.equipmentReference} still unlinked.`,
      }),
    );
    // The list refreshes at once (the hub announces it too).
    await waitFor(() =>
      expect(calls(fetchMock, '/api/container-events/unlinked').length).toBeGreaterThan(before),
    );
  });

  it('says in words why each unlinked event waits; a contested one preselects no dossier', async () => {
    stubApi('staff');
    await start('/containers?tab=unlinked');
    // Why the others wait, in words: several parties' dossiers claim one, none the other.
    const both = within(await screen.findByTestId(`row-unlinked-${contested.eventID}`)).getByTestId(
      'unlinked-reason',
    );
    expect(both.textContent).toBe('Ambiguous: 2 dossiers');
    expect(both.getAttribute('title')).toBe(
      `Ambiguous: 2 dossiers claim this event (${DOSSIER.number} (ACME), D-2026-000043 (GLOBEX)). Choose one.`,
    );
    const none = within(screen.getByTestId(`row-unlinked-${orphan.eventID}`)).getByTestId('unlinked-reason');
    expect(none.textContent).toBe('No match');
    expect(none.getAttribute('title')).toBe(
      'No active dossier names its container, booking or BL within its dates.',
    );

    // A contested event preselects nothing: the form says who claims it, staff choose.
    fireEvent.click(
      within(await screen.findByTestId(`row-unlinked-${contested.eventID}`)).getByTestId('link-event'),
    );
    const choose = await screen.findByTestId('link-form');
    expect(within(choose).getByText(/^Ambiguous: 2 dossiers claim this event/)).toBeTruthy();
    expect((within(choose).getByTestId('field-dossierId') as HTMLInputElement).value).toBe('');
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

  it('sends the instants of a dashboard link ("last 24 hours") and shows them as dates on chips', async () => {
    const fetchMock = stubApi('staff');
    await start('/containers?eventType=EQUIPMENT&from=2026-11-23T15:00:00.000Z&to=2026-11-24T15:00:00.000Z');
    await screen.findByTestId(`row-container-${CONTAINER}`);
    expect(Object.fromEntries(calls(fetchMock, '/api/containers')[0]?.url.searchParams ?? [])).toMatchObject({
      eventType: 'EQUIPMENT',
      from: '2026-11-23T15:00:00.000Z',
      to: '2026-11-24T15:00:00.000Z',
    });
    expect(screen.getByTestId('filter-from').textContent).toMatch(
      /^Latest event from: \d{1,2} Nov 2026, \d{2}:\d{2}$/,
    );
  });
});
