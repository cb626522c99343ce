import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { errorOf, field } from '../../../test/fields.ts';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { ReceiptForm } from './receipt-form.tsx';

const ACME = { id: '0c6f3a52-4f8e-4d4b-9a55-3f7b1f1e2a10', code: 'ACME', name: 'ACME Trading' };
const owners: LookupSource = {
  key: ['owners'],
  search: async () => [{ value: ACME.id, label: `${ACME.name} (${ACME.code})` }],
  byId: async () => null,
};
const noEntries = (): LookupSource => ({ key: ['entries'], search: async () => [], byId: async () => null });

async function pick(name: string, label: string) {
  const input = field(name);
  fireEvent.click(input);
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement;
  fireEvent.click(await within(list).findByRole('option', { name: label, hidden: true }));
}
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });

function start(answer: () => Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  const onSaved = vi.fn();
  return {
    fetchMock,
    onSaved,
    rendered: renderRoute(
      <ReceiptForm ownerLookup={owners} entryLookup={noEntries} onSaved={onSaved} onCancel={() => {}} />,
      { path: '/stock', url: '/stock?new=1' },
    ),
  };
}

/** Owner, MRN, and one line of 100 pieces at RTM1-A-01 with its details open. */
async function fillHeaderAndLine() {
  await pick('ownerId', 'ACME Trading (ACME)');
  type('inboundMrn', '26nl000396000042r1');
  type('lines.0.sku', 'abc-1');
  type('lines.0.description', 'Bluetooth speakers');
  type('lines.0.quantity', '100');
  type('lines.0.location', 'rtm1 a 01');
  fireEvent.click(screen.getByTestId('details-line-0'));
}

beforeEach(() => {
  giveElementsSize();
});

describe('ReceiptForm', () => {
  it('shows what the pallets hold as you type and puts unequal sums on their fields before sending', async () => {
    const { fetchMock, rendered } = start(() => jsonResponse({}, 201));
    await rendered;
    await fillHeaderAndLine();
    expect(field('lines.0.location').value).toBe('RTM1-A-01');

    // The first pallet takes the line's quantity; a second one starts empty.
    fireEvent.click(screen.getByTestId('add-pallet-1'));
    expect(field('lines.0.handlingUnits.0.quantity').value).toBe('100');
    expect(field('lines.0.handlingUnits.0.sscc').getAttribute('placeholder')).toBe('Generated when empty');
    fireEvent.click(screen.getByTestId('add-pallet-1'));
    type('lines.0.handlingUnits.0.quantity', '70');
    type('lines.0.handlingUnits.1.quantity', '60');
    expect(screen.getByTestId('pallets-sum-1').textContent).toBe('The pallets hold 130 pieces of 100 pieces');
    // Pallet 1 holds 3 cartons of 20: 60, not the 70 it says.
    type('lines.0.handlingUnits.0.cartons', '3');
    type('lines.0.handlingUnits.0.cartonQuantity', '20');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('lines.0.quantity'))).toContain(
        "The handling units hold 130; the line's quantity is 100",
      ),
    );
    expect(errorOf(field('lines.0.handlingUnits.0.quantity'))).toContain(
      'The units inside hold 60; this pallet says 70',
    );
    expect(fetchMock).not.toHaveBeenCalled();

    // Fixed, the sums agree and the message goes as you type.
    type('lines.0.handlingUnits.0.quantity', '60');
    type('lines.0.handlingUnits.1.quantity', '40');
    await waitFor(() => expect(errorOf(field('lines.0.quantity'))).not.toContain('handling units hold'));
    expect(screen.getByTestId('pallets-sum-1').textContent).toBe('The pallets hold 100 pieces of 100 pieces');
  });

  it('sends pallets and their cartons as nested units, and a refused SSCC lands on its pallet', async () => {
    const { fetchMock, onSaved, rendered } = start(() =>
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          errors: [
            {
              field: 'lines.0.handlingUnits.1.sscc',
              message: 'SSCC 387123450000000012 is already on another pallet',
            },
          ],
        },
        409,
      ),
    );
    await rendered;
    await fillHeaderAndLine();
    fireEvent.click(screen.getByTestId('add-pallet-1'));
    fireEvent.click(screen.getByTestId('add-pallet-1'));
    type('lines.0.handlingUnits.0.quantity', '60');
    type('lines.0.handlingUnits.0.cartons', '3');
    type('lines.0.handlingUnits.0.cartonQuantity', '20');
    type('lines.0.handlingUnits.1.quantity', '40');
    type('lines.0.handlingUnits.1.sscc', '387123450000000012');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('lines.0.handlingUnits.1.sscc'))).toContain(
        'SSCC 387123450000000012 is already on another pallet',
      ),
    );
    expect(onSaved).not.toHaveBeenCalled();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/stock-receipts');
    expect(init.method).toBe('POST');
    const body = JSON.parse(String(init.body));
    expect(body).toMatchObject({
      ownerId: ACME.id,
      customsStatus: 'non_union_customs_warehousing',
      inboundMrn: '26NL000396000042R1',
      entryDeclarationId: null,
    });
    expect(body.lines).toEqual([
      expect.objectContaining({
        sku: 'ABC-1',
        quantity: 100,
        unit: 'H87',
        location: 'RTM1-A-01',
        handlingUnits: [
          {
            kind: 'pallet',
            sscc: null,
            quantity: 60,
            children: [
              { kind: 'carton', quantity: 20 },
              { kind: 'carton', quantity: 20 },
              { kind: 'carton', quantity: 20 },
            ],
          },
          { kind: 'pallet', sscc: '387123450000000012', quantity: 40 },
        ],
      }),
    ]);
  });

  it('asks non-Union goods under customs warehousing for their entry MRN, and Union goods for none', async () => {
    const { fetchMock, rendered } = start(() => jsonResponse({}, 201));
    await rendered;
    await fillHeaderAndLine();
    type('inboundMrn', '');
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('inboundMrn'))).toContain(
        'Non-Union goods under customs warehousing need their entry: the H2 declaration, or its MRN marked as external',
      ),
    );
    await pick('customsStatus', 'Union goods');
    expect(screen.queryByTestId('field-inboundMrn')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('marks a typed MRN as another declarant’s entry only when the clerk says so', async () => {
    const { fetchMock, rendered } = start(() => jsonResponse({}, 201));
    await rendered;
    await fillHeaderAndLine();
    fireEvent.click(screen.getByTestId('field-inboundMrnExternal'));
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({
      inboundMrn: '26NL000396000042R1',
      inboundMrnExternal: true,
      entryDeclarationId: null,
    });
    await pick('customsStatus', 'Union goods');
    expect(screen.queryByTestId('field-inboundMrnExternal')).toBeNull();
  });
});
