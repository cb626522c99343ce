import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { KeyboardEvent, ReactNode } from 'react';

/**
 * Escape closes the top dialog only. Mantine's own Escape handler listens on the window, so with a
 * dialog over a dialog (a document over a transport leg, a confirmation over a document) one key
 * would close them all; this handler sits on the dialog and stops the key there.
 */
export function closeTopOnEscape(onClose: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    // Escape in an open dropdown (a select's options, a date picker) closes that dropdown only: the
    // key reaches the dialog while the field still says it is expanded, or from inside the popover.
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('[aria-expanded="true"], .mantine-Popover-dropdown')) return;
    event.stopPropagation();
    event.preventDefault();
    onClose();
  };
}

export interface RecordModalProps {
  opened: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  size?: string;
  /** False while closing would lose something that cannot come back (a key shown once): no ×, no Escape. */
  dismissible?: boolean;
}

/**
 * The dialog a list opens for "new <record>" (URL `?new=1`): large, full screen on phones, and it
 * closes through the URL, so the unsaved-changes guard of the form inside can stop it.
 */
export function RecordModal({
  opened,
  title,
  onClose,
  children,
  testId,
  size = 'xl',
  dismissible = true,
}: RecordModalProps) {
  const small = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      fullScreen={small}
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={dismissible}
      onKeyDown={closeTopOnEscape(dismissible ? onClose : () => {})}
      data-testid={testId}
    >
      {children}
    </Modal>
  );
}
