import type { Dossier } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { ADMIN_MODE_STORAGE_KEY } from '../../../lib/admin-mode.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { dateInputOf } from '../../../test/date-inputs.ts';
import { aDossier } from '../../../test/dossier.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { DossierDetail } from './dossier-detail.tsx';
import { todayLocal } from './dossier-transition-facts.ts';

const lookup: LookupSource = { key: ['lookup'], search: async () => [], byId: async () => null };
const lookups = { party: lookup, customer: lookup, handler: lookup };

const booked = aDossier({ version: 4 });
const cancelled = aDossier({ status: 'cancelled', version: 5, allowedTransitions: [] });

function stubApi(answer?: (body: Record<string, unknown>) => Response, initial: Dossier = booked) {
  let current = initial;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (init?.method === 'POST' && url.endsWith('/transitions')) {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      if (answer) return answer(body);
      current = cancelled;
      return jsonResponse({ ...current, warnings: [] });
    }
    if (url.endsWith('/history')) {
      return jsonResponse([
        {
          id: 'h1',
          at: '2026-04-01T09:00:00.000Z',
          action: 'status changed',
          actor: { id: 'u1', name: 'Sam Staff' },
          changes: [{ field: 'status', from: 'requested', to: 'booked' }],
        },
      ]);
    }
    return jsonResponse(current);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const staffMe = { id: 'f0f0f0f0-0000-4000-8000-000000000001', name: 'Sam Staff' };

const start = (role: 'staff' | 'admin' | 'customer', url = '/dossiers/D-2026-000042') =>
  renderRoute(
    <DossierDetail
      dossierKey="D-2026-000042"
      role={role}
      me={role === 'customer' ? null : staffMe}
      lookups={lookups}
    />,
    { path: '/dossiers/D-2026-000042', url },
  );

describe('DossierDetail', () => {
  it('links the sales offer a dossier was booked from, in its summary', async () => {
    const offer = { id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d', number: 'O-2026-000007' };
    stubApi(undefined, aDossier({ version: 4, offer }));
    await start('staff');
    const link = await screen.findByTestId('dossier-offer-link');
    expect(link.textContent).toBe('O-2026-000007');
    expect(link.getAttribute('href')).toBe(`/sales-offers?open=${offer.id}`);
    expect(screen.getByTestId('dossier-summary').textContent).toContain('From offer');
  });

  it('has no offer row when the dossier was not booked from an offer', async () => {
    stubApi();
    await start('staff');
    await screen.findByTestId('dossier-summary');
    expect(screen.queryByTestId('dossier-offer-link')).toBeNull();
    expect(screen.getByTestId('dossier-summary').textContent).not.toContain('From offer');
  });

  it('offers the allowed status actions as buttons and asks before cancelling', async () => {
    const fetchMock = stubApi();
    await start('staff');
    expect((await screen.findByTestId('status-badge')).getAttribute('data-status')).toBe('booked');
    expect(screen.getByTestId('transition-in_transit').textContent).toBe('Mark departed');
    expect(screen.getByTestId('transition-cancelled').textContent).toBe('Cancel dossier');
    expect(screen.queryByTestId('transition-closed')).toBeNull();

    fireEvent.click(screen.getByTestId('transition-cancelled'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('cannot be reopened');
    expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('/transitions'))).toBe(false);
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));

    await waitFor(() =>
      expect(screen.getByTestId('status-badge').getAttribute('data-status')).toBe('cancelled'),
    );
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/transitions')) as [
      string,
      RequestInit,
    ];
    expect(call[0]).toBe(`/api/dossiers/${booked.id}/transitions`);
    expect(JSON.parse(String(call[1].body))).toEqual({ to: 'cancelled', version: 4 });
    expect(screen.queryByTestId('transition-in_transit')).toBeNull();
    expect(screen.queryByTestId('edit-record')).toBeNull();
  });

  it('asks when it departed (today by default), warns far before the ETD, and sends the ATD with the change', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const today = todayLocal();
    const plannedEtd = todayLocal(new Date(Date.now() + 17 * 86_400_000));
    let refused = false;
    const fetchMock = stubApi((body) => {
      if (!refused) {
        refused = true;
        return jsonResponse(
          {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            detail: 'Invalid input',
            errors: [{ field: 'atd', message: 'The departure cannot be in the future' }],
          },
          400,
        );
      }
      return jsonResponse({
        ...booked,
        etd: plannedEtd,
        status: 'in_transit',
        atd: body.atd,
        version: 5,
        allowedTransitions: ['arrived', 'cancelled'],
        warnings: [
          {
            field: 'atd',
            message: 'This departure is 17 days before the planned departure (ETD). Check the date.',
          },
        ],
      });
    });
    await start('staff');
    await screen.findByTestId('status-badge');
    fetchMock.mockClear();
    fireEvent.click(screen.getByTestId('transition-in_transit'));
    const dialog = await screen.findByTestId('transition-dialog');
    expect(dialog.textContent).toContain('When did it depart?');
    // The input shows the day as people read it ('24 Nov 2026'); the API still gets '2026-11-24'.
    expect(dateInputOf(within(dialog).getByTestId('field-atd')).value).toBe(formatDate(today));
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByTestId('transition-dialog-submit'));
    await waitFor(() => expect(dialog.textContent).toContain('The departure cannot be in the future'));
    expect(screen.getByTestId('status-badge').getAttribute('data-status')).toBe('booked');

    fireEvent.click(within(dialog).getByTestId('transition-dialog-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('status-badge').getAttribute('data-status')).toBe('in_transit'),
    );
    const posts = fetchMock.mock.calls.filter(([u]) => String(u).endsWith('/transitions'));
    expect(posts.map(([, init]) => JSON.parse(String((init as RequestInit).body)))).toEqual([
      { to: 'in_transit', version: 4, atd: today },
      { to: 'in_transit', version: 4, atd: today },
    ]);
    const messages = shown.mock.calls.map(([n]) => n.message);
    expect(messages).toContain(
      'This departure is 17 days before the planned departure (ETD). Check the date.',
    );
  });

  it('warns in the dialog while the date contradicts the plan', async () => {
    const farAhead = todayLocal(new Date(Date.now() + 17 * 86_400_000));
    stubApi(undefined, { ...booked, etd: farAhead });
    await start('staff');
    fireEvent.click(await screen.findByTestId('transition-in_transit'));
    const dialog = await screen.findByTestId('transition-dialog');
    await waitFor(() =>
      expect(within(dialog).getByTestId('transition-warning-atd').textContent).toContain(
        '17 days before the planned departure (ETD)',
      ),
    );
  });

  it('asks who handles a booking it confirms, the signed-in user by default', async () => {
    const requested: Dossier = {
      ...booked,
      status: 'requested',
      version: 1,
      allowedTransitions: ['booked', 'cancelled'],
    };
    const fetchMock = stubApi(
      (body) =>
        jsonResponse({ ...booked, handler: { id: String(body.handlerId), name: 'Sam Staff' }, warnings: [] }),
      requested,
    );
    await start('staff');
    fireEvent.click(await screen.findByTestId('transition-booked'));
    const dialog = await screen.findByTestId('transition-dialog');
    expect((within(dialog).getByTestId('field-handlerId') as HTMLInputElement).value).toBe('Sam Staff');
    fireEvent.click(within(dialog).getByTestId('transition-dialog-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('status-badge').getAttribute('data-status')).toBe('booked'),
    );
    const post = fetchMock.mock.calls.find(
      ([, init]) => (init as RequestInit | undefined)?.method === 'POST',
    );
    expect(JSON.parse(String((post?.[1] as RequestInit | undefined)?.body))).toEqual({
      to: 'booked',
      version: 1,
      handlerId: staffMe.id,
    });
  });

  it('keeps the tab in the URL and shows the history there; charges only for staff', async () => {
    stubApi();
    const { router } = await start('staff', '/dossiers/D-2026-000042?tab=history');
    expect((await screen.findAllByTestId('history-entry')).length).toBe(1);
    expect(screen.getByTestId('history-to').textContent).toBe('Booked');

    fireEvent.click(screen.getByTestId('tab-cargo'));
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'cargo' }));
    fireEvent.click(screen.getByTestId('tab-summary'));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(screen.getByTestId('tab-charges')).toBeTruthy();
    fireEvent.click(screen.getByTestId('tab-transports'));
    expect((await screen.findByTestId('coming-area')).textContent).toContain('Arrives with transports');
  });

  it('shows admin-only actions in admin mode only, and no charges or edit to customers', async () => {
    stubApi();
    const customer = await start('customer');
    await screen.findByTestId('status-badge');
    expect(screen.queryByTestId('tab-charges')).toBeNull();
    expect(screen.queryByTestId('edit-record')).toBeNull();
    customer.unmount();

    localStorage.setItem(ADMIN_MODE_STORAGE_KEY, 'true');
    await start('admin', '/dossiers/D-2026-000042?tab=history');
    await screen.findAllByTestId('history-entry');
    expect(screen.getByTestId('history-raw-toggle')).toBeTruthy();
    // Delete is for booking requests and cancelled dossiers only.
    expect(screen.queryByTestId('delete-record')).toBeNull();
  });
});
