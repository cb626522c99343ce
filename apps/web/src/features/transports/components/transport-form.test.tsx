import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aTransport } from '../test-support.ts';
import { TransportForm } from './transport-form.tsx';

const A = { id: '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60', number: 'D-2026-000042' };
const B = { id: '6e1d2b63-8d2f-4b1f-9a1f-2c3d4e5f6071', number: 'D-2026-000043' };
const CONTAINERS: Record<string, string[]> = {
  [A.id]: ['MSKU6011672', 'TEXU3070079'],
  [B.id]: ['CSQU3054383'],
};

const dossiers: LookupSource = {
  key: ['dossiers', 'picker'],
  search: async () => [
    { value: A.id, label: `${A.number} · Acme Trading` },
    { value: B.id, label: `${B.number} · Acme Trading` },
  ],
  byId: async () => null,
};
const carriers: LookupSource = {
  key: ['parties', 'carrier'],
  search: async () => [],
  byId: async () => null,
};

function pick(label: string) {
  const input = screen.getByTestId('field-dossierId');
  fireEvent.click(input);
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement;
  return within(list)
    .findByRole('option', { name: label, hidden: true })
    .then((option) => fireEvent.click(option));
}

describe('TransportForm, a new leg on /transports', () => {
  it('picks the dossier by lookup and offers that dossier’s containers; another dossier drops the ticks', async () => {
    giveElementsSize();
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
      jsonResponse(aTransport('t-9', 1, JSON.parse(String(init?.body))), 201),
    );
    vi.stubGlobal('fetch', fetchMock);
    const containersOf = vi.fn(async (id: string) => CONTAINERS[id] ?? []);
    const onSaved = vi.fn();
    await renderRoute(
      <TransportForm
        carrierLookup={carriers}
        dossierLookup={dossiers}
        dossierContainers={containersOf}
        onSaved={onSaved}
      />,
      { path: '/transports', url: '/transports?new=1' },
    );
    // Before a dossier is picked the containers are typed.
    expect(screen.getByTestId('field-containers').tagName).toBe('INPUT');

    await pick(`${A.number} · Acme Trading`);
    const boxes = () =>
      within(screen.getByTestId('field-containers')).getAllByRole('checkbox', {
        hidden: true,
      }) as HTMLInputElement[];
    await waitFor(() => expect(boxes().map((b) => b.value)).toEqual(CONTAINERS[A.id]));
    expect(containersOf).toHaveBeenCalledWith(A.id, expect.anything());
    fireEvent.click(boxes()[1] as HTMLInputElement);

    await pick(`${B.number} · Acme Trading`);
    await waitFor(() => expect(boxes().map((b) => b.value)).toEqual(CONTAINERS[B.id]));
    fireEvent.click(boxes()[0] as HTMLInputElement);
    fireEvent.click(screen.getByTestId('form-submit'));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body));
    // A's container ticked before went with A.
    expect(body).toMatchObject({ dossierId: B.id, containers: ['CSQU3054383'] });
  });

  it('asks for the dossier in words when none is picked', async () => {
    vi.stubGlobal('fetch', vi.fn());
    await renderRoute(<TransportForm carrierLookup={carriers} dossierLookup={dossiers} onSaved={vi.fn()} />, {
      path: '/transports',
      url: '/transports?new=1',
    });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(screen.getByText('Choose a dossier')).toBeTruthy());
  });
});
