import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { FilterBar, type FilterDef } from './filter-bar.tsx';

const filters: FilterDef[] = [
  {
    kind: 'select',
    key: 'mode',
    label: 'Mode',
    options: [
      { value: 'sea', label: 'Sea' },
      { value: 'road', label: 'Road' },
    ],
  },
  { kind: 'dateRange', from: 'etdFrom', to: 'etdTo', label: 'ETD', testId: 'etd' },
];

const isStandIn = (testId: string) => screen.getByTestId(testId).tagName === 'BUTTON';

describe('FilterBar (pickers load when reached for)', () => {
  it('shows look-alike stand-ins first, and the real picker once the user points at the bar', async () => {
    renderWithProviders(<FilterBar filters={filters} values={{}} onChange={() => {}} onClear={() => {}} />);
    expect(isStandIn('filter-mode')).toBe(true);
    expect(screen.getByTestId('filter-mode').textContent).toBe('Any');
    expect(isStandIn('filter-etd')).toBe(true);

    fireEvent.pointerEnter(screen.getByTestId('filter-bar'));
    await waitFor(() => expect(screen.getByTestId('filter-mode').tagName).toBe('INPUT'));
    // The date picker waits for its own field.
    expect(isStandIn('filter-etd')).toBe(true);
  });

  it('opens the picker a click on its stand-in asked for, and the choice reaches the URL state', async () => {
    const onChange = vi.fn();
    renderWithProviders(<FilterBar filters={filters} values={{}} onChange={onChange} onClear={() => {}} />);
    fireEvent.click(screen.getByTestId('filter-mode'));
    fireEvent.click(await screen.findByRole('option', { name: 'Road', hidden: true }));
    expect(onChange).toHaveBeenCalledWith({ mode: 'road' });
  });

  it('shows a set value in words and loads the pickers at once', async () => {
    renderWithProviders(
      <FilterBar filters={filters} values={{ mode: 'sea' }} onChange={() => {}} onClear={() => {}} />,
    );
    await waitFor(() => expect(screen.getByTestId('filter-mode').tagName).toBe('INPUT'));
    expect((screen.getByTestId('filter-mode') as HTMLInputElement).value).toBe('Sea');
  });

  it('shows a date range in its stand-in and swaps in the date picker on focus', async () => {
    renderWithProviders(
      <FilterBar
        filters={filters}
        values={{ etdFrom: '2026-12-01', etdTo: '2026-12-31' }}
        onChange={() => {}}
        onClear={() => {}}
      />,
    );
    expect(screen.getByTestId('filter-etd').textContent).toBe('1 Dec 2026 – 31 Dec 2026');
    fireEvent.focus(screen.getByTestId('filter-etd'));
    // The one typed From–To pair takes the stand-in's place, the first day field focused.
    const from = (await screen.findByTestId('filter-etd-from')) as HTMLInputElement;
    expect(from.value).toBe('1 Dec 2026');
    expect((screen.getByTestId('filter-etd-to') as HTMLInputElement).value).toBe('31 Dec 2026');
    await waitFor(() => expect(document.activeElement).toBe(from));
  });
});
