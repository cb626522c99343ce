import { Center, Loader, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { useT } from '../../lib/i18n.ts';
import { closeTopOnEscape, type RecordModalProps } from './record-modal.tsx';

/** RecordModal's dialog, loaded the first time one opens (record-modal.tsx). */
export function RecordModalDialog({
  opened,
  title,
  onClose,
  children,
  testId,
  size = 'xl',
  dismissible = true,
}: RecordModalProps) {
  const t = useT();
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
      <Suspense
        fallback={
          <Center mih={160} data-testid="dialog-loading">
            <Loader aria-label={t('loading')} />
          </Center>
        }
      >
        {children}
      </Suspense>
    </Modal>
  );
}
