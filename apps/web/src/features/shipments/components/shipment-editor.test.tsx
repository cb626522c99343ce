import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { errorOf, field } from '../../../test/fields.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aLine, aShipment } from '../../../test/shipment.ts';
import { aStockItem } from '../../../test/stock.ts';
import { ShipmentEditor } from './shipment-editor.tsx';

const noParties: LookupSource = { key: ['parties', 'none'], search: async () => [], byId: async () => null };

type Answer = (url: string, body: Record<string, unknown>) => Response;

function stubApi(answers: Record<string, Answer> = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    for (const [key, answer] of Object.entries(answers)) {
      const [m, part] = key.split(' ') as [string, string];
      if (method === m && url.includes(part)) return answer(url, body);
    }
    return jsonResponse({ type: 'about:blank', title: 'Not stubbed', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** ABC-1: 340 pieces available of the customer's stock. */
const availability: Answer = (url) => {
  const q = new URL(url, 'http://x').searchParams.get('q') ?? '';
  const items = [
    { sku: 'ABC-1', description: 'Widget, blue', unit: 'H87', onHand: 400, available: 340, records: 2 },
    { sku: 'NU-7', description: 'Speakers', unit: 'H87', onHand: 50, available: 50, records: 1 },
    {
      sku: 'TS-8',
      description: 'Speakers in temporary storage',
      unit: 'H87',
      onHand: 20,
      available: 20,
      records: 1,
    },
  ];
  return jsonResponse({ items: items.filter((i) => i.sku.startsWith(q.toUpperCase())) });
};

const start = (shipment = aShipment({ lines: [aLine({ quantity: 500 })] })) => {
  const onSaved = vi.fn();
  return renderRoute(
    <ShipmentEditor
      shipment={shipment}
      staff={false}
      party={{ id: shipment.owner.id, name: shipment.owner.name }}
      ownerLookup={noParties}
      consigneeLookup={noParties}
      onSaved={onSaved}
      onCancel={() => {}}
    />,
    { path: '/shipments/$id/edit', url: `/shipments/${shipment.id}/edit` },
  ).then((r) => ({ ...r, onSaved }));
};

beforeEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the line editor', () => {
  it('warns when a line asks for more than is available and shows what is as the quantity changes', async () => {
    stubApi({ 'GET stock/availability': availability });
    await start();
    expect((await screen.findByTestId('availability-warning')).textContent).toBe('Only 340 pieces available');

    fireEvent.focus(field('lines.0.quantity'));
    fireEvent.change(field('lines.0.quantity'), { target: { value: '100' } });
    fireEvent.blur(field('lines.0.quantity'));
    expect((await screen.findByTestId('availability-hint')).textContent).toBe('340 pieces available');
    expect(screen.queryByTestId('availability-warning')).toBeNull();
  });

  it('says so when the owner has none of the article', async () => {
    stubApi({ 'GET stock/availability': availability });
    await start(aShipment({ lines: [aLine({ sku: 'NOPE-1', quantity: 1 })] }));
    expect((await screen.findByTestId('availability-warning')).textContent).toBe('None in stock');
  });

  it('puts the server’s refusal on the line’s cell and keeps the others clean', async () => {
    const shipment = aShipment({
      lines: [aLine({ quantity: 5 }), aLine({ id: 'l2', position: 2, quantity: 7 })],
    });
    const fetchMock = stubApi({
      'GET stock/availability': availability,
      'PATCH shipments/': () =>
        jsonResponse(
          {
            type: 'about:blank',
            title: 'Invalid',
            status: 422,
            errors: [
              { field: 'lines.1.sku', message: 'Acme Trading holds no stock of ABC-1 in that record' },
            ],
          },
          422,
        ),
    });
    const { onSaved } = await start(shipment);
    fireEvent.change(field('customerReference'), { target: { value: 'PO-779' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(errorOf(field('lines.1.sku'))).toContain('holds no stock of ABC-1'));
    expect(errorOf(field('lines.0.sku'))).not.toContain('holds no stock');
    expect(onSaved).not.toHaveBeenCalled();
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH') as [string, RequestInit];
    const body = JSON.parse(String(call[1].body)) as Record<string, unknown>;
    expect(body.version).toBe(3);
    expect(body.customerReference).toBe('PO-779');
    expect(body.lines).toEqual([
      { sku: 'ABC-1', quantity: 5 },
      { sku: 'ABC-1', quantity: 7 },
    ]);
    // A customer sends neither the owner (its own party) nor internal notes.
    expect(body).not.toHaveProperty('ownerId');
    expect(body).not.toHaveProperty('notes');
  });

  it('refuses a line without an article before anything is sent', async () => {
    const fetchMock = stubApi({ 'GET stock/availability': availability });
    await start(aShipment({ lines: [aLine({ quantity: 5 })] }));
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(field('lines.1.sku').getAttribute('aria-invalid')).toBe('true'));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('starts a new draft from a given stock record and sends the record, not the article', async () => {
    const owner = aShipment().owner;
    const record = '33333333-3333-4333-8333-333333333333';
    const fetchMock = stubApi({ 'POST shipments': () => jsonResponse(aShipment(), 201) });
    const onSaved = vi.fn();
    await renderRoute(
      <ShipmentEditor
        staff
        fromStock={{ id: record, sku: 'ABC-1', owner }}
        ownerLookup={noParties}
        consigneeLookup={noParties}
        onSaved={onSaved}
        onCancel={() => {}}
      />,
      { path: '/shipments/$id/edit', url: '/shipments/new/edit' },
    );
    await waitFor(() =>
      expect(screen.getByTestId('line-0-available').textContent).toContain(
        'From one given stock record (ABC-1)',
      ),
    );
    fireEvent.change(field('lines.0.quantity'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the draft' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST') as [string, RequestInit];
    const body = JSON.parse(String(call[1].body)) as Record<string, unknown>;
    expect(body.ownerId).toBe(owner.id);
    expect(body.lines).toEqual([{ stockRecordId: record, quantity: 12 }]);
  });

  it('says why it could not be released as soon as a line holds non-Union goods, until a procedure is chosen', async () => {
    // Acme has non-Union stock of NU-7 only.
    const nonUnionStock: Answer = (url) => {
      const params = new URL(url, 'http://x').searchParams;
      const items =
        params.get('sku') === 'NU-7' && params.get('customsStatus')?.includes('non_union_customs_warehousing')
          ? [aStockItem({ sku: 'NU-7', customsStatus: 'non_union_customs_warehousing' })]
          : [];
      return jsonResponse({
        items,
        total: items.length,
        totalIsEstimate: false,
        page: 1,
        pageSize: 20,
        nextCursor: null,
      });
    };
    stubApi({ 'GET stock/availability': availability, 'GET stock?': nonUnionStock });
    await start(aShipment({ lines: [aLine({ quantity: 5 })] }));
    await screen.findByTestId('availability-hint');
    expect(screen.queryByTestId('procedure-needed')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    fireEvent.change(field('lines.1.quantity'), { target: { value: '2' } });
    fireEvent.change(field('lines.1.sku'), { target: { value: 'NU' } });
    fireEvent.click(await screen.findByRole('option', { name: /^NU-7/, hidden: true }));
    const notice = await screen.findByTestId('procedure-needed');
    expect(notice.textContent).toContain(
      'S-2026-000012 holds non-Union goods: choose its outbound procedure (4071 release for free circulation or 3171 re-export) before it is released',
    );
    expect(notice.textContent).toContain('Non-Union goods: NU-7.');
    fireEvent.click(field('outboundProcedure'));
    fireEvent.click(await screen.findByRole('option', { name: '3171 · re-export', hidden: true }));
    await waitFor(() => expect(screen.queryByTestId('procedure-needed')).toBeNull());
  });
  it('says the procedure does not fit goods in temporary storage, with the release’s own words', async () => {
    // Acme's only stock of TS-8 is in temporary storage.
    const temporaryStock: Answer = (url) => {
      const params = new URL(url, 'http://x').searchParams;
      const items =
        params.get('sku') === 'TS-8' && params.get('customsStatus')?.includes('temporary_storage')
          ? [aStockItem({ sku: 'TS-8', customsStatus: 'temporary_storage' })]
          : [];
      return jsonResponse({
        items,
        total: items.length,
        totalIsEstimate: false,
        page: 1,
        pageSize: 20,
        nextCursor: null,
      });
    };
    stubApi({ 'GET stock/availability': availability, 'GET stock?': temporaryStock });
    await start(aShipment({ outboundProcedure: '4071', lines: [aLine({ quantity: 5 })] }));
    await screen.findByTestId('availability-hint');
    expect(screen.queryByTestId('procedure-misfit')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    fireEvent.change(field('lines.1.quantity'), { target: { value: '2' } });
    fireEvent.change(field('lines.1.sku'), { target: { value: 'TS' } });
    fireEvent.click(await screen.findByRole('option', { name: /^TS-8/, hidden: true }));
    const notice = await screen.findByTestId('procedure-misfit');
    expect(notice.textContent).toContain(
      'S-2026-000012 could not be released under 4071: Goods in temporary storage are not under customs warehousing, which 4071 presumes',
    );
    expect(screen.queryByTestId('procedure-needed')).toBeNull();
  });

  /** Acme's stock: NU-7 under customs warehousing, TS-8 in temporary storage. */
  const mixedStock: Answer = (url) => {
    const params = new URL(url, 'http://x').searchParams;
    const statuses = params.get('customsStatus') ?? '';
    const items =
      params.get('sku') === 'NU-7' && statuses.includes('non_union_customs_warehousing')
        ? [aStockItem({ sku: 'NU-7', customsStatus: 'non_union_customs_warehousing' })]
        : params.get('sku') === 'TS-8' && statuses.includes('temporary_storage')
          ? [aStockItem({ sku: 'TS-8', customsStatus: 'temporary_storage' })]
          : [];
    return jsonResponse({
      items,
      total: items.length,
      totalIsEstimate: false,
      page: 1,
      pageSize: 20,
      nextCursor: null,
    });
  };
  async function addLine(index: number, typed: string, sku: RegExp) {
    fireEvent.click(screen.getByRole('button', { name: 'Add line' }));
    fireEvent.change(field(`lines.${index}.quantity`), { target: { value: '2' } });
    fireEvent.change(field(`lines.${index}.sku`), { target: { value: typed } });
    fireEvent.click(await screen.findByRole('option', { name: sku, hidden: true }));
  }

  it('offers the procedures of goods in temporary storage (4000, 3100) and no longer 4071/3171', async () => {
    stubApi({ 'GET stock/availability': availability, 'GET stock?': mixedStock });
    await start(aShipment({ lines: [aLine({ quantity: 5 })] }));
    await screen.findByTestId('availability-hint');
    await addLine(1, 'TS', /^TS-8/);
    const notice = await screen.findByTestId('procedure-needed');
    expect(notice.textContent).toContain(
      'choose its outbound procedure (4000 release for free circulation or 3100 re-export) before it is released',
    );
    fireEvent.click(field('outboundProcedure'));
    const option = (name: string) => screen.getByRole('option', { name, hidden: true });
    await screen.findByRole('option', {
      name: '4000 · release for free circulation from temporary storage',
      hidden: true,
    });
    expect(option('4071 · release for free circulation').getAttribute('aria-disabled')).toBe('true');
    expect(option('3171 · re-export').getAttribute('aria-disabled')).toBe('true');
    expect(option('3100 · re-export from temporary storage').getAttribute('aria-disabled')).not.toBe('true');
    fireEvent.click(option('4000 · release for free circulation from temporary storage'));
    await waitFor(() => expect(screen.queryByTestId('procedure-needed')).toBeNull());
    expect(screen.queryByTestId('procedure-misfit')).toBeNull();
  });

  it('says at once that goods in temporary storage and under customs warehousing cannot leave together', async () => {
    stubApi({ 'GET stock/availability': availability, 'GET stock?': mixedStock });
    await start(aShipment({ lines: [aLine({ quantity: 5 })] }));
    await screen.findByTestId('availability-hint');
    await addLine(1, 'NU', /^NU-7/);
    await screen.findByTestId('procedure-needed');
    await addLine(2, 'TS', /^TS-8/);
    const notice = await screen.findByTestId('procedure-mix');
    expect(notice.textContent).toMatch(
      /^These goods cannot leave togetherLine 3 \(TS-8\) is in temporary storage .* but Line 2 \(NU-7\) is under customs warehousing .*separate shipments\.$/,
    );
  });
});
