import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { giveElementsSize } from '../../test/render-route.tsx';
import { DataTable, type RecordColumn } from './data-table.tsx';
import type { SortTerm } from './list-search.ts';
import { columnStorageKey } from './use-column-visibility.ts';

interface Row {
  id: string;
  number: string;
  customer: string;
  etd: string;
  note: string;
}

const columns: RecordColumn<Row>[] = [
  { id: 'number', header: 'Number', sortField: 'number', required: true, cell: (r) => r.number },
  // The column id and the API's sort field need not be the same.
  { id: 'customer', header: 'Customer', sortField: 'customerName', cell: (r) => r.customer },
  { id: 'etd', header: 'ETD', sortField: 'etd', sortDescFirst: true, cell: (r) => r.etd },
  { id: 'note', header: 'Note', hiddenByDefault: true, cell: (r) => r.note },
];

const rows: Row[] = [
  { id: '1', number: 'D-1', customer: 'Acme', etd: '2026-05-01', note: 'fragile' },
  { id: '2', number: 'D-2', customer: 'Globex', etd: '2026-05-02', note: '' },
];

function Table({ onSort }: { onSort?: (terms: SortTerm[]) => void }) {
  const [sorting, setSorting] = useState<SortTerm[]>([]);
  return (
    <DataTable
      tableId="test-list"
      label="Test list"
      columns={columns}
      rows={rows}
      getRowId={(r) => r.id}
      getRowTestId={(r) => `row-${r.number}`}
      sorting={sorting}
      onSortingChange={(terms) => {
        setSorting(terms);
        onSort?.(terms);
      }}
    />
  );
}

const headers = () =>
  screen.queryAllByRole('columnheader').map((h) => h.getAttribute('data-testid')?.replace('header-', ''));

async function toggleColumn(id: string) {
  fireEvent.click(screen.getByTestId('column-chooser'));
  fireEvent.click(await screen.findByTestId(`column-toggle-${id}`));
}

describe('DataTable', () => {
  beforeEach(() => giveElementsSize());

  it('ends a plain text cell in an ellipsis when narrow, with the whole text on hover (issue 27 item 2)', async () => {
    renderWithProviders(<Table />);
    const row = await screen.findByTestId('row-D-1');
    const cell = within(row).getByText('Acme');
    expect(cell.tagName).toBe('SPAN');
    expect(cell.getAttribute('title')).toBe('Acme');
    expect(cell.className).toMatch(/text/);
  });

  it('remembers the chosen columns per list in localStorage, across mounts', async () => {
    const first = renderWithProviders(<Table />);
    await screen.findByTestId('row-D-1');
    expect(headers()).toEqual(['number', 'customer', 'etd']);

    await toggleColumn('customer');
    await waitFor(() => expect(headers()).toEqual(['number', 'etd']));
    await toggleColumn('note');
    await waitFor(() => expect(headers()).toEqual(['number', 'etd', 'note']));
    expect(JSON.parse(localStorage.getItem(columnStorageKey('test-list')) ?? 'null')).toEqual({
      customer: false,
      note: true,
    });
    // The record number cannot be hidden.
    expect(screen.queryByTestId('column-toggle-number')).toBeNull();
    first.unmount();

    renderWithProviders(<Table />);
    await screen.findByTestId('row-D-1');
    expect(headers()).toEqual(['number', 'etd', 'note']);
    expect(screen.getByTestId('row-D-1').textContent).toContain('fragile');

    fireEvent.click(screen.getByTestId('column-chooser'));
    fireEvent.click(await screen.findByTestId('column-reset'));
    await waitFor(() => expect(headers()).toEqual(['number', 'customer', 'etd']));
    expect(JSON.parse(localStorage.getItem(columnStorageKey('test-list')) ?? 'null')).toEqual({});
  });

  it('turns header clicks into the API order: click sorts, click again reverses, shift-click adds', async () => {
    const onSort = vi.fn();
    renderWithProviders(<Table onSort={onSort} />);
    await screen.findByTestId('row-D-1');

    fireEvent.click(screen.getByTestId('sort-customer'));
    expect(onSort).toHaveBeenLastCalledWith([{ id: 'customerName', desc: false }]);
    await waitFor(() =>
      expect(screen.getByTestId('header-customer').getAttribute('aria-sort')).toBe('ascending'),
    );

    fireEvent.click(screen.getByTestId('sort-customer'));
    expect(onSort).toHaveBeenLastCalledWith([{ id: 'customerName', desc: true }]);

    // Dates sort newest first on the first click.
    fireEvent.click(screen.getByTestId('sort-etd'), { shiftKey: true });
    expect(onSort).toHaveBeenLastCalledWith([
      { id: 'customerName', desc: true },
      { id: 'etd', desc: true },
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('header-etd').getAttribute('aria-sort')).toBe('descending'),
    );

    // Columns without a sort field have no sort button.
    await toggleColumn('note');
    await waitFor(() => expect(screen.getByTestId('header-note')).toBeTruthy());
    expect(screen.queryByTestId('sort-note')).toBeNull();
  });

  it('opens a row on click, but not when a link or button inside it is clicked', async () => {
    const onOpen = vi.fn();
    renderWithProviders(
      <DataTable
        tableId="clicks"
        label="Clicks"
        columns={[
          {
            id: 'number',
            header: 'Number',
            required: true,
            cell: (r: Row) => <a href={`#${r.number}`}>{r.number}</a>,
          },
          { id: 'customer', header: 'Customer', cell: (r: Row) => r.customer },
        ]}
        rows={rows}
        getRowId={(r) => r.id}
        getRowTestId={(r) => `row-${r.number}`}
        onOpen={onOpen}
      />,
    );
    fireEvent.click(await screen.findByText('Globex'));
    expect(onOpen).toHaveBeenCalledWith(rows[1]);
    fireEvent.click(screen.getByText('D-1'));
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
});
