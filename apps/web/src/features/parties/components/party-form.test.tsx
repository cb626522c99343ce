import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { errorOf, field } from '../../../test/fields.ts';
import { jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { PartyForm } from './party-form.tsx';

describe('PartyForm', () => {
  it('checks VAT numbers with the contract rules and maps a nested server error onto a contact', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Bad request',
          status: 400,
          errors: [{ field: 'contacts.0.email', message: 'This address bounced last week' }],
        },
        400,
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    await renderRoute(<PartyForm onSaved={() => {}} onCancel={() => {}} />, {
      path: '/parties',
      url: '/parties',
    });

    fireEvent.change(field('name'), { target: { value: 'Acme Trading B.V.' } });
    fireEvent.change(field('code'), { target: { value: 'acme' } });
    expect(field('code').value).toBe('ACME');
    fireEvent.change(field('vatNumber'), { target: { value: 'NL123456789' } });
    fireEvent.click(screen.getByTestId('add-contact'));
    fireEvent.change(field('contacts.0.name'), { target: { value: 'Carla' } });
    fireEvent.change(field('contacts.0.email'), { target: { value: 'carla@acme.example' } });

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('vatNumber'))).toContain('Enter a VAT number such as NL004495445B01'),
    );
    expect(errorOf(screen.getByTestId('field-kinds'))).toContain('Choose at least one role');
    expect(errorOf(screen.getByTestId('field-countryCode'))).toContain('Country is required');
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(field('vatNumber'), { target: { value: 'NL123456782B01' } });
    // Roles and country are pickers: open each, then choose.
    fireEvent.focus(screen.getByTestId('field-kinds'));
    fireEvent.click(screen.getByTestId('field-kinds'));
    fireEvent.click(await screen.findByRole('option', { name: 'Customer', hidden: true }));
    fireEvent.focus(screen.getByTestId('field-countryCode'));
    fireEvent.click(screen.getByTestId('field-countryCode'));
    fireEvent.click(await screen.findByRole('option', { name: 'NL — Netherlands', hidden: true }));

    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('contacts.0.email'))).toContain('This address bounced last week'),
    );
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/parties');
    expect(JSON.parse(String(init.body))).toMatchObject({
      code: 'ACME',
      kinds: ['customer'],
      countryCode: 'NL',
      vatNumber: 'NL123456782B01',
      eori: null,
      contacts: [{ name: 'Carla', email: 'carla@acme.example', phone: null, role: null }],
    });
  });

  it('puts a clash reported as 409 with a field (code already in use) on that field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(
          {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            detail: 'A party with the code ACME already exists.',
            errors: [{ field: 'code', message: 'This code is already in use' }],
          },
          409,
        ),
      ),
    );
    const party = {
      id: 'p-1',
      code: 'ACME2',
      name: 'Acme',
      kinds: ['customer'],
      countryCode: 'NL',
      vatNumber: null,
      eori: null,
      peppolScheme: null,
      peppolId: null,
      street: null,
      postalCode: null,
      city: null,
      email: null,
      phone: null,
      contacts: [],
      version: 1,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    };
    await renderRoute(<PartyForm party={party} onSaved={() => {}} onCancel={() => {}} />, {
      path: '/parties',
      url: '/parties',
    });
    fireEvent.change(field('code'), { target: { value: 'ACME' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(errorOf(field('code'))).toContain('This code is already in use'));
    expect(screen.queryByTestId('form-conflict')).toBeNull();
  });

  it('refuses a VAT number whose check digits fail and a Peppol scheme without its endpoint id', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    await renderRoute(<PartyForm onSaved={() => {}} onCancel={() => {}} />, {
      path: '/parties',
      url: '/parties',
    });
    fireEvent.change(field('name'), { target: { value: 'Globex GmbH' } });
    fireEvent.change(field('code'), { target: { value: 'GLOBEX' } });
    fireEvent.focus(screen.getByTestId('field-kinds'));
    fireEvent.click(screen.getByTestId('field-kinds'));
    fireEvent.click(await screen.findByRole('option', { name: 'Customer', hidden: true }));
    fireEvent.focus(screen.getByTestId('field-countryCode'));
    fireEvent.click(screen.getByTestId('field-countryCode'));
    fireEvent.click(await screen.findByRole('option', { name: 'DE — Germany', hidden: true }));
    fireEvent.change(field('vatNumber'), { target: { value: 'DE123456789' } });
    fireEvent.focus(screen.getByTestId('field-peppolScheme'));
    fireEvent.click(screen.getByTestId('field-peppolScheme'));
    fireEvent.click(await screen.findByRole('option', { name: '0088 · GLN (GS1)', hidden: true }));
    fireEvent.click(screen.getByTestId('form-submit'));
    // The example the message gives is a German number whose check digits hold.
    await waitFor(() =>
      expect(errorOf(field('vatNumber'))).toContain(
        'The check digits of this VAT number do not match: check it for a typo (a valid one looks like DE136695976)',
      ),
    );
    fireEvent.change(field('vatNumber'), { target: { value: 'DE136695976' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() =>
      expect(errorOf(field('peppolId'))).toContain('Enter the endpoint id for this scheme'),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
