import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { type LookupSource, RecordSelect } from './record-select.tsx';

const source: LookupSource = {
  key: ['dossiers', 'picker'],
  search: async () => [{ value: 'd-1', label: 'D-2026-000042 · Acme Trading' }],
  byId: async () => null,
};

describe('RecordSelect', () => {
  it('stays closed when it gets the focus (a dialog’s first field) and opens on click', async () => {
    renderWithProviders(
      <RecordSelect source={source} value={null} onChange={vi.fn()} aria-label="Dossier" data-autofocus />,
    );
    const input = screen.getByLabelText('Dossier', { selector: 'input:not([type=hidden])' });
    fireEvent.focus(input);
    // Its options would cover the dialog's buttons before the user asked for anything.
    expect(input.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(input);
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    expect(
      await screen.findByRole('option', { name: 'D-2026-000042 · Acme Trading', hidden: true }),
    ).toBeTruthy();
    fireEvent.blur(input);
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('false'));
  });
});
