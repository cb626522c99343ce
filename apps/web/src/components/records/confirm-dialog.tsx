import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useT } from '../../lib/i18n.ts';
import { closeTopOnEscape } from './record-modal.tsx';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions. */
  danger?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A small centred dialog that asks something (a yes/no question, the facts of a status change);
 * Escape closes it only when nothing inside it is open (a dropdown, a date picker).
 */
export function QuestionModal({
  opened,
  title,
  onCancel,
  testId,
  children,
}: {
  opened: boolean;
  title: string;
  onCancel: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={title}
      centered
      closeOnEscape={false}
      onKeyDown={closeTopOnEscape(onCancel)}
      data-testid={testId}
    >
      {children}
    </Modal>
  );
}

/** A yes/no question before an action that is hard to undo (cancel a dossier, delete, discard edits). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger = false,
  loading = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const t = useT('records');
  return (
    <QuestionModal opened={opened} title={title} onCancel={onCancel} testId="confirm-dialog">
      <Stack gap="lg">
        <Text size="sm">{message}</Text>
        <Group justify="flex-end" gap="sm">
          {/* A destructive answer is never the focused one: Enter or a stray key must not destroy. */}
          <Button
            variant="default"
            onClick={onCancel}
            data-autofocus={danger || undefined}
            data-testid="confirm-cancel"
          >
            {cancelLabel ?? t('confirm.keep')}
          </Button>
          <Button
            color={danger ? 'red' : undefined}
            onClick={onConfirm}
            loading={loading}
            data-autofocus={!danger || undefined}
            data-testid="confirm-ok"
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </QuestionModal>
  );
}

/**
 * A record screen's "Delete" among its actions: red, with the bin, test id `delete-record`; it asks
 * first (its ConfirmDialog), so the click only opens the question.
 */
export function DeleteRecordButton({
  label = 'Delete',
  variant = 'light',
  onClick,
}: {
  label?: string;
  /** Subtle where it stands beside quiet actions (a shipment's). */
  variant?: 'light' | 'subtle';
  onClick: () => void;
}) {
  return (
    <Button
      color="red"
      variant={variant}
      leftSection={<IconTrash size={16} aria-hidden />}
      onClick={onClick}
      data-testid="delete-record"
    >
      {label}
    </Button>
  );
}
