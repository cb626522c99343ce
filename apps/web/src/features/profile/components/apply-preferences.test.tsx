import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataTable, type RecordColumn } from '../../../components/records/data-table.tsx';
import { resetDisplayPreferences } from '../../../lib/display-preferences.ts';
import { formatMoney } from '../../../lib/format.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { setNumberFormat } from '../../../lib/number-format.ts';
import { applyPreferences } from '../../../lib/session.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { giveElementsSize } from '../../../test/render-route.tsx';

/*
 * The profile's preferences reach a list that is already on screen: the data table re-renders its
 * cells through the one formatter when `me` brings other preferences, without a reload.
 */

interface Row {
  id: string;
  total: `${number}`;
  due: string;
}
const columns: RecordColumn<Row>[] = [
  { id: 'total', header: 'Total', required: true, cell: (r) => formatMoney(r.total, { currency: 'EUR' }) },
  { id: 'due', header: 'Due', cell: (r) => formatDate(r.due) },
];
const rows: Row[] = [{ id: '1', total: '1234567.5', due: '2026-11-23' }];

beforeEach(() => giveElementsSize());
afterEach(() => {
  setNumberFormat(null);
  resetDisplayPreferences();
});

describe('preferences applied to a list on screen', () => {
  it('re-renders amounts and dates when the preferences change', async () => {
    renderWithProviders(
      <DataTable
        tableId="prefs"
        label="Invoices"
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        getRowTestId={() => 'row'}
      />,
    );
    const row = await screen.findByTestId('row');
    expect(row.textContent).toContain('€1,234,567.50');
    expect(row.textContent).toContain('23 Nov 2026');

    act(() =>
      applyPreferences({
        currency: 'USD',
        decimalSeparator: ',',
        thousandsSeparator: ' ',
        dateFormat: 'DD.MM.YYYY',
        timeFormat: 'HH:mm',
        timeZone: null,
        language: 'en',
      }),
    );
    expect(row.textContent).toContain('€1 234 567,50');
    expect(row.textContent).toContain('23.11.2026');
  });
});
