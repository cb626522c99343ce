import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

export interface RecordModalProps {
  opened: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  size?: string;
}

/**
 * The dialog a list opens for "new <record>" (URL `?new=1`): large, full screen on phones, and it
 * closes through the URL, so the unsaved-changes guard of the form inside can stop it.
 */
export function RecordModal({ opened, title, onClose, children, testId, size = 'xl' }: RecordModalProps) {
  const small = useMediaQuery('(max-width: 48em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      fullScreen={small}
      closeOnClickOutside={false}
      data-testid={testId}
    >
      {children}
    </Modal>
  );
}
