import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { formatDate, todayIso } from '../../../lib/format-date.ts';
import { dateInputOf } from '../../../test/date-inputs.ts';
import { errorOf, field } from '../../../test/fields.ts';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { ACME, anOffer } from '../test-support.ts';
import { OfferForm } from './offer-form.tsx';
import { addDays } from './offer-form-values.ts';

const customers: LookupSource = {
  key: ['customers'],
  search: async () => [{ value: ACME.id, label: `${ACME.name} (${ACME.code})` }],
  byId: async () => null,
};

async function pick(name: string, label: string) {
  const input = field(name);
  fireEvent.click(input);
  const list = document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement;
  fireEvent.click(await within(list).findByRole('option', { name: label, hidden: true }));
}

const type = (name: string, value: string) => fireEvent.change(field(name), { target: { value } });
const typeAmount = (name: string, value: string) => {
  fireEvent.focus(field(name));
  type(name, value);
  fireEvent.blur(field(name));
};

function start(onSaved = vi.fn()) {
  const contact = vi.fn(async () => ({
    contactName: 'Alice Buyer',
    contactEmail: 'alice@acme.example',
    countryCode: 'NL',
    vatNumber: null,
  }));
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    jsonResponse(anOffer(), 201),
  );
  vi.stubGlobal('fetch', fetchMock);
  return {
    contact,
    fetchMock,
    onSaved,
    rendered: renderRoute(
      <OfferForm customerLookup={customers} customerInfo={contact} sellerCountry="NL" onSaved={onSaved} />,
      { path: '/sales-offers', url: '/sales-offers?new=1' },
    ),
  };
}

describe('OfferForm, a new offer', () => {
  it('prefills the contact and valid-until, takes two lines and posts what the contract takes', async () => {
    giveElementsSize();
    const { contact, fetchMock, onSaved, rendered } = start();
    await rendered;
    // Valid for 30 days by default, shown as people read dates.
    expect(dateInputOf(field('validUntil')).value).toBe(formatDate(addDays(todayIso(), 30)));

    await pick('customerId', `${ACME.name} (${ACME.code})`);
    await waitFor(() => expect(field('contactEmail').value).toBe('alice@acme.example'));
    expect(contact).toHaveBeenCalledWith(ACME.id, expect.anything());
    expect(field('contactName').value).toBe('Alice Buyer');

    type('originLocode', 'cnsha');
    type('destinationLocode', 'nlrtm');
    expect(field('originLocode').value).toBe('CNSHA');

    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(field('lines.0.description')).toBeTruthy());
    // An export dossier by default: the first line is exempt freight in EUR.
    expect(field('lines.0.chargeCode').value).toBe('Freight');
    expect(field('lines.0.vatCode').value).toBe('E · Exempt');
    type('lines.0.description', 'Ocean freight Shanghai–Rotterdam');
    type('lines.0.quantity', '2');
    typeAmount('lines.0.unitPrice', '1,225.50');

    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(field('lines.1.description')).toBeTruthy());
    await pick('lines.1.chargeCode', 'Terminal handling');
    type('lines.1.description', 'THC Rotterdam');
    typeAmount('lines.1.unitPrice', '185.50');
    expect(screen.getByTestId('offer-total-EUR').textContent).toContain('€2,636.50');
    // Picking the standard rate fills the seller country's rate (NL 21 %); VAT follows live.
    await pick('lines.1.vatCode', 'S · Standard rate');
    await waitFor(() => expect(field('lines.1.vatRate').value).toBe('21'));
    expect(screen.getByTestId('offer-total-EUR').textContent).toBe('Net €2,636.50VAT €38.96Total €2,675.46');

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/sales-offers');
    expect(init.method).toBe('POST');
    const body = JSON.parse(String(init.body));
    expect(body).toMatchObject({
      customerId: ACME.id,
      contactName: 'Alice Buyer',
      contactEmail: 'alice@acme.example',
      validUntil: addDays(todayIso(), 30),
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      mode: 'sea',
      dossierType: 'export',
    });
    expect(body.lines).toEqual([
      {
        chargeCode: 'FREIGHT',
        description: 'Ocean freight Shanghai–Rotterdam',
        quantity: '2',
        unit: 'C62',
        unitPrice: '1225.50',
        currency: 'EUR',
        exchangeRate: '1',
        vatCode: 'E',
        vatRate: '0',
      },
      {
        chargeCode: 'THC',
        description: 'THC Rotterdam',
        quantity: '1',
        unit: 'C62',
        unitPrice: '185.50',
        currency: 'EUR',
        exchangeRate: '1',
        vatCode: 'S',
        vatRate: '21',
      },
    ]);
  });

  it('says on the cell what a line lacks and sends nothing', async () => {
    giveElementsSize();
    const { fetchMock, rendered } = start();
    await rendered;
    await pick('customerId', `${ACME.name} (${ACME.code})`);
    fireEvent.click(screen.getByTestId('add-line'));
    await waitFor(() => expect(field('lines.0.description')).toBeTruthy());
    type('lines.0.currency', 'usd');
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(field('lines.0.description').getAttribute('aria-invalid')).toBe('true'));
    expect(errorOf(field('lines.0.description'))).toBe('Description is required');
    expect(errorOf(field('lines.0.unitPrice'))).toMatch(/Unit price/);
    // Another currency needs its rate to the base currency.
    expect(errorOf(field('lines.0.exchangeRate'))).toContain('EUR per 1 USD');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
