import type { Dossier } from '@fvg/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { ACME_ID, aDossier } from '../../../test/dossier.ts';
import { errorOf } from '../../../test/fields.ts';
import { jsonResponse, renderRoute, validationProblem } from '../../../test/render-route.tsx';
import { DossierForm, type DossierFormProps } from './dossier-form.tsx';

const CUSTOMER = ACME_ID;

const OTHER = '7b1c3e52-0000-4000-8000-00000000b0b0';
const lookup: LookupSource = {
  key: ['test-lookup'],
  search: async () => [
    { value: CUSTOMER, label: 'Acme Trading (ACME)' },
    { value: OTHER, label: 'Globex (GLOBEX)' },
  ],
  byId: async (id) =>
    id === CUSTOMER
      ? { value: CUSTOMER, label: 'Acme Trading (ACME)' }
      : id === OTHER
        ? { value: OTHER, label: 'Globex (GLOBEX)' }
        : null,
};
const lookups = { party: lookup, customer: lookup, handler: lookup };

const dossier = aDossier({
  etd: '2026-05-01',
  eta: '2026-06-01',
  customerReference: 'PO-1',
  containerCount: 1,
  incoterm: 'FOB',
  incotermPlace: 'Shanghai',
  cargoDescription: 'Machine parts',
  packages: 10,
  packageType: 'pallets',
  grossWeightKg: '1200.000',
  containers: [{ number: 'MSKU6011672', sizeType: '22G1', seals: [] }],
  version: 2,
});

function start(props: Partial<DossierFormProps>) {
  return renderRoute(<DossierForm lookups={lookups} onSaved={() => {}} onCancel={() => {}} {...props} />, {
    path: '/dossiers',
    url: '/dossiers',
  });
}

function stubApi(answer: (method: string, url: string, body: unknown) => Response) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    answer(init?.method ?? 'GET', String(input), init?.body ? JSON.parse(String(init.body)) : undefined),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const containerNumber = () => screen.getByTestId('field-containers.0.number') as HTMLInputElement;
describe('DossierForm', () => {
  it('puts a server problem on containers.0.number onto that container field', async () => {
    const onSaved = vi.fn();
    const fetchMock = stubApi(() =>
      validationProblem([
        { field: 'containers.0.number', message: 'MSKU6011672 is on open dossier D-2026-000007' },
      ]),
    );
    await start({
      onSaved,
      initial: {
        type: 'import',
        mode: 'sea',
        customerId: CUSTOMER,
        containers: [{ number: 'MSKU6011672', sizeType: '22G1', seals: [] }],
      },
    });

    fireEvent.click(screen.getByTestId('form-submit'));

    await waitFor(() => expect(containerNumber().getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(containerNumber())).toContain('MSKU6011672 is on open dossier D-2026-000007');
    expect(screen.queryByTestId('form-error')).toBeNull();
    expect(onSaved).not.toHaveBeenCalled();

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/dossiers');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toMatchObject({
      type: 'import',
      mode: 'sea',
      customerId: CUSTOMER,
      consignorId: null,
      containers: [{ number: 'MSKU6011672', sizeType: '22G1', seals: [] }],
    });
  });

  it('shows the ISO 6346 check-digit error while typing, and sends nothing until it is fixed', async () => {
    const fetchMock = stubApi(() => jsonResponse({}));
    await start({ initial: { type: 'import', mode: 'sea', customerId: CUSTOMER } });

    fireEvent.click(screen.getByTestId('add-container'));
    fireEvent.change(containerNumber(), { target: { value: 'msku601167' } });
    // Still typing: no complaint yet.
    expect(containerNumber().getAttribute('aria-invalid')).not.toBe('true');

    fireEvent.change(containerNumber(), { target: { value: 'msku6011671' } });
    expect(containerNumber().value).toBe('MSKU6011671');
    expect(containerNumber().getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(containerNumber())).toContain(
      'This container number has a typo: its last digit should be 2',
    );

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(errorOf(containerNumber())).toContain('its last digit should be 2'));
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(containerNumber(), { target: { value: 'MSKU6011672' } });
    await waitFor(() => expect(containerNumber().getAttribute('aria-invalid')).not.toBe('true'));
    expect(errorOf(containerNumber())).toContain('Check digit OK');
  });

  it('asks for the required fields before sending', async () => {
    const fetchMock = stubApi(() => jsonResponse({}));
    await start({});
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(screen.getByTestId('field-type').getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(screen.getByTestId('field-customerId'))).toContain('Customer is required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('edits with the changed fields and the version; on 409 reloads and reapplies only my changes', async () => {
    const fresh: Dossier = {
      ...dossier,
      version: 3,
      bookingNumber: 'BK-FROM-SERVER',
      cargoDescription: 'Machine parts and spares',
    };
    const saved: Dossier = { ...fresh, version: 4, bookingNumber: 'BK-1' };
    let patches = 0;
    const fetchMock = stubApi(() =>
      patches++ === 0
        ? jsonResponse(
            {
              type: 'about:blank',
              title: 'Conflict',
              status: 409,
              detail:
                'This dossier was changed by someone else since you opened it (you had version 2, it is now 3). Reload it to see their changes, then apply yours again.',
              // What the API sends for a stale version: the field error on `version`.
              errors: [{ field: 'version', message: 'Stale version 2; current is 3' }],
            },
            409,
          )
        : jsonResponse(saved),
    );
    const reload = vi.fn(async () => fresh);
    const onSaved = vi.fn();
    await start({ dossier, dossierKey: dossier.number, reload, onSaved });

    fireEvent.change(screen.getByTestId('field-bookingNumber'), { target: { value: 'BK-1' } });
    fireEvent.change(screen.getByTestId('field-packages'), { target: { value: '11' } });
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });

    const conflict = await screen.findByTestId('form-conflict');
    expect(conflict.textContent).toContain('Someone else saved this record while you were editing it');
    expect(conflict.textContent).not.toContain('version');
    // Beside the Save button, not above the fields.
    expect(
      screen.getByTestId('form-message').parentElement?.contains(screen.getByTestId('form-submit')),
    ).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/dossiers/${dossier.id}`);
    expect(init.method).toBe('PATCH');
    expect(JSON.parse(String(init.body))).toEqual({ bookingNumber: 'BK-1', packages: 11, version: 2 });

    fireEvent.click(screen.getByTestId('form-reload'));
    await waitFor(() => expect(screen.queryByTestId('form-conflict')).toBeNull());
    expect(reload).toHaveBeenCalledTimes(1);
    // My edits stay on top of the new version; their other change comes in.
    expect((screen.getByTestId('field-bookingNumber') as HTMLInputElement).value).toBe('BK-1');
    expect((screen.getByTestId('field-packages') as HTMLInputElement).value).toBe('11');
    expect((screen.getByTestId('field-cargoDescription') as HTMLTextAreaElement).value).toBe(
      'Machine parts and spares',
    );
    expect(screen.getByTestId('form-reapplied').textContent).toContain(
      'Booking number and Cargo description changed meanwhile',
    );

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    const [, again] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(JSON.parse(String(again.body))).toEqual({ bookingNumber: 'BK-1', packages: 11, version: 3 });
  });

  it('says what stays with the current customer while an existing dossier is given to another one', async () => {
    stubApi(() => jsonResponse({}));
    await start({ dossier });
    const field = screen.getByTestId('field-customerId');
    expect(document.body.textContent).not.toContain('stay with the current customer');
    fireEvent.focus(field);
    fireEvent.click(field);
    // The customer's list is the first open one (the party fields use the same test lookup).
    const [globex] = await screen.findAllByRole('option', { name: 'Globex (GLOBEX)', hidden: true });
    fireEvent.click(globex as HTMLElement);
    await waitFor(() =>
      expect(document.body.textContent).toContain(
        'issued invoices, their PDFs and the chat so far stay with the current customer',
      ),
    );
    expect(document.body.textContent).toContain(
      'The customer reference is the current customer’s: it is cleared unless you enter the new customer’s.',
    );
  });
});
