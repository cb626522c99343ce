import { Select } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { RecordModal } from './record-modal.tsx';

describe('stacked dialogs', () => {
  it('Escape closes the top dialog only', async () => {
    const closeLeg = vi.fn();
    const closeDocument = vi.fn();
    const cancelConfirm = vi.fn();
    renderWithProviders(
      <RecordModal opened title="Transport" onClose={closeLeg} testId="leg">
        <RecordModal opened title="Document" onClose={closeDocument} testId="doc">
          <button type="button">inside the document</button>
          <ConfirmDialog
            opened
            title="Delete?"
            message="Really?"
            confirmLabel="Delete"
            onConfirm={() => {}}
            onCancel={cancelConfirm}
          />
        </RecordModal>
      </RecordModal>,
    );
    fireEvent.keyDown(await screen.findByTestId('confirm-ok'), { key: 'Escape' });
    expect(cancelConfirm).toHaveBeenCalledTimes(1);
    expect(closeDocument).not.toHaveBeenCalled();
    expect(closeLeg).not.toHaveBeenCalled();

    fireEvent.keyDown(screen.getByText('inside the document'), { key: 'Escape' });
    expect(closeDocument).toHaveBeenCalledTimes(1);
    expect(closeLeg).not.toHaveBeenCalled();
  });

  it('a dialog that must not be dismissed ignores Escape and has no close button', async () => {
    const onClose = vi.fn();
    renderWithProviders(
      <RecordModal opened title="Your new key" onClose={onClose} dismissible={false}>
        <button type="button">Done</button>
      </RecordModal>,
    );
    fireEvent.keyDown(await screen.findByText('Done'), { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    expect(document.querySelector('.mantine-Modal-close')).toBeNull();
  });

  it('Escape in an open dropdown closes the dropdown, not the dialog; the next Escape closes the dialog', async () => {
    const onClose = vi.fn();
    renderWithProviders(
      <RecordModal opened title="New dossier" onClose={onClose}>
        <Select label="Mode" placeholder="Pick a mode" data={['sea', 'air', 'road']} />
      </RecordModal>,
    );
    const field = await screen.findByPlaceholderText('Pick a mode');
    fireEvent.click(field);
    await waitFor(() => expect(field.getAttribute('aria-expanded')).toBe('true'));
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    await waitFor(() => expect(field.getAttribute('aria-expanded')).toBe('false'));
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
