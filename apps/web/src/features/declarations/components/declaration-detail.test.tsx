import type { Declaration } from '@fvg/contracts';
import { cleanNotifications, notifications, notificationsStore } from '@mantine/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorOf, field } from '../../../test/fields.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { aDeclaration, DECLARATION_ID, released } from '../test/fixtures.ts';
import { DeclarationDetail, lodgedToastId } from './declaration-detail.tsx';

type Answer = (body: Record<string, unknown>) => Response;

function stubApi(declaration: Declaration, answers: Record<string, Answer> = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input).split('?')[0] ?? '';
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    for (const [key, answer] of Object.entries(answers)) {
      const [m, suffix] = key.split(' ') as [string, string];
      if (method === m && url.endsWith(suffix)) return answer(body);
    }
    if (url.endsWith('/history') || url.endsWith('/messages')) return jsonResponse([]);
    return jsonResponse(declaration);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const start = (role: 'staff' | 'customer') =>
  renderRoute(<DeclarationDetail id={DECLARATION_ID} role={role} />, {
    path: '/declarations/$id',
    url: `/declarations/${DECLARATION_ID}`,
  });

const problem = (status: number, errors: { field: string; message: string }[]) =>
  jsonResponse(
    {
      type: 'about:blank',
      title: 'Not lodged',
      status,
      detail: 'The declaration cannot be lodged yet',
      errors,
    },
    status,
  );

/** Inside the read-only fieldset an input is disabled by its ancestor, which `:disabled` sees. */
const locked = (name: string) => field(name).matches(':disabled');

beforeEach(() => localStorage.clear());

describe('the declaration screen', () => {
  it('lets staff edit a draft: the fields are open, Save, Lodge and Delete are offered, the sandbox is named', async () => {
    stubApi(aDeclaration());
    await start('staff');
    await screen.findByTestId('declaration-form');
    expect(locked('officeOfLodgement')).toBe(false);
    expect(field('declarant.eori').value).toBe('NL812345678');
    expect(field('notes').value).toBe('Broker: call before lodging');
    expect(screen.getByTestId('lodge-declaration')).toBeTruthy();
    expect(screen.getByTestId('delete-record')).toBeTruthy();
    expect(screen.getByTestId('form-submit').textContent).toBe('Save draft');
    expect(screen.getByTestId('sandbox-badge').textContent).toBe('Sandbox');
    expect(screen.getByTestId('sandbox-notice').textContent).toContain(
      'Sandbox authority — not a real customs lodgement',
    );
    expect(screen.getByTestId('declaration-status').textContent).toBe('Draft');
    expect(screen.getByTestId('sad-view').getAttribute('href')).toBe(
      `/declarations/import/${DECLARATION_ID}/alt`,
    );
    // An import has finances (with the customs value's additions and deductions) and an office of entry, no guarantee.
    expect(screen.getByTestId('section-financial')).toBeTruthy();
    expect(screen.getByTestId('valuation-adjustments').textContent).toContain(
      'Transport and insurance to the EU border (EUR)',
    );
    expect(screen.queryByTestId('section-guarantee')).toBeNull();
    expect(screen.getByText('Office of entry')).toBeTruthy();
  });

  it('names each Annex B data element beside its label, in a tooltip, without changing the field’s name', async () => {
    stubApi(aDeclaration());
    await start('staff');
    await screen.findByTestId('declaration-form');
    expect(screen.getByTestId('de-locationOfGoodsType').dataset.de).toBe('5/23');
    expect(screen.getByTestId('de-methodOfPayment').dataset.de).toBe('4/8');
    expect(screen.getByTestId('de-authorisations').dataset.de).toBe('2/3');
    // The input keeps its visible label as its accessible name.
    expect(screen.getAllByLabelText('Type of location')).toContain(field('locationOfGoodsType'));
    expect(screen.getByRole('textbox', { name: 'Identification of the location' })).toBe(
      field('locationOfGoods'),
    );
    fireEvent.mouseEnter(screen.getByTestId('de-natureOfTransaction'));
    // The tooltip opens after its delay; a loaded CI machine is slow in jsdom.
    expect(await screen.findByText('Data element 8/5 (UCC Annex B)', {}, { timeout: 5000 })).toBeTruthy();
  });

  it('asks a transit for its guarantee, holder and office of destination instead of finances', async () => {
    const base = aDeclaration();
    stubApi(
      aDeclaration({
        type: 'transit',
        category: 'T1',
        holder: base.declarant && { ...base.declarant, name: 'Holder BV' },
        guaranteeType: '1',
        guaranteeReference: '26NL0000000000001',
        guaranteeAmount: '25000.00',
        items: [],
      }),
    );
    await start('staff');
    await screen.findByTestId('declaration-form');
    expect(screen.getByTestId('section-guarantee')).toBeTruthy();
    expect(field('guaranteeReference').value).toBe('26NL0000000000001');
    expect(screen.queryByTestId('section-financial')).toBeNull();
    expect(field('holder.name').value).toBe('Holder BV');
    expect(screen.getByText('Office of departure')).toBeTruthy();
    expect(screen.getByTestId('field-officeOfDestination')).toBeTruthy();
    expect(screen.getByTestId('sad-view').getAttribute('href')).toBe(
      `/declarations/transit/${DECLARATION_ID}/alt`,
    );
    // No items yet: the guarantee amount says what it will have to cover.
    expect(screen.getByTestId('section-guarantee').textContent).toContain(
      'At least the duties and taxes at stake: enter the items’ values and rates',
    );
  });

  it('shows under a transit’s guarantee amount the duties and taxes at stake on its items', async () => {
    const base = aDeclaration();
    const item = base.items[0];
    if (!item) throw new Error('the fixture has an item');
    stubApi(
      aDeclaration({
        type: 'transit',
        category: 'T1',
        guaranteeType: '1',
        guaranteeReference: '26NL0000000000001',
        guaranteeAmount: '25000.00',
        // 10 000.00 at 2.7 % duty and 21 % VAT: 270.00 + 2 156.70.
        items: [{ ...item, customsValue: '10000.00', dutyRate: '2.7', vatRate: '21', vatCosts: null }],
      }),
    );
    await start('staff');
    await screen.findByTestId('declaration-form');
    expect(screen.getByTestId('section-guarantee').textContent).toContain(
      'At least the duties and taxes at stake: €2,426.70',
    );
  });

  it('edits a transit’s authorisations and seals as lines and saves them with the draft (Annex B, DE 2/3 and 7/18)', async () => {
    const base = aDeclaration();
    const item = base.items[0];
    if (!item) throw new Error('the fixture has an item');
    const transit = aDeclaration({
      type: 'transit',
      category: 'T1',
      guaranteeType: '1',
      guaranteeReference: '26NL0000000000001',
      guaranteeAmount: '25000.00',
      items: [
        {
          ...item,
          procedureCode: null,
          additionalProcedureCodes: [],
          valuationMethod: null,
          containers: ['MSKU6011672'],
        },
      ],
    });
    const fetchMock = stubApi(transit, {
      [`PATCH /declarations/${DECLARATION_ID}`]: (body) => jsonResponse({ ...transit, ...body, version: 4 }),
    });
    await start('staff');
    await screen.findByTestId('declaration-form');
    // A transit offers only the authorisations NCTS takes (CL235), the first preselected.
    fireEvent.click(screen.getByTestId('add-authorisation'));
    await waitFor(() => expect(field('authorisations.0.reference')).toBeTruthy());
    fireEvent.change(field('authorisations.0.reference'), { target: { value: 'nlc521rtm0042' } });
    // The only container is the new seal's, unless the clerk clears it (the vehicle's seal).
    fireEvent.click(screen.getByTestId('add-seal'));
    await waitFor(() => expect(field('seals.0.identifier')).toBeTruthy());
    fireEvent.change(field('seals.0.identifier'), { target: { value: 'fvg427100' } });
    expect(screen.getByTestId('section-seals').textContent).toContain(
      'Each on its container, or on the vehicle',
    );
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({
      authorisations: [{ type: 'C521', reference: 'NLC521RTM0042' }],
      seals: [{ identifier: 'FVG427100', container: 'MSKU6011672' }],
    });
  });

  it('reads the Annex B lists as text once lodged, with the codes’ meanings', async () => {
    stubApi({
      ...released(),
      authorisations: [{ type: 'C506', reference: 'NLDPO0001234' }],
      additionalInformation: [{ code: '00500', text: null }],
      locationOfGoods: 'NLRTM',
      locationOfGoodsType: 'A',
      locationOfGoodsQualifier: 'U',
    });
    await start('staff');
    await screen.findByTestId('declaration-header');
    expect(screen.getByTestId('authorisations').textContent).toContain(
      'C506 · Deferred payment: NLDPO0001234',
    );
    expect(screen.getByTestId('additional-information').textContent).toContain(
      '00500 · Identity of declarant and importer',
    );
    expect(screen.queryByTestId('add-authorisation')).toBeNull();
    expect(locked('locationOfGoodsQualifier')).toBe(true);
  });

  it('shows a lodged transit’s seals and limit date read-only, with no clear or add buttons', async () => {
    stubApi({
      ...released(),
      type: 'transit',
      category: 'T1',
      seals: [{ identifier: 'FVG427100', container: null }],
      limitDate: '2026-12-15',
      items: [],
    });
    await start('staff');
    const seals = await screen.findByTestId('section-seals');
    expect(seals.textContent).toContain('FVG427100 — on the vehicle');
    expect(field('limitDate').value).toBe('15 Dec 2026');
    expect(within(seals).queryAllByRole('button')).toHaveLength(0);
  });

  it('shows a released declaration read-only: disabled fields, no Save or Lodge, the MRN in the header', async () => {
    stubApi(released());
    await start('staff');
    await screen.findByTestId('declaration-header');
    expect(screen.queryByTestId('declaration-form')).toBeNull();
    expect(screen.queryByTestId('form-submit')).toBeNull();
    expect(screen.queryByTestId('lodge-declaration')).toBeNull();
    expect(screen.queryByTestId('delete-record')).toBeNull();
    expect(locked('officeOfLodgement')).toBe(true);
    expect(locked('declarant.eori')).toBe(true);
    expect(screen.getByTestId('declaration-status').textContent).toBe('Released');
    expect(screen.getByTestId('declaration-mrn').textContent).toBe('26NL000396000042R3');
    expect(screen.getByTestId('sandbox-badge')).toBeTruthy();
  });

  it('shows staff why a declaration under control cannot be cancelled (UCC art. 174(1)) nor amended (art. 173(1))', async () => {
    stubApi({ ...released(), status: 'under_control', releasedAt: null, allowedActions: ['copy'] });
    await start('staff');
    const blocked = await screen.findByTestId('cancel-declaration-blocked');
    expect(blocked.getAttribute('aria-disabled')).toBe('true');
    expect(blocked.getAttribute('aria-label')).toContain(
      'Customs have announced a control of the goods: a declaration cannot be cancelled while they are examined',
    );
    expect(screen.queryByTestId('cancel-declaration')).toBeNull();
    fireEvent.click(blocked);
    expect(screen.queryByRole('dialog')).toBeNull();
    const amend = screen.getByTestId('amend-declaration-blocked');
    expect(amend.getAttribute('aria-disabled')).toBe('true');
    expect(amend.getAttribute('aria-label')).toBe(
      'Amend: not possible. Customs have announced a control of the goods: a declaration cannot be amended while they are examined (UCC art. 173(1)); ask again once the control is over',
    );
    expect(screen.queryByTestId('amend-declaration')).toBeNull();
    fireEvent.click(amend);
    expect(screen.queryByTestId('amend-banner')).toBeNull();
  });

  it('names and links the shipment it is the outbound declaration of', async () => {
    stubApi({
      ...released(),
      dossier: null,
      shipment: { id: '5a000000-0000-4000-8000-000000000012', number: 'S-2026-000012' },
    });
    await start('staff');
    const link = await screen.findByTestId('declaration-shipment');
    expect(link.textContent).toBe('S-2026-000012');
    expect(link.getAttribute('href')).toBe('/shipments/S-2026-000012');
    expect(document.body.textContent).toContain('outbound declaration of shipment S-2026-000012');
  });

  it('shows customers their declaration read-only, without notes, actions or history', async () => {
    stubApi({ ...released(), notes: null, allowedActions: [] });
    await start('customer');
    await screen.findByTestId('declaration-header');
    expect(locked('officeOfLodgement')).toBe(true);
    expect(screen.queryByTestId('field-notes')).toBeNull();
    const actions = screen.getByTestId('record-actions');
    expect(
      within(actions)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['SAD view']);
    expect(within(actions).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByTestId('tab-history')).toBeNull();
    expect(screen.getByTestId('tab-messages')).toBeTruthy();
    expect(screen.getByTestId('tab-documents')).toBeTruthy();
  });

  it('puts a lodging refusal (422) on the header fields and the item rows, and lists it above the form', async () => {
    const fetchMock = stubApi(aDeclaration(), {
      'POST /lodge': () =>
        problem(422, [
          { field: 'declarant.eori', message: 'The declarant needs an EORI' },
          { field: 'officeOfExitEntry', message: 'Enter the office of entry' },
          { field: 'items.0.netMassKg', message: 'Enter the net mass' },
        ]),
    });
    await start('staff');
    fireEvent.click(await screen.findByTestId('lodge-declaration'));
    fireEvent.click(await screen.findByTestId('lodge-confirm'));
    await waitFor(() => expect(errorOf(field('declarant.eori'))).toContain('The declarant needs an EORI'));
    const lodge = fetchMock.mock.calls.find(
      ([url, init]) => String(url).endsWith('/lodge') && init?.method === 'POST',
    );
    expect(JSON.parse(String(lodge?.[1]?.body))).toEqual({ version: 3 });
    const list = screen.getByTestId('lodge-problems');
    expect(list.textContent).toContain('The declarant needs an EORI');
    expect(list.textContent).toContain('Enter the office of entry');
    expect(list.textContent).toContain('Enter the net mass');
    // The items component shows the server's item error on its row.
    expect(screen.getByTestId('declaration-items').textContent).toContain('Enter the net mass');
  });

  it('says what can happen to goods customs did not release, and staff that Copy starts a new draft', async () => {
    stubApi(
      aDeclaration({
        status: 'not_released',
        allowedActions: ['copy'],
        lastMessage: { kind: 'not_released', at: '2026-11-20T10:30:00Z' },
      }),
    );
    await start('staff');
    const banner = await screen.findByTestId('not-released');
    expect(banner.textContent).toContain('Not released after the control on 20 Nov 2026');
    expect(banner.textContent).toContain('Re-export the goods');
    expect(banner.textContent).toContain('Abandon them to the State or have them destroyed');
    expect(banner.textContent).toContain('Copy makes a new draft from this declaration.');
    expect(screen.getByTestId('copy-declaration')).toBeTruthy();
  });

  it('takes the “lodged, the status follows” toast away once the answer came, not before', async () => {
    const ids = () => notificationsStore.getState().notifications.map((n) => n.id);
    const lodgedToast = () =>
      notifications.show({
        id: lodgedToastId(DECLARATION_ID),
        message: 'The status follows',
        autoClose: false,
      });
    // Still lodged: the toast stays.
    act(() => lodgedToast());
    stubApi(aDeclaration({ status: 'lodged', allowedActions: [] }));
    await start('staff');
    await screen.findByTestId('declaration-items');
    expect(ids()).toContain(lodgedToastId(DECLARATION_ID));
    act(() => cleanNotifications());
    // Rejected: the answer is on screen, the toast goes.
    act(() => lodgedToast());
    stubApi(aDeclaration({ status: 'rejected', allowedActions: ['copy'] }));
    await start('staff');
    await waitFor(() => expect(ids()).not.toContain(lodgedToastId(DECLARATION_ID)));
    act(() => cleanNotifications());
  });

  it('takes the clerk from each problem of a refusal to its field, an item’s field in its details included', async () => {
    stubApi(aDeclaration(), {
      'POST /lodge': () =>
        problem(422, [
          { field: 'officeOfExitEntry', message: 'Enter the office of entry' },
          { field: 'items.0.valuationMethod', message: 'Choose the valuation method' },
        ]),
    });
    await start('staff');
    fireEvent.click(await screen.findByTestId('lodge-declaration'));
    fireEvent.click(await screen.findByTestId('lodge-confirm'));
    const office = await screen.findByTestId('lodge-problem-officeOfExitEntry');
    expect(office.textContent).toContain('Enter the office of entry');
    fireEvent.click(office);
    expect(document.activeElement).toBe(field('officeOfExitEntry'));
    // The valuation method sits in the item's details, which its error opened.
    fireEvent.click(screen.getByTestId('lodge-problem-items.0.valuationMethod'));
    await waitFor(() => expect(document.activeElement).toBe(field('items.0.valuationMethod')));
  });

  it('names a pending amendment and opens an amendment draft with a reason for an accepted declaration', async () => {
    const accepted = aDeclaration({
      status: 'accepted',
      mrn: '26NL000396000042R3',
      lodgedAt: '2026-11-12T10:00:00.000Z',
      acceptedAt: '2026-11-12T10:00:02.000Z',
      allowedActions: ['amend', 'cancel', 'copy'],
    });
    const fetchMock = stubApi(accepted, {
      'POST /amend': () => jsonResponse({ ...accepted, pendingRequest: 'amendment', version: 4 }),
    });
    await start('staff');
    await screen.findByTestId('declaration-header');
    expect(locked('locationOfGoods')).toBe(true);
    fireEvent.click(screen.getByTestId('amend-declaration'));
    await screen.findByTestId('amend-banner');
    expect(locked('locationOfGoods')).toBe(false);
    fireEvent.change(field('locationOfGoods'), { target: { value: 'RWG terminal' } });
    fireEvent.click(screen.getByTestId('amend-send'));
    // The whole content is checked with the contract first: slow in jsdom.
    const reason = await screen.findByTestId('reason', {}, { timeout: 5000 });
    fireEvent.change(reason, { target: { value: 'Goods moved to another terminal' } });
    fireEvent.click(screen.getByTestId('amend-dialog-confirm'));
    await screen.findByTestId('pending-request-banner', {}, { timeout: 5000 });
    expect(screen.getByTestId('pending-request-banner').textContent).toBe(
      'Amendment sent to the authority, waiting for the answer.',
    );
    const amend = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/amend'));
    expect(JSON.parse(String(amend?.[1]?.body))).toEqual({
      version: 3,
      reason: 'Goods moved to another terminal',
      changes: { locationOfGoods: 'RWG terminal' },
    });
    // Back to read-only while the authority decides; no second request can be started.
    expect(locked('locationOfGoods')).toBe(true);
    expect(screen.queryByTestId('amend-declaration')).toBeNull();
    expect(screen.queryByTestId('cancel-declaration')).toBeNull();
  });
});
