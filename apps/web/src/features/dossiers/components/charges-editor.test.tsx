import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { aDossier } from '../../../test/dossier.ts';
import { errorOf, field } from '../../../test/fields.ts';
import { jsonResponse, renderRoute, validationProblem } from '../../../test/render-route.tsx';
import { baseAmountOf, ChargesEditor, ChargesView, chargeTotals } from './charges-editor.tsx';

describe('job costing totals', () => {
  it('converts each line to EUR exactly and sums cost, revenue and profit', () => {
    const totals = chargeTotals([
      { kind: 'cost', amount: '1000.00', exchangeRate: '0.9' },
      { kind: 'cost', amount: '0.10', exchangeRate: '1' },
      { kind: 'cost', amount: '0.20', exchangeRate: '1' },
      { kind: 'revenue', amount: '1500.50', exchangeRate: '1' },
    ]);
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004; here it is 0.30.
    expect(totals).toEqual({ cost: '900.30', revenue: '1500.50', profit: '600.20' });
  });

  it('leaves out lines still being typed and rounds half away from zero', () => {
    expect(baseAmountOf({ amount: '12,5', exchangeRate: '1' })).toBeNull();
    expect(baseAmountOf({ amount: '', exchangeRate: '1' })).toBeNull();
    expect(baseAmountOf({ amount: '10.005', exchangeRate: '1' })).toBe('10.01');
    expect(baseAmountOf({ amount: '100', exchangeRate: '' })).toBe('100.00');
    expect(chargeTotals([{ kind: 'revenue', amount: 'abc', exchangeRate: '1' }])).toEqual({
      cost: '0.00',
      revenue: '0.00',
      profit: '0.00',
    });
  });
});

const CARRIER = '7a0e8c1e-3a52-4a8e-9d7e-2f1f6c1b9a02';

const partyLookup: LookupSource = {
  key: ['test-party-lookup'],
  search: async () => [],
  byId: async () => null,
};

const dossier = aDossier({
  etd: '2026-05-01',
  eta: '2026-06-01',
  customerReference: 'PO-1',
  profit: '-2450.00',
  cargoDescription: 'Machine parts',
  charges: [
    {
      id: 'c1',
      kind: 'cost',
      chargeCode: 'FREIGHT',
      description: 'Ocean freight Shanghai–Rotterdam, 1×40HC, carrier all-in rate',
      party: { id: CARRIER, code: 'MAEU', name: 'Maersk' },
      amount: '2450.00',
      currency: 'EUR',
      exchangeRate: '1',
      baseAmount: '2450.00',
      quantity: '1',
      unit: 'XCN',
      unitPrice: '2450',
    },
  ],
  costTotal: '2450.00',
  version: 3,
});

function stubApi(answer: (body: unknown) => Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
    answer(init?.body ? JSON.parse(String(init.body)) : undefined),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function start() {
  return renderRoute(
    <ChargesEditor
      dossier={dossier}
      dossierKey={dossier.number}
      partyLookup={partyLookup}
      reload={async () => dossier}
    />,
    { path: '/dossiers/$dossierId', url: `/dossiers/${dossier.number}` },
  );
}

describe('ChargesEditor', () => {
  it('sends "2,450.00" typed in the user’s format as the exact decimal, and lands a server error on its cell', async () => {
    const fetchMock = stubApi(() =>
      validationProblem([{ field: 'charges.1.amount', message: 'Amount × exchange rate is too large' }]),
    );
    await start();
    // The saved line shows grouped; the party's name comes with the dossier.
    expect(field('charges.0.amount').value).toBe('2,450.00');
    expect(screen.getByTestId('charge-0').textContent).not.toContain(CARRIER);

    fireEvent.click(screen.getByTestId('add-revenue'));
    await waitFor(() => expect(document.activeElement).toBe(field('charges.1.kind')));
    // The charge is picked by its name from the shared vocabulary.
    const code = field('charges.1.chargeCode');
    fireEvent.click(code);
    const list = document.getElementById(code.getAttribute('aria-controls') ?? '') as HTMLElement;
    fireEvent.click(await within(list).findByRole('option', { name: 'Freight', hidden: true }));
    fireEvent.change(field('charges.1.description'), { target: { value: 'Ocean freight' } });
    fireEvent.focus(field('charges.1.amount'));
    fireEvent.change(field('charges.1.amount'), { target: { value: '2,450.00' } });
    fireEvent.blur(field('charges.1.amount'));
    expect(screen.getByTestId('charges-lines-total-revenue').textContent).toBe('Revenue €2,450.00');
    expect(screen.getByTestId('charges-profit').textContent).toBe('€0.00');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(field('charges.1.amount').getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(field('charges.1.amount'))).toContain('Amount × exchange rate is too large');
    expect(field('charges.0.amount').getAttribute('aria-invalid')).not.toBe('true');

    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    const body = JSON.parse(String(init.body)) as { charges: Record<string, unknown>[] };
    expect(body.charges.map((c) => c.amount)).toEqual(['2450.00', '2450.00']);
    expect(body.charges[1]?.chargeCode).toBe('FREIGHT');
    // The saved line's units go back as they came; the new line is a lump sum.
    expect(body.charges.map((c) => [c.quantity, c.unit, c.unitPrice])).toEqual([
      ['1', 'XCN', '2450'],
      [null, null, null],
    ]);
    // Shown by name and by how it was priced.
    expect(screen.getByTestId('charge-0').textContent).toContain('1 × container at €2,450.00');
    expect(screen.getByTestId('charge-1').textContent).toContain('Lump sum');
  });

  it('refuses cents on a yen charge before anything is sent', async () => {
    const fetchMock = stubApi(() => jsonResponse(dossier));
    await start();
    fireEvent.focus(field('charges.0.amount'));
    fireEvent.change(field('charges.0.amount'), { target: { value: '2,450.50' } });
    fireEvent.blur(field('charges.0.amount'));
    fireEvent.change(field('charges.0.currency'), { target: { value: 'jpy' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(errorOf(field('charges.0.amount'))).toContain('JPY amounts have no decimals'));
    // The failing cell takes the focus, with the decimals it holds to edit (not rounded away).
    expect(document.activeElement).toBe(field('charges.0.amount'));
    expect(field('charges.0.amount').value).toBe('2450.50');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('ChargesView', () => {
  it('shows the lines as text with the same columns and the server’s totals', async () => {
    await renderRoute(<ChargesView dossier={dossier} />, { path: '/x', url: '/x' });
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.getByTestId('charge-0-partyId').textContent).toBe('Maersk (MAEU)');
    expect(screen.getByTestId('charge-0-amount').textContent).toBe('€2,450.00');
    expect(screen.getByTestId('charges-total-cost').textContent).toBe('€2,450.00');
    expect(screen.getByTestId('charges-profit').textContent).toBe('-€2,450.00');
  });
});
