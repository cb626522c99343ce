import type { Shipment } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../lib/session.ts';
import { jsonResponse, meResponse, renderRoute } from '../../../test/render-route.tsx';
import { aLine, anAllocation, aShipment, RECORD_NEW, SHIPMENT_ID } from '../../../test/shipment.ts';
import { ShipmentDetail } from './shipment-detail.tsx';

type Answer = (body: Record<string, unknown>) => Response;

function stubApi(shipment: Shipment, answers: Record<string, Answer> = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    for (const [key, answer] of Object.entries(answers)) {
      const [m, suffix] = key.split(' ') as [string, string];
      if (method === m && url.split('?')[0]?.endsWith(suffix)) return answer(body);
    }
    if (url.endsWith('/history')) return jsonResponse([]);
    // The screen is a warehouse screen: it shows itself to a user with cw_access only.
    if (url.split('?')[0]?.endsWith('/me')) return meResponse('admin', { cwAccess: true });
    return jsonResponse(shipment);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (staff = true) =>
  renderRoute(<ShipmentDetail id={SHIPMENT_ID} staff={staff} />, {
    path: '/shipments/$id',
    url: `/shipments/${SHIPMENT_ID}`,
  });

const actionIds = () =>
  [...screen.getByTestId('record-actions').querySelectorAll('a[data-testid], button[data-testid]')].map((b) =>
    b.getAttribute('data-testid'),
  );

beforeEach(() => {
  localStorage.clear();
  // Signed in, so the screen asks for the user (and its cw_access) before it shows itself.
  setToken('tok');
  vi.restoreAllMocks();
});

describe('the actions per status and role', () => {
  it('offers staff a draft’s release and cancel, edit and delete', async () => {
    stubApi(aShipment());
    await start();
    await screen.findByTestId('record-actions');
    expect(actionIds()).toEqual([
      'transition-released',
      'transition-cancelled',
      'edit-record',
      'delete-record',
    ]);
    expect(screen.getByTestId('transition-released').textContent).toBe('Release');
  });

  it('offers a customer only the edit and delete of its own draft', async () => {
    stubApi(aShipment({ allowedActions: ['edit', 'delete'] }));
    await start(false);
    await screen.findByTestId('record-actions');
    expect(actionIds()).toEqual(['edit-record', 'delete-record']);
  });

  it('offers a released shipment picking, cancel, the declaration and the pick list, and no edit', async () => {
    stubApi(
      aShipment({
        status: 'released',
        nonUnion: true,
        outboundProcedure: '4071',
        allowedActions: ['pick', 'cancel', 'declare'],
      }),
    );
    await start();
    await screen.findByTestId('record-actions');
    expect(actionIds()).toEqual([
      'transition-picking',
      'transition-cancelled',
      'create-declaration',
      'pick-list',
    ]);
    expect(screen.getByTestId('pick-list').getAttribute('href')).toBe('/shipments-alt/S-2026-000012');
  });

  it('shows a shipped one without actions', async () => {
    stubApi(aShipment({ status: 'shipped', allowedActions: [] }));
    await start();
    await screen.findByTestId('shipment-status');
    expect(screen.queryByTestId('record-actions')).toBeNull();
    expect(screen.getByTestId('shipment-status').textContent).toBe('Shipped');
  });

  it('shows a customer its released shipment read-only: no actions, not even the pick list', async () => {
    stubApi(aShipment({ status: 'released', allowedActions: [] }));
    await start(false);
    await screen.findByTestId('shipment-status');
    expect(screen.queryByTestId('record-actions')).toBeNull();
    expect(screen.queryByTestId('pick-list')).toBeNull();
  });

  it('asks before shipping and sends the version it shows', async () => {
    const fetchMock = stubApi(aShipment({ status: 'packed', allowedActions: ['ship', 'cancel'] }), {
      'POST /transitions': () =>
        jsonResponse(aShipment({ status: 'shipped', allowedActions: [], version: 4 })),
    });
    vi.spyOn(notifications, 'show');
    await start();
    fireEvent.click(await screen.findByTestId('transition-shipped'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('leave the stock for good');
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('shipment-status').textContent).toBe('Shipped'));
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/transitions')) as [
      string,
      RequestInit,
    ];
    expect(JSON.parse(String(call[1].body))).toEqual({ to: 'shipped', version: 3 });
  });
});

describe('a refused release', () => {
  it('shows each short line’s message on that line, and nothing on the others', async () => {
    const two = aShipment({ lines: [aLine(), aLine({ id: 'l2', position: 2, sku: 'XYZ-9', quantity: 5 })] });
    stubApi(two, {
      'POST /transitions': () =>
        jsonResponse(
          {
            type: 'about:blank',
            title: 'Not enough stock',
            status: 409,
            detail: 'One line is short of stock',
            errors: [
              {
                field: 'lines.0.quantity',
                message: 'Only 40 of 100 pieces of ABC-1 are available (60 short)',
              },
            ],
          },
          409,
        ),
    });
    const show = vi.spyOn(notifications, 'show');
    await start();
    fireEvent.click(await screen.findByTestId('transition-released'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('confirm-ok'));
    const error = await screen.findByTestId('line-error-1');
    expect(error.textContent).toBe('Only 40 of 100 pieces of ABC-1 are available (60 short)');
    expect(within(screen.getByTestId('line-1')).getByTestId('line-error-1')).toBeTruthy();
    expect(screen.queryByTestId('line-error-2')).toBeNull();
    expect(show.mock.calls.at(-1)?.[0].message).toBe(
      'One line is short of stock: see the lines. Nothing was reserved.',
    );
  });
});

describe('the lines, allocations and declaration', () => {
  it('lists each line’s FIFO allocations: receipt, received date, SSCC, location, quantity, state', async () => {
    stubApi(
      aShipment({
        status: 'released',
        allowedActions: ['pick', 'cancel'],
        lines: [
          aLine({
            allocations: [
              anAllocation(),
              anAllocation({
                id: 'a2',
                stockRecordId: RECORD_NEW,
                receiptNumber: 'R-2026-000007',
                receivedOn: '2026-06-15',
                handlingUnit: null,
                location: 'RTM1-B-02-01',
                quantity: 60,
              }),
            ],
          }),
        ],
      }),
    );
    await start();
    const table = await screen.findByTestId('allocations');
    const rows = within(table).getAllByTestId(/^allocation-\d$/);
    expect(rows.map((r) => r.querySelector('a')?.textContent)).toEqual(['R-2026-000001', 'R-2026-000007']);
    expect(within(rows[0] as HTMLElement).getByTestId('allocation-sscc').textContent).toBe(
      '(00) 095287654321012346',
    );
    expect(within(rows[0] as HTMLElement).getByTestId('allocation-quantity').textContent).toBe('40 pieces');
    expect(within(rows[1] as HTMLElement).getByTestId('allocation-received').textContent).toBe(
      'received 15 Jun 2026',
    );
    expect(rows[1]?.textContent).toContain('Loose stock');
    expect(rows[1]?.textContent).toContain('RTM1-B-02-01');
    expect(within(rows[0] as HTMLElement).getByTestId('allocation-state').textContent).toBe('Reserved');
    expect(rows[0]?.querySelector('a')?.getAttribute('href')).toContain('/stock/');
  });

  it('says why it cannot ship yet and links the outbound declaration', async () => {
    const blocker =
      'S-2026-000012 holds non-Union goods: it may leave only once its release for free circulation (4071) is released; declaration LRN-2026-000031 is Lodged.';
    stubApi(
      aShipment({
        status: 'packed',
        nonUnion: true,
        outboundProcedure: '4071',
        shipBlocker: blocker,
        declaration: {
          id: 'd1000000-0000-4000-8000-000000000001',
          lrn: 'LRN-2026-000031',
          mrn: null,
          type: 'import',
          status: 'lodged',
          createdAt: '2026-11-21T09:00:00.000Z',
        },
        allowedActions: ['ship', 'cancel'],
      }),
    );
    await start();
    expect((await screen.findByTestId('ship-blocker')).textContent).toContain(blocker);
    expect(screen.getByTestId('declaration-link').textContent).toBe('LRN-2026-000031');
    expect(screen.getByTestId('declaration-link').getAttribute('href')).toBe('/declarations/LRN-2026-000031');
    expect(screen.getByTestId('declaration-status').textContent).toBe('Lodged');
  });

  it('lets staff give a packed shipment its procedure, and lists the earlier declarations', async () => {
    const rejected = {
      id: 'd2000000-0000-4000-8000-000000000001',
      lrn: 'LRN-2026-000030',
      mrn: null,
      type: 'import' as const,
      status: 'rejected' as const,
      createdAt: '2026-11-20T10:00:00.000Z',
    };
    const copy = {
      ...rejected,
      id: 'd2000000-0000-4000-8000-000000000002',
      lrn: 'LRN-2026-000033',
      status: 'draft' as const,
    };
    const shipment = aShipment({
      status: 'packed',
      nonUnion: true,
      outboundProcedure: null,
      declaration: copy,
      declarations: [rejected, copy],
      allowedActions: ['procedure', 'cancel'],
    });
    const fetchMock = stubApi(shipment, {
      [`PATCH /shipments/${SHIPMENT_ID}`]: (body) =>
        jsonResponse({ ...shipment, outboundProcedure: body.outboundProcedure, version: 4 }),
    });
    await start();
    expect((await screen.findByTestId('declaration-link')).textContent).toBe('LRN-2026-000033');
    expect(screen.getByTestId('earlier-declaration-LRN-2026-000030').textContent).toContain(
      'import, rejected',
    );
    fireEvent.click(screen.getByTestId('procedure-select'));
    fireEvent.click(
      await screen.findByRole('option', { name: '4071 · release for free circulation', hidden: true }),
    );
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([, init]) => (init as RequestInit | undefined)?.method === 'PATCH'),
      ).toBe(true),
    );
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH') as [string, RequestInit];
    expect(JSON.parse(String(call[1].body))).toEqual({ version: 3, outboundProcedure: '4071' });
  });
});

describe('pick states (issue 27 item 6)', () => {
  const second = 'a0000000-0000-4000-8000-000000000002';
  const picking = (states: ['reserved' | 'picked', 'reserved' | 'picked'], version = 5) =>
    aShipment({
      status: 'picking',
      version,
      allowedActions: ['pack', 'cancel', 'confirmPicks'],
      lines: [
        aLine({
          allocations: [
            anAllocation({ state: states[0] }),
            anAllocation({ id: second, location: 'RTM1-B-02-01', quantity: 60, state: states[1] }),
          ],
        }),
      ],
    });

  it('staff confirm an allocation picked, then the rest of the line, each with the version they saw', async () => {
    const sent: Record<string, unknown>[] = [];
    // The server's side: the allocations' states, changed by what each request names.
    const states: ['reserved' | 'picked', 'reserved' | 'picked'] = ['reserved', 'reserved'];
    const ids = ['a0000000-0000-4000-8000-000000000001', second];
    const fetchMock = stubApi(picking(['reserved', 'reserved']), {
      'POST /picks': (body) => {
        sent.push(body);
        for (const named of body.allocationIds as string[])
          states[ids.indexOf(named) as 0 | 1] = body.picked ? 'picked' : 'reserved';
        return jsonResponse(picking([...states], (body.version as number) + 1));
      },
    });
    await start();
    const line = await screen.findByTestId('line-1');
    expect(within(line).getByTestId('line-picked-1').textContent).toBe('0 of 2 picked');
    expect(
      within(line)
        .getAllByTestId('allocation-state')
        .map((b) => b.textContent),
    ).toEqual(['Reserved', 'Reserved']);
    fireEvent.click(within(line).getByRole('checkbox', { name: 'Picked: 40 pieces from RTM1-A-01-01' }));
    await waitFor(() => expect(within(line).getByTestId('line-picked-1').textContent).toBe('1 of 2 picked'));
    expect(sent[0]).toEqual({
      allocationIds: ['a0000000-0000-4000-8000-000000000001'],
      picked: true,
      version: 5,
    });
    expect((within(line).getByTestId('pick-0') as HTMLInputElement).checked).toBe(true);
    expect(
      within(line)
        .getAllByTestId('allocation-state')
        .map((b) => b.textContent),
    ).toEqual(['Picked', 'Reserved']);
    fireEvent.click(within(line).getByTestId('pick-line-1'));
    await waitFor(() => expect(within(line).getByTestId('line-picked-1').textContent).toBe('2 of 2 picked'));
    expect(sent[1]).toEqual({ allocationIds: [second], picked: true, version: 6 });
    // Everything picked: no "All picked" left to press.
    expect(within(line).queryByTestId('pick-line-1')).toBeNull();
    expect(fetchMock).toHaveBeenCalled();
  });

  it('shows the states read-only when the server allows no confirmation (a customer, or not picking)', async () => {
    stubApi({ ...picking(['picked', 'reserved']), allowedActions: [] });
    await start(false);
    const line = await screen.findByTestId('line-1');
    expect(
      within(line)
        .getAllByTestId('allocation-state')
        .map((b) => b.textContent),
    ).toEqual(['Picked', 'Reserved']);
    expect(within(line).queryByRole('checkbox')).toBeNull();
    expect(within(line).queryByTestId('pick-line-1')).toBeNull();
  });

  it('says why a confirmation was refused, and the box stays as the server has it', async () => {
    const show = vi.spyOn(notifications, 'show');
    stubApi(picking(['reserved', 'reserved']), {
      'POST /picks': () =>
        jsonResponse(
          {
            type: 'about:blank',
            title: 'S-2026-000012 is packed: picks are confirmed while it is being picked.',
            status: 409,
          },
          409,
        ),
    });
    await start();
    const line = await screen.findByTestId('line-1');
    fireEvent.click(within(line).getByTestId('pick-0'));
    await waitFor(() =>
      expect(show).toHaveBeenCalledWith(
        expect.objectContaining({
          color: 'red',
          title: 'Pick not confirmed',
          message: expect.stringContaining('picks are confirmed while it is being picked'),
        }),
      ),
    );
    expect((within(line).getByTestId('pick-0') as HTMLInputElement).checked).toBe(false);
  });
});
