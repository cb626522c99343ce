import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aTransport } from '../test-support.ts';
import { TransportDetail } from './transport-detail.tsx';

const carriers: LookupSource = {
  key: ['parties', 'lookup', 'carrier'],
  search: async () => [],
  byId: async () => null,
};

function show(staff: boolean, notes: string | null, driver: { driverName?: string | null } = {}) {
  const leg = aTransport('t-1', 1, { notes, customerRemark: 'Delivery at gate 4, call ahead', ...driver });
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse(leg)),
  );
  return renderRoute(
    <TransportDetail id="t-1" staff={staff} carrierLookup={carriers} editing={false} onEdit={() => {}} />,
    { path: '/transports', url: '/transports' },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('transport detail: internal notes and the remark for the customer', () => {
  it('shows staff the internal notes, labelled as internal, and the remark for the customer', async () => {
    await show(true, 'Driver paid cash');
    const facts = await screen.findByTestId('transport-facts');
    expect(facts.textContent).toContain('Internal notes');
    expect(facts.textContent).toContain('Driver paid cash');
    expect(facts.textContent).toContain('Remark for the customer');
    expect(facts.textContent).toContain('Delivery at gate 4, call ahead');
  });

  it('shows a customer the remark and no internal notes row at all', async () => {
    await show(false, null);
    const facts = await screen.findByTestId('transport-facts');
    await waitFor(() => expect(facts.textContent).toContain('Delivery at gate 4, call ahead'));
    expect(facts.textContent).not.toContain('Internal notes');
  });
});

describe('transport detail: the driver is internal', () => {
  it('shows staff the driver', async () => {
    await show(true, null, { driverName: 'Piet de Vries' });
    const facts = await screen.findByTestId('transport-facts');
    await waitFor(() => expect(facts.textContent).toContain('Piet de Vries'));
  });

  it('shows a customer no driver row at all', async () => {
    await show(false, null, { driverName: null });
    const facts = await screen.findByTestId('transport-facts');
    await waitFor(() => expect(facts.textContent).toContain('Delivery at gate 4, call ahead'));
    expect(facts.textContent).not.toContain('Driver');
  });
});
