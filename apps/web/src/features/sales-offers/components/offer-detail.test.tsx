import type { SalesOffer } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { errorOf, field } from '../../../test/fields.ts';
import {
  giveElementsSize,
  jsonResponse,
  renderRoute,
  validationProblem,
} from '../../../test/render-route.tsx';
import { anOffer } from '../test-support.ts';
import { OfferDetail } from './offer-detail.tsx';

const customers: LookupSource = { key: ['customers'], search: async () => [], byId: async () => null };

interface Call {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

/** The API of one offer: GET answers `current`; PATCH and POST …/transitions answer `respond` (default: echo). */
function stubApi(
  initial: SalesOffer,
  respond: (call: Call, current: SalesOffer) => Response | SalesOffer = (c, cur) =>
    ({ ...cur, ...(c.body ?? {}), version: cur.version + 1 }) as SalesOffer,
) {
  let current = initial;
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined,
    };
    calls.push(call);
    if (url.pathname.endsWith('/history')) return jsonResponse([]);
    if (call.method === 'GET') return jsonResponse(current);
    const answer = respond(call, current);
    if (answer instanceof Response) return answer;
    current = answer;
    return jsonResponse(current);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, set: (offer: SalesOffer) => (current = offer) };
}

const start = (offer: SalesOffer, staff: boolean) =>
  renderRoute(<OfferDetail id={offer.id} staff={staff} customerLookup={customers} />, {
    path: '/sales-offers',
    url: `/sales-offers?open=${offer.id}`,
  });

const typeMoney = (name: string, value: string) => {
  fireEvent.focus(field(name));
  fireEvent.change(field(name), { target: { value } });
  fireEvent.blur(field(name));
};

describe('OfferDetail, staff on a draft', () => {
  it('edits the lines with live totals, holds Send back until saved, and lands a server error on its cell', async () => {
    giveElementsSize();
    const api = stubApi(anOffer(), (call, current) =>
      call.method === 'PATCH'
        ? validationProblem([{ field: 'lines.1.unitPrice', message: 'JPY amounts have no decimals' }])
        : current,
    );
    await start(anOffer(), true);
    expect(await screen.findByTestId('offer-form')).toBeTruthy();
    expect(field('lines.0.unitPrice').value).toBe('2,450.00');
    expect(screen.getByTestId('offer-total-EUR').textContent).toContain('€2,635.50');
    expect((screen.getByTestId('transition-sent') as HTMLButtonElement).disabled).toBe(false);

    typeMoney('lines.1.unitPrice', '200');
    expect(screen.getByTestId('offer-total-EUR').textContent).toContain('€2,650.00');
    expect((screen.getByTestId('transition-sent') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('offer-unsaved-hint').textContent).toContain('Save your changes');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(field('lines.1.unitPrice').getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(field('lines.1.unitPrice'))).toContain('JPY amounts have no decimals');
    expect(field('lines.0.unitPrice').getAttribute('aria-invalid')).not.toBe('true');

    const patch = api.calls.find((c) => c.method === 'PATCH');
    // Only what changed (the lines, whole) with the version the form started from.
    expect(Object.keys(patch?.body ?? {}).sort()).toEqual(['lines', 'version']);
    expect(patch?.body?.version).toBe(3);
    expect(((patch?.body?.lines ?? []) as { unitPrice: string }[]).map((l) => l.unitPrice)).toEqual([
      '2450.00',
      '200.00',
    ]);
  });

  it('sends a saved draft after a confirmation that names the contact', async () => {
    giveElementsSize();
    const api = stubApi(anOffer(), (call, current) =>
      call.path.endsWith('/transitions')
        ? { ...current, status: 'sent', version: current.version + 1, allowedTransitions: ['cancelled'] }
        : current,
    );
    await start(anOffer(), true);
    fireEvent.click(await screen.findByTestId('transition-sent'));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('alice@acme.example');
    expect(api.calls.some((c) => c.path.endsWith('/transitions'))).toBe(false);
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.getByTestId('status-badge').getAttribute('data-status')).toBe('sent'));
    expect(api.calls.find((c) => c.path.endsWith('/transitions'))?.body).toEqual({ to: 'sent', version: 3 });
    // Sent: read-only lines, no more form.
    expect(screen.queryByTestId('offer-form')).toBeNull();
    expect(screen.getByTestId('line-0-unitPrice').textContent).toBe('€2,450.00');
  });
});

describe('OfferDetail, deleting a draft', () => {
  it('asks first, deletes it and closes', async () => {
    giveElementsSize();
    const api = stubApi(anOffer(), () => new Response(null, { status: 204 }));
    const onDeleted = vi.fn();
    await renderRoute(
      <OfferDetail id={anOffer().id} staff customerLookup={customers} onDeleted={onDeleted} />,
      { path: '/sales-offers', url: `/sales-offers?open=${anOffer().id}` },
    );
    fireEvent.click(await screen.findByTestId('delete-offer'));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('O-2026-000007');
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe(`/api/sales-offers/${anOffer().id}`);
  });
});

describe('OfferDetail, the customer', () => {
  const sent = anOffer({ status: 'sent', notes: null, allowedTransitions: ['accepted', 'rejected'] });

  it('accepts or rejects a sent offer; accepting says a dossier is booked; an expired one says so plainly', async () => {
    giveElementsSize();
    const api = stubApi(sent, () =>
      jsonResponse(
        { type: 'about:blank', title: 'Conflict', status: 409, detail: 'This offer expired on 20 Nov 2026' },
        409,
      ),
    );
    await start(sent, false);
    expect(await screen.findByTestId('transition-accepted')).toBeTruthy();
    expect(screen.getByTestId('transition-rejected').textContent).toBe('Reject offer');
    // Read-only for the customer: no inputs, no internal notes, no exchange rate column.
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.getByTestId('offer-facts').textContent).not.toContain('Internal notes');
    expect(screen.queryByTestId('line-0-exchangeRate')).toBeNull();
    expect(screen.queryByTestId('delete-offer')).toBeNull();

    fireEvent.click(screen.getByTestId('transition-accepted'));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('We book a dossier for you');
    api.set({ ...sent, status: 'expired', allowedTransitions: [], version: 4 });
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));

    expect((await screen.findByTestId('transition-error')).textContent).toBe(
      'This offer expired on 20 Nov 2026',
    );
    expect(api.calls.find((c) => c.path.endsWith('/transitions'))?.body).toEqual({
      to: 'accepted',
      version: 3,
    });
    await waitFor(() =>
      expect(screen.getByTestId('status-badge').getAttribute('data-status')).toBe('expired'),
    );
    expect(screen.queryByTestId('transition-accepted')).toBeNull();
  });
});

describe('OfferDetail, an accepted offer', () => {
  it('links the dossier it became and offers no more status actions', async () => {
    giveElementsSize();
    const accepted = anOffer({
      status: 'accepted',
      dossier: { id: 'd1', number: 'D-2026-000101' },
      sentAt: '2026-11-20T10:00:00.000Z',
      decidedAt: '2026-11-21T08:30:00.000Z',
      allowedTransitions: [],
    });
    stubApi(accepted);
    await start(accepted, true);
    const links = await screen.findAllByTestId('offer-dossier-link');
    expect(links[0]?.textContent).toBe('Dossier D-2026-000101');
    expect(links[0]?.getAttribute('href')).toBe('/dossiers/D-2026-000101');
    expect(screen.queryByTestId('transition-cancelled')).toBeNull();
    expect(screen.queryByTestId('offer-form')).toBeNull();
    // Staff read the internal notes; the facts speak words and formatted dates, never codes.
    const facts = screen.getByTestId('offer-facts').textContent ?? '';
    expect(facts).toContain('Carrier rate valid until December');
    expect(facts).toContain('Import');
    expect(facts).toContain('24 Dec 2099');
    expect(facts).not.toMatch(/2026-11-2\dT|import\b/);
    expect(screen.getByTestId('offer-total-EUR').textContent).toContain('€2,635.50');
  });
});
