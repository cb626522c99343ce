import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyLookup, freshListEachTest, renderList, stubListPage } from '../../../test/list.tsx';
import { validateDeclarationsSearch } from '../search.ts';
import { aListItem } from '../test/fixtures.ts';
import { declarationListConfig } from './declaration-list-config.tsx';

const lookup = emptyLookup;

const accepted = aListItem();
const rejectedExport = aListItem({
  id: '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
  type: 'export',
  category: 'B1',
  status: 'rejected',
  lrn: 'LRN-2026-000043',
  mrn: null,
  dossier: null,
  declarantName: null,
  customsValue: '2500.50',
  dutyAndVat: null,
  lastMessage: { kind: 'rejected', at: '2026-11-12T11:00:00.000Z' },
  pendingRequest: null,
});
const pending = aListItem({
  id: '2b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
  lrn: 'LRN-2026-000044',
  pendingRequest: 'amendment',
});

const stubList = () => stubListPage([accepted, rejectedExport, pending]);

const start = (staff: boolean, url = '/declarations') =>
  renderList(declarationListConfig({ staff, customerLookup: lookup, dossierLookup: lookup }), {
    path: '/declarations',
    url,
    validateSearch: validateDeclarationsSearch,
  });

freshListEachTest();

describe('the declarations list', () => {
  it('shows the model’s columns with labels, not codes, and euro amounts through the one formatter', async () => {
    stubList();
    await start(true);
    const row = await screen.findByTestId('row-LRN-2026-000042');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'LRN',
      'MRN',
      'Type',
      'Status',
      'Customer',
      'Customs value',
      'Duty + VAT',
      'Last message',
    ]);
    expect(within(row).getByRole('link', { name: 'LRN-2026-000042' }).getAttribute('href')).toBe(
      `/declarations/${accepted.lrn}`,
    );
    expect(row.textContent).toContain('26NL000396000042R3');
    expect(row.textContent).toContain('Import');
    expect(within(row).getByTestId('row-status').textContent).toBe('Accepted');
    expect(row.textContent).toContain('€10,000.00');
    expect(row.textContent).toContain('€2,100.00');
    expect(row.textContent).toContain('Accepted, MRN allocated · 12 Nov 2026');
    // No raw codes or ISO instants anywhere in the row.
    expect(row.textContent).not.toMatch(/\bimport\b|accepted\b|2026-11-12T/);

    const other = screen.getByTestId('row-LRN-2026-000043');
    expect(other.textContent).toContain('Export');
    expect(within(other).getByTestId('row-status').textContent).toBe('Rejected');
    expect(other.textContent).toContain('€2,500.50');
    expect(other.getAttribute('data-accent')).toBe('danger');
    expect(row.getAttribute('data-accent')).toBeNull();
    // The dossier is one click away (column chooser), so the amounts fit a 1280 px screen.
    fireEvent.click(screen.getByTestId('column-chooser'));
    fireEvent.click(await screen.findByTestId('column-toggle-dossier'));
    await waitFor(() =>
      expect(screen.getByTestId('row-LRN-2026-000042').textContent).toContain('D-2026-000042'),
    );
  });

  it('marks a declaration waiting for the authority’s answer to a request', async () => {
    stubList();
    await start(true);
    const row = await screen.findByTestId('row-LRN-2026-000044');
    expect(within(row).getByTestId('pending-request').textContent).toBe('Amendment pending');
    expect(within(screen.getByTestId('row-LRN-2026-000042')).queryByTestId('pending-request')).toBeNull();
  });

  it('sends the filters from the URL as the API names them', async () => {
    const fetchMock = stubList();
    await start(
      true,
      '/declarations?type=import,transit&status=accepted,released&reference=26NL&from=2026-11-01&to=2026-11-30&pendingRequest=true&sort=-customsValue',
    );
    await screen.findByTestId('row-LRN-2026-000042');
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x');
    expect(url.pathname).toMatch(/\/declarations$/);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      type: 'import,transit',
      status: 'accepted,released',
      reference: '26NL',
      from: '2026-11-01',
      to: '2026-11-30',
      pendingRequest: 'true',
      sort: '-customsValue',
    });
    await waitFor(() => expect(screen.getByTestId('filters-clear').textContent).toBe('Clear filters (5)'));
  });

  it('drops what the URL names that the list does not know', () => {
    expect(
      validateDeclarationsSearch({ type: 'import,bogus', status: 'nope', sort: 'secret', from: 'x' }),
    ).toEqual({
      type: 'import',
    });
  });

  it('offers customers no customer or dossier filter and no draft status', async () => {
    stubList();
    await start(false);
    await screen.findByTestId('row-LRN-2026-000042');
    expect(screen.queryByTestId('filter-customerId')).toBeNull();
    expect(screen.queryByTestId('filter-dossierId')).toBeNull();
    const config = declarationListConfig({ staff: false, customerLookup: lookup, dossierLookup: lookup });
    const status = config.filters?.find((f) => f.kind === 'multiselect' && f.key === 'status');
    expect(status?.kind === 'multiselect' && status.options.map((o) => o.value)).not.toContain('draft');
    const staffStatus = declarationListConfig({
      staff: true,
      customerLookup: lookup,
      dossierLookup: lookup,
    }).filters?.find((f) => f.kind === 'multiselect' && f.key === 'status');
    expect(staffStatus?.kind === 'multiselect' && staffStatus.options.map((o) => o.value)).toContain('draft');
  });
});
