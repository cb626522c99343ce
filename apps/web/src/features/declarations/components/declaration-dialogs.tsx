import type { Declaration } from '@fvg/contracts';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { QuestionModal } from '../../../components/records/confirm-dialog.tsx';
import { SANDBOX_LABEL } from './declaration-meta.ts';

/** Lodging is final for the content: asks once, naming the LRN, the gateway and what comes next. */
export function LodgeDialog({
  opened,
  declaration,
  loading,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  declaration: Declaration;
  loading: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <QuestionModal
      opened={opened}
      title={`Lodge declaration ${declaration.lrn}?`}
      onCancel={onCancel}
      testId="lodge-dialog"
    >
      <Stack gap="md">
        <Text size="sm">
          The declaration goes to {declaration.gateway.label}. After lodging it can no longer be edited:
          changes need an amendment, and the authority answers each step (acceptance with the MRN, release).
        </Text>
        {declaration.gateway.sandbox && (
          <Text size="sm" c="yellow.9" fw={600}>
            {SANDBOX_LABEL}.
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Not yet
          </Button>
          <Button onClick={onConfirm} loading={loading} data-testid="lodge-confirm">
            Lodge declaration
          </Button>
        </Group>
      </Stack>
    </QuestionModal>
  );
}

/** A reason the authority reads: amendments and cancellations both need one (1–500 characters). */
export function ReasonDialog({
  opened,
  title,
  message,
  confirmLabel,
  danger = false,
  loading,
  error,
  onConfirm,
  onCancel,
  testId,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  loading: boolean;
  /** The server's word on the reason (or the request), when it refused. */
  error?: string | undefined;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
  testId: string;
}) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    if (opened) {
      setReason('');
      setMissing(false);
    }
  }, [opened]);
  return (
    <QuestionModal opened={opened} title={title} onCancel={onCancel} testId={testId}>
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        <Textarea
          label="Reason"
          description="The authority reads it with the request"
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setMissing(false);
          }}
          maxLength={500}
          autosize
          minRows={2}
          required
          error={missing ? 'Reason is required' : error}
          data-testid="reason"
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Keep it
          </Button>
          <Button
            color={danger ? 'red' : undefined}
            loading={loading}
            onClick={() => {
              if (reason.trim() === '') setMissing(true);
              else onConfirm(reason.trim());
            }}
            data-testid={`${testId}-confirm`}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </QuestionModal>
  );
}
