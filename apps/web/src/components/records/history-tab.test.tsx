import type { AuditEntry } from '@fvg/contracts';
import { queryOptions } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../lib/format-date.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { formatAuditValue, HistoryTab, humanizeField, RecordHistory } from './history-tab.tsx';

const entries: AuditEntry[] = [
  {
    id: 'a2',
    at: '2026-05-02T09:30:00.000Z',
    action: 'updated',
    actor: { id: 'u1', name: 'Sam Staff' },
    changes: [
      { field: 'etd', from: '2026-05-01', to: '2026-05-03' },
      { field: 'customerReference', from: null, to: 'PO-7' },
      {
        field: 'containers',
        from: [],
        to: [{ number: 'MSKU6011672', sizeType: '22G1', seals: ['S-1', 'S-2'] }],
      },
    ],
  },
  { id: 'a1', at: '2026-05-01T08:00:00.000Z', action: 'created', actor: null, changes: [] },
];

describe('HistoryTab', () => {
  it('lists who changed what, newest first, each field from → to', () => {
    renderWithProviders(<HistoryTab entries={entries} fieldLabels={{ etd: 'ETD' }} />);
    const items = screen.getAllByTestId('history-entry');
    expect(items).toHaveLength(2);
    expect(within(items[0] as HTMLElement).getByTestId('history-actor').textContent).toBe('Sam Staff');
    expect(within(items[1] as HTMLElement).getByTestId('history-actor').textContent).toBe('System');

    const changes = within(items[0] as HTMLElement).getAllByTestId('history-change');
    const read = (row: HTMLElement) => [
      row.querySelector('td')?.textContent,
      within(row).getByTestId('history-from').textContent,
      within(row).getByTestId('history-to').textContent,
    ];
    expect(changes.map(read)).toEqual([
      ['ETD', '1 May 2026', '3 May 2026'],
      ['Customer reference', '—', 'PO-7'],
      ['Containers', '—', 'MSKU6011672 (22G1, S-1, S-2)'],
    ]);
    expect(
      within(items[0] as HTMLElement)
        .getByTestId('history-at')
        .getAttribute('datetime'),
    ).toBe('2026-05-02T09:30:00.000Z');
  });

  it('reads the records the API named in a history by their names, never their ids', () => {
    const carrier = { id: '6f1c2a9e-0000-4000-8000-000000000001', code: 'TRUCKCO', name: 'Truck & Co' };
    const handler = { id: '6f1c2a9e-0000-4000-8000-000000000002', name: 'Sam Staff' };
    renderWithProviders(
      <HistoryTab
        entries={[
          {
            id: 'r',
            at: '2026-05-02T09:30:00Z',
            action: 'updated',
            actor: null,
            changes: [
              { field: 'carrierId', from: null, to: carrier },
              { field: 'handlerId', from: handler, to: null },
            ],
          },
        ]}
        fieldLabels={{ carrierId: 'Carrier', handlerId: 'Handler' }}
      />,
    );
    const rows = screen.getAllByTestId('history-change');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Carrier—→Truck & Co (TRUCKCO)',
      'HandlerSam Staff→—',
    ]);
    expect(screen.getByTestId('history').textContent).not.toContain('6f1c2a9e');
  });

  it('uses the area formatter for values it knows', () => {
    renderWithProviders(
      <HistoryTab
        entries={[
          {
            id: 'x',
            at: '2026-05-02T09:30:00Z',
            action: 'status changed',
            actor: null,
            changes: [{ field: 'status', from: 'booked', to: 'in_transit' }],
          },
        ]}
        formatValue={(field, value) =>
          field === 'status' && value === 'in_transit' ? 'In transit' : undefined
        }
      />,
    );
    expect(screen.getByTestId('history-from').textContent).toBe('booked');
    expect(screen.getByTestId('history-to').textContent).toBe('In transit');
  });

  it('shows the raw audit JSON only when allowed (admin mode)', () => {
    const first = renderWithProviders(<HistoryTab entries={entries} />);
    expect(screen.queryByTestId('history-raw-toggle')).toBeNull();
    first.unmount();
    renderWithProviders(<HistoryTab entries={entries} allowRaw />);
    fireEvent.click(screen.getByTestId('history-raw-toggle'));
    expect(JSON.parse(screen.getByTestId('history-raw').textContent ?? '')).toEqual(entries);
    expect(screen.queryByTestId('history-entry')).toBeNull();
  });

  it('says when there is no history yet', () => {
    renderWithProviders(<HistoryTab entries={[]} />);
    expect(screen.getByTestId('history-empty')).toBeTruthy();
  });
});

describe('audit value formatting', () => {
  it('reads values and field names', () => {
    expect(formatAuditValue(true)).toBe('yes');
    expect(formatAuditValue(['a', 'b'])).toBe('a, b');
    expect(formatAuditValue({ id: 'p1', code: 'ACME', name: 'Acme' })).toBe('Acme (ACME)');
    expect(humanizeField('grossWeightKg')).toBe('Gross weight kg');
    // Codes read as words, dates and instants as the app shows them; references stay as they are.
    expect(formatAuditValue('picked_up')).toBe('Picked up');
    expect(formatAuditValue('2026-11-26T10:00:00.000Z')).toBe(formatDateTime('2026-11-26T10:00:00.000Z'));
    expect(formatAuditValue('2026-11-26T10:00:00.000Z')).not.toContain('T10');
    expect(formatAuditValue('2026-11-26')).toBe('26 Nov 2026');
    expect(formatAuditValue('MSKU1234565')).toBe('MSKU1234565');
  });

  it('keeps versions internal', () => {
    renderWithProviders(
      <HistoryTab
        entries={[
          {
            id: 'h1',
            at: '2026-11-23T09:00:00.000Z',
            action: 'updated',
            actor: { id: 'u1', name: 'Sam Staff' },
            changes: [
              { field: 'version', from: 1, to: 2 },
              { field: 'status', from: 'booked', to: 'in_transit' },
            ],
          },
        ]}
      />,
    );
    expect(screen.queryByText('Version')).toBeNull();
    expect(screen.getByText('In transit')).toBeTruthy();
  });
});

describe('RecordHistory', () => {
  it('loads the record’s trail through its query, names the labelled codes, and retries a failed load', async () => {
    let calls = 0;
    const fetchHistory = vi.fn(async (): Promise<AuditEntry[]> => {
      calls += 1;
      if (calls === 1) throw new Error('offline');
      return [
        {
          id: 'h1',
          at: '2026-11-23T09:00:00.000Z',
          action: 'updated',
          actor: { id: 'u1', name: 'Sam Staff' },
          changes: [
            { field: 'status', from: 'lodged', to: 'not_released' },
            { field: 'mode', from: 'sea_freight', to: 'air_freight' },
          ],
        },
      ];
    });
    renderWithProviders(
      <RecordHistory
        query={queryOptions({ queryKey: ['thing', 't1', 'history'], queryFn: fetchHistory })}
        fieldLabels={{ status: 'Status' }}
        valueLabels={{ status: { lodged: 'Lodged', not_released: 'Not released (held)' } }}
      />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    await screen.findByTestId('history-entry');
    const read = (field: string) => {
      const row = document.querySelector(`[data-field="${field}"]`) as HTMLElement;
      return [
        within(row).getByTestId('history-from').textContent,
        within(row).getByTestId('history-to').textContent,
      ];
    };
    // The area's own labels for its status; other codes in words as everywhere.
    expect(read('status')).toEqual(['Lodged', 'Not released (held)']);
    expect(read('mode')).toEqual(['Sea freight', 'Air freight']);
    await waitFor(() => expect(fetchHistory).toHaveBeenCalledTimes(2));
  });
});
