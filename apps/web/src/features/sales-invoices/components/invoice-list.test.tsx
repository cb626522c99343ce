import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyLookup, freshListEachTest, renderList, stubListPage } from '../../../test/list.tsx';
import { aListItem } from '../../../test/sales-invoice.ts';
import { validateInvoicesSearch } from '../search.ts';
import { invoiceListConfig } from './invoice-list-config.tsx';

const lookup = emptyLookup;

const overdue = aListItem({ overdue: true, status: 'partially_paid', openAmount: '1110.00' });
const draft = aListItem({
  id: '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
  number: null,
  status: 'draft',
  issueDate: null,
  dueDate: null,
  dossier: null,
  currency: 'USD',
  taxInclusiveAmount: '500.00',
  openAmount: '500.00',
});

const stubList = () => stubListPage([overdue, draft]);

const start = (staff: boolean, url = '/sales-invoices') =>
  renderList(invoiceListConfig({ staff, customerLookup: lookup, dossierLookup: lookup }), {
    path: '/sales-invoices',
    url,
    validateSearch: validateInvoicesSearch,
  });

freshListEachTest();

describe('the invoices list', () => {
  it('shows number (Draft without one), kind, status, customer, dossier, dates, total and open in its currency', async () => {
    stubList();
    await start(true);
    await screen.findByTestId('row-I-2026-000042');
    const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent);
    // Kind and dossier are one click away, so the amounts fit a 1280 px screen.
    expect(headers()).toEqual(['Number', 'Status', 'Customer', 'Issued', 'Due', 'Total', 'Open']);
    fireEvent.click(screen.getByTestId('column-chooser'));
    fireEvent.click(await screen.findByTestId('column-toggle-kind'));
    fireEvent.click(screen.getByTestId('column-toggle-dossier'));
    await waitFor(() =>
      expect(headers()).toEqual([
        'Number',
        'Kind',
        'Status',
        'Customer',
        'Dossier',
        'Issued',
        'Due',
        'Total',
        'Open',
      ]),
    );
    const row = screen.getByTestId('row-I-2026-000042');
    expect(row.textContent).toContain('Invoice');
    expect(row.textContent).toContain('D-2026-000042');
    expect(row.textContent).toContain('€1,210.00');
    const draftRow = screen.getByTestId(`row-${draft.id}`);
    // The number cell links a draft by its id; the status says Draft too.
    expect(within(draftRow).getByRole('link', { name: 'Draft' }).getAttribute('href')).toBe(
      `/sales-invoices/${draft.id}`,
    );
    expect(draftRow.textContent).toContain('$500.00');
  });

  it('shows a credit note’s total and open amount as negative (issue 27 item 3)', async () => {
    const note = aListItem({
      id: '2c3d4e5f-6071-4b8c-9dae-1f2a3b4c5d6e',
      number: 'C-2026-000003',
      kind: 'credit_note',
      status: 'issued',
      taxInclusiveAmount: '121.00',
      openAmount: '121.00',
    });
    stubListPage([overdue, note]);
    await start(true);
    const row = await screen.findByTestId('row-C-2026-000003');
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(-2)).toEqual(['-€121.00', '-€121.00']);
    expect(screen.getByTestId('row-I-2026-000042').textContent).toContain('€1,210.00');
    expect(screen.getByTestId('row-I-2026-000042').textContent).not.toContain('-€1,210.00');
  });

  it('marks an overdue invoice with a red badge and a red row edge, and only that one', async () => {
    stubList();
    await start(true);
    const row = await screen.findByTestId('row-I-2026-000042');
    expect(within(row).getByTestId('overdue-badge').textContent).toBe('Overdue');
    expect(row.getAttribute('data-accent')).toBe('danger');
    const draftRow = screen.getByTestId(`row-${draft.id}`);
    expect(within(draftRow).queryByTestId('overdue-badge')).toBeNull();
    expect(draftRow.getAttribute('data-accent')).toBeNull();
  });

  it('sends the filters from the URL as the API names them', async () => {
    const fetchMock = stubList();
    await start(
      true,
      '/sales-invoices?status=issued,partially_paid&kind=invoice&overdue=true&issuedFrom=2026-10-01&sort=-dueDate',
    );
    await screen.findByTestId('row-I-2026-000042');
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      status: 'issued,partially_paid',
      kind: 'invoice',
      overdue: 'true',
      issuedFrom: '2026-10-01',
      sort: '-dueDate',
    });
    expect(screen.getByTestId('filter-overdue')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('filters-clear').textContent).toBe('Clear filters (4)'));
  });

  it('offers customers no customer or dossier filter and no draft status', async () => {
    stubList();
    await start(false);
    await screen.findByTestId('row-I-2026-000042');
    expect(screen.queryByTestId('filter-customerId')).toBeNull();
    expect(screen.queryByTestId('filter-dossierId')).toBeNull();
    const config = invoiceListConfig({ staff: false, customerLookup: lookup, dossierLookup: lookup });
    const status = config.filters?.find((f) => f.kind === 'multiselect');
    expect(status?.kind === 'multiselect' && status.options.map((o) => o.value)).not.toContain('draft');
  });
});
