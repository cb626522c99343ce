import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { DossierEvents } from './dossier-events.tsx';
import { arrival, CONTAINER, DOSSIER, timelineEvent } from './test-events.ts';

const OTHER = 'TEXU3070079';

function stubEvents(items: unknown[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
    String(input) === `/api/dossiers/${DOSSIER.id}/events`
      ? jsonResponse({ dossierId: DOSSIER.id, items, truncated: false })
      : jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
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
});
