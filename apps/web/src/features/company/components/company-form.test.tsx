import type { Company } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorOf, field } from '../../../test/fields.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { CompanyForm } from './company-form.tsx';

const company: Company = {
  legalName: 'FVG Forwarding B.V.',
  street: null,
  postalCode: null,
  city: 'Rotterdam',
  countryCode: 'NL',
  vatNumber: 'NL859437218B01',
  eori: null,
  registrationNumber: null,
  iban: null,
  bic: null,
  email: null,
  peppolScheme: null,
  peppolId: null,
  baseCurrency: 'EUR',
  paymentTermsDays: 30,
  invoiceFooter: null,
  gs1CompanyPrefix: null,
  ssccExtensionDigit: 0,
  booksClosedUpTo: null,
  series: [
    { kind: 'offer', prefix: 'O-', year: 2026, nextNumber: 1, lastIssued: 0 },
    { kind: 'invoice', prefix: 'I-', year: 2026, nextNumber: 121, lastIssued: 120 },
  ],
  version: 4,
  updatedAt: '2026-03-01T10:00:00Z',
};

const render = () =>
  renderRoute(<CompanyForm company={company} reload={async () => company} />, {
    path: '/admin/company',
    url: '/admin/company',
  });

describe('CompanyForm', () => {
  it('checks the IBAN and the Peppol pair with the contract rules before sending anything', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(company));
    vi.stubGlobal('fetch', fetchMock);
    await render();

    fireEvent.change(field('iban'), { target: { value: 'nl92 abna 0417 1643 00' } });
    expect(field('iban').value).toBe('NL92 ABNA 0417 1643 00');
    fireEvent.change(field('peppolId'), { target: { value: '24481234' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('iban'))).toContain('This IBAN has a typo: its check digits do not match'),
    );
    expect(errorOf(screen.getByTestId('field-peppolScheme'))).toContain(
      'Choose the scheme of this endpoint id',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('names the Peppol pair as the party form and the field messages do', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(company)),
    );
    await render();
    expect(screen.getAllByLabelText('Peppol scheme').length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Peppol endpoint id')).toBe(field('peppolId'));
    expect(screen.queryByLabelText('Endpoint id')).toBeNull();
  });

  it('sends the whole settings with the version, and shows a refused next number on its row', async () => {
    const show = vi.spyOn(notifications, 'show');
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Bad request',
          status: 400,
          errors: [
            {
              field: 'series.1.nextNumber',
              message: 'Number 120 of 2026 is already issued',
              code: 'series_below_issued',
              params: { code: 'series_below_issued', lastIssued: 120, year: 2026 },
            },
          ],
        },
        400,
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await render();

    fireEvent.change(field('invoiceFooter'), { target: { value: 'Thank you.' } });
    fireEvent.change(field('series.1.prefix'), { target: { value: 'inv-' } });
    fireEvent.change(field('series.1.nextNumber'), { target: { value: '100' } });
    fireEvent.click(screen.getByTestId('form-submit'));

    await waitFor(() =>
      expect(errorOf(field('series.1.nextNumber'))).toContain(
        'Number 120 is already issued in 2026; choose 121 or higher',
      ),
    );
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/company');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toMatchObject({
      version: 4,
      legalName: 'FVG Forwarding B.V.',
      invoiceFooter: 'Thank you.',
      paymentTermsDays: 30,
      series: [
        { kind: 'offer', prefix: 'O-', year: 2026, nextNumber: 1 },
        { kind: 'invoice', prefix: 'INV-', year: 2026, nextNumber: 100 },
      ],
    });
    expect(show).not.toHaveBeenCalled();
  });

  it('checks the GS1 company prefix before sending, and sends it with the SSCC extension digit as a number', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => jsonResponse(company));
    vi.stubGlobal('fetch', fetchMock);
    await render();

    fireEvent.change(field('gs1CompanyPrefix'), { target: { value: '87123' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('gs1CompanyPrefix'))).toContain('A GS1 company prefix has 6 to 12 digits'),
    );
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(field('gs1CompanyPrefix'), { target: { value: '8712345' } });
    fireEvent.change(field('ssccExtensionDigit'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({
      gs1CompanyPrefix: '8712345',
      ssccExtensionDigit: 3,
    });
  });

  it('sends why a series number changes, and shows the server asking for it on the reason field', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Unprocessable content',
          status: 422,
          errors: [
            { field: 'series.1.reason', message: 'Say why the next number of 2026 changes from 121 to 130' },
          ],
        },
        422,
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await render();
    fireEvent.change(field('series.1.nextNumber'), { target: { value: '130' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('series.1.reason'))).toContain('Say why the next number of 2026 changes'),
    );
    fireEvent.change(field('series.1.reason'), { target: { value: 'Paper invoices 121–129' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [, init] = fetchMock.mock.calls[1] as [string, RequestInit];
    const sent = JSON.parse(String(init.body));
    expect(sent.series[1]).toMatchObject({
      kind: 'invoice',
      nextNumber: 130,
      reason: 'Paper invoices 121–129',
    });
    expect(sent.series[0].reason).toBeUndefined();
    expect(sent.booksClosedUpTo).toBeNull();
  });

  it('shows the conflict banner when someone else saved first', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            errors: [{ field: 'version', message: 'Stale version 4; current is 5' }],
          },
          409,
        ),
      ),
    );
    await render();
    fireEvent.change(field('city'), { target: { value: 'Antwerp' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    expect(await screen.findByTestId('form-conflict')).toBeTruthy();
  });
});
