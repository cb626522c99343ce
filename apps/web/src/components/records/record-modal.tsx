import { type KeyboardEvent, type ReactNode, Suspense, useState } from 'react';
import { lazyNamed } from '../../lib/lazy-component.ts';

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

const RecordModalDialog = lazyNamed(() => import('./record-modal-dialog.tsx'), 'RecordModalDialog');

/** Starts loading the dialog before it opens (on hover or focus of what opens it). */
export const preloadRecordModal = RecordModalDialog.preload;

/**
 * The dialog a list opens for "new <record>" (URL `?new=1`): large, full screen on phones, and it
 * closes through the URL, so the unsaved-changes guard of the form inside can stop it.
 * Nothing of it loads with the list: the dialog (Mantine's Modal) loads when it first opens, and its
 * content may be lazy too (lib/lazy-component.ts: forms load with their dialog), a spinner in the
 * dialog meanwhile (ADR 0023). Once open it stays mounted, so closing animates.
 */
export function RecordModal(props: RecordModalProps) {
  const [used, setUsed] = useState(props.opened);
  if (props.opened && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <RecordModalDialog {...props} />
    </Suspense>
  );
}
