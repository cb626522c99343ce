import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorOf, field } from '../../../test/fields.ts';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aStockRecord, CARTON_2, PALLET_2 } from '../../../test/stock.ts';
import { AdjustDialog, leafUnits, TransferDialog } from './movement-dialogs.tsx';

const record = aStockRecord();

async function pick(name: string, label: string | RegExp) {
  const input = field(name);
  fireEvent.click(input);
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement;
  fireEvent.click(await within(list).findByRole('option', { name: label, hidden: true }));
}
const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });

function stub(answer: () => Response) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
const sent = (fetchMock: ReturnType<typeof stub>) => {
  const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
  return { url, method: init.method, body: JSON.parse(String(init.body)) };
};

beforeEach(() => giveElementsSize());

describe('leafUnits', () => {
  it('keeps the units that hold no others', () => {
    expect(leafUnits(record.handlingUnits).map((u) => u.id)).toEqual([
      record.handlingUnits[1]?.id,
      CARTON_2,
      PALLET_2,
    ]);
  });
});

describe('AdjustDialog', () => {
  it('wants a leaf unit and a reason before sending, then posts the signed change with the version', async () => {
    const show = vi.spyOn(notifications, 'show');
    const onClose = vi.fn();
    const fetchMock = stub(() => jsonResponse(aStockRecord({ quantityOnHand: 97, version: 4 }), 201));
    await renderRoute(<AdjustDialog record={record} opened onClose={onClose} />, {
      path: '/stock/$id',
      url: `/stock/${record.id}`,
    });

    type('quantity', '-3');
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('handlingUnitId'))).toContain('Choose the unit whose quantity changed'),
    );
    expect(errorOf(field('reason'))).not.toBe('');
    expect(fetchMock).not.toHaveBeenCalled();

    // Only leaves are offered: the pallet holding cartons is not.
    fireEvent.click(field('handlingUnitId'));
    const list = document.getElementById(
      field('handlingUnitId').getAttribute('aria-controls') ?? '',
    ) as HTMLElement;
    const options = within(list)
      .getAllByRole('option', { hidden: true })
      .map((o) => o.textContent);
    expect(options).toHaveLength(3);
    expect(options.some((o) => o?.startsWith('Pallet (00) 387123450000000012'))).toBe(false);
    fireEvent.click(within(list).getByRole('option', { name: /RTM1-B-02/, hidden: true }));
    type('reason', 'Three broken in the count');
    fireEvent.click(screen.getByTestId('form-submit'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const { url, method, body } = sent(fetchMock);
    expect(url).toBe(`/api/stock/${record.id}/movements`);
    expect(method).toBe('POST');
    expect(body).toEqual({
      kind: 'adjustment',
      version: 3,
      quantity: -3,
      reason: 'Three broken in the count',
      handlingUnitId: PALLET_2,
    });
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ color: 'green' }));
  });

  it('shows the server’s refusal (below what is reserved) on the quantity', async () => {
    const onClose = vi.fn();
    stub(() =>
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          errors: [{ field: 'quantity', message: 'S-2026-000012 has 40 of this unit reserved' }],
        },
        409,
      ),
    );
    await renderRoute(<AdjustDialog record={record} opened onClose={onClose} />, {
      path: '/stock/$id',
      url: `/stock/${record.id}`,
    });
    await pick('handlingUnitId', /RTM1-B-02/);
    type('quantity', '-39');
    type('reason', 'Water damage');
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('quantity'))).toContain('S-2026-000012 has 40 of this unit reserved'),
    );
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('TransferDialog', () => {
  it('moves the whole record by default, to the location as typed in capitals', async () => {
    const onClose = vi.fn();
    const fetchMock = stub(() => jsonResponse(aStockRecord({ location: 'RTM2-A-01', version: 4 }), 201));
    await renderRoute(<TransferDialog record={record} opened onClose={onClose} />, {
      path: '/stock/$id',
      url: `/stock/${record.id}`,
    });
    type('toLocation', 'rtm2 a 01');
    expect(field('toLocation').value).toBe('RTM2-A-01');
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent(fetchMock).body).toEqual({
      kind: 'transfer',
      version: 3,
      toLocation: 'RTM2-A-01',
      handlingUnitId: null,
    });
  });
});
