import { ANIMATION_MS } from '@fvg/contracts';
import { type KeyboardEvent, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
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

/**
 * Closing a dialog gives the focus back to what opened it (issue 27 item 8; WCAG 2.4.3). The opener is
 * what had the focus in the render that opened the dialog, before the dialog's focus trap (an effect of
 * a child, which runs before any of ours) moved it; the dialogs open through the URL and load lazily, so
 * Mantine's own return of the focus finds the body instead.
 */
function useReturnFocus(opened: boolean) {
  const [wasOpen, setWasOpen] = useState(opened);
  const opener = useRef<HTMLElement | null>(null);
  if (opened !== wasOpen) {
    setWasOpen(opened);
    if (opened && typeof document !== 'undefined' && document.activeElement instanceof HTMLElement)
      opener.current = document.activeElement === document.body ? null : document.activeElement;
  }
  useEffect(() => {
    if (opened || !opener.current) return;
    const target = opener.current;
    opener.current = null;
    // Now and once the closing animation is over (the dialog leaves the focus on the page's body as it
    // goes); not when the user has put it somewhere else meanwhile.
    const give = () => {
      const at = document.activeElement;
      const lost = !at || at === document.body || !at.isConnected || at.closest('[role="dialog"]') !== null;
      if (target.isConnected && lost) target.focus();
    };
    const timers = [setTimeout(give, 0), setTimeout(give, ANIMATION_MS + 50)];
    return () => timers.forEach(clearTimeout);
  }, [opened]);
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
  useReturnFocus(props.opened);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <RecordModalDialog {...props} />
    </Suspense>
  );
}
