import type { Transport } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { validateDossierSearch } from '../../dossiers/index.ts';
import { aTransport } from '../test-support.ts';
import { DossierTransports } from './dossier-transports.tsx';

const DOSSIER = {
  id: '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60',
  number: 'D-2026-000042',
  containers: ['MSKU6011672', 'TEXU3070079', 'CSQU3054383'],
};
const carriers: LookupSource = {
  key: ['parties', 'lookup', 'carrier'],
  search: async () => [],
  byId: async () => null,
};

const page = (items: Transport[]) => ({
  items,
  total: items.length,
  totalIsEstimate: false,
  page: 1,
  pageSize: 200,
  nextCursor: null,
});

function stubApi() {
  const legs: Transport[] = [aTransport('t-1', 1, { containers: ['MSKU6011672'] })];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    if (url.pathname === '/api/transports' && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as Partial<Transport>;
      const leg = aTransport('t-2', 2, {
        containers: body.containers ?? [],
        pickupLocode: body.pickupLocode ?? null,
      });
      legs.push(leg);
      return jsonResponse(leg, 201);
    }
    if (url.pathname === '/api/transports') return jsonResponse(page(legs));
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (staff: boolean, url = `/dossiers/${DOSSIER.number}?tab=transports`) =>
  renderRoute(<DossierTransports dossier={DOSSIER} staff={staff} carrierLookup={carriers} />, {
    path: '/dossiers/$dossierId',
    url,
    validateSearch: validateDossierSearch,
  });

describe('dossier transports tab', () => {
  beforeEach(() => giveElementsSize());

  it('adds a leg for this dossier, its containers ticked from the dossier’s; the tab then lists it', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const fetchMock = stubApi();
    const { router } = await start(true);
    await screen.findByTestId(`row-transport-${DOSSIER.number}-1`);

    fireEvent.click(screen.getByTestId('add-leg'));
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'transports', add: 'leg' }));
    const form = await screen.findByTestId('transport-form');
    // The dossier is fixed: shown, not editable, not a picker.
    const dossierField = within(form).getByTestId('field-dossierId') as HTMLInputElement;
    expect(dossierField.value).toBe(DOSSIER.number);
    expect(dossierField.readOnly).toBe(true);
    // The dossier's containers are offered to tick, none ticked yet.
    const boxes = within(within(form).getByTestId('field-containers')).getAllByRole('checkbox', {
      hidden: true,
    }) as HTMLInputElement[];
    expect(boxes.map((b) => b.value)).toEqual(DOSSIER.containers);
    expect(boxes.every((b) => !b.checked)).toBe(true);
    fireEvent.click(boxes[2] as HTMLInputElement);
    fireEvent.click(boxes[0] as HTMLInputElement);
    fireEvent.change(within(form).getByTestId('field-pickupLocode'), { target: { value: 'nlrtm' } });
    fireEvent.click(within(form).getByTestId('form-submit'));

    await waitFor(() => expect(screen.queryByTestId('transport-form')).toBeNull());
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toMatchObject({
      dossierId: DOSSIER.id,
      mode: 'road',
      pickupLocode: 'NLRTM',
      // In the dossier's order, whatever the order of ticking.
      containers: ['MSKU6011672', 'CSQU3054383'],
    });
    expect(router.state.location.search).toEqual({ tab: 'transports' });
    expect(shown).toHaveBeenCalledWith(
      expect.objectContaining({ message: `Leg ${DOSSIER.number}-2 added.` }),
    );
    const row = await screen.findByTestId(`row-transport-${DOSSIER.number}-2`);
    expect(row.textContent).toContain('NLRTM');
  });

  it('offers customers no way to add a leg, even with the URL asking for it', async () => {
    stubApi();
    await start(false, `/dossiers/${DOSSIER.number}?tab=transports&add=leg`);
    await screen.findByTestId(`row-transport-${DOSSIER.number}-1`);
    expect(screen.queryByTestId('add-leg')).toBeNull();
    expect(screen.queryByTestId('transport-form')).toBeNull();
  });
});
