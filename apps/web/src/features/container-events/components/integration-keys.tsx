import {
  INTEGRATION_KEY_PREFIX,
  type IntegrationKey,
  type IntegrationKeyCreated,
  integrationKeyCreateSchema,
} from '@fvg/contracts';
import { Alert, Badge, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconKey, IconKeyOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { ConfirmDialog } from '../../../components/records/confirm-dialog.tsx';
import { DataTable, type RecordColumn } from '../../../components/records/data-table.tsx';
import { TextField } from '../../../components/records/form-fields.tsx';
import { type KeepsForm, RecordForm, useRecordForm } from '../../../components/records/record-form.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import {
  integrationKeysOptions,
  useCreateIntegrationKey,
  useRevokeIntegrationKey,
} from '../api/container-events-api.ts';

interface KeyFormValues {
  name: string;
}

/** The new key, once: copy it now, it is never shown again (the server keeps only its hash). */
export function CreatedKey({ created, onDone }: { created: IntegrationKeyCreated; onDone: () => void }) {
  return (
    <Stack gap="md" data-testid="created-key">
      <Alert
        color="orange"
        variant="light"
        icon={<IconKey aria-hidden />}
        title="Copy the key now: you will not see it again"
      >
        <Text size="sm">
          This is the only time the key of “{created.name}” is shown. FVG keeps only a fingerprint of it, so
          nobody (administrators included) can read it later. If it gets lost, revoke it and create a new one.
        </Text>
      </Alert>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code
          block
          style={{ flex: 1, wordBreak: 'break-all', userSelect: 'all' }}
          data-testid="created-key-value"
        >
          {created.key}
        </Code>
        <CopyButton value={created.key}>
          {({ copied, copy }) => (
            <Button
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'green' : undefined}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              onClick={copy}
              data-testid="copy-key"
            >
              {copied ? 'Copied' : 'Copy key'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Text size="sm" c="dimmed">
        The integration sends it with every request to <Code>POST /api/container-events</Code>, in the header{' '}
        <Code>X-API-Key: {INTEGRATION_KEY_PREFIX}…</Code> or{' '}
        <Code>Authorization: ApiKey {INTEGRATION_KEY_PREFIX}…</Code>.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid="created-key-done">
          I have copied the key
        </Button>
      </Group>
    </Stack>
  );
}

export interface IntegrationKeyFormProps {
  onCreated: (created: IntegrationKeyCreated) => void;
  onCancel: () => void;
  keepsForm?: KeepsForm;
}

/** Names a new integration key; the answer carries the key, shown once by CreatedKey. */
export function IntegrationKeyForm({ onCreated, onCancel, keepsForm }: IntegrationKeyFormProps) {
  const create = useCreateIntegrationKey();
  const key = useRecordForm({
    empty: (): KeyFormValues => ({ name: '' }),
    schema: integrationKeyCreateSchema,
    keepsForm,
    create: (body) => create.mutateAsync(body),
    onSaved: (created) => {
      // The key must not linger in the mutation cache once it has been shown.
      create.reset();
      onCreated(created);
    },
  });
  const { form } = key;
  return (
    <RecordForm
      of={key}
      submitLabel="Create key"
      onCancel={onCancel}
      label="New integration key"
      testId="integration-key-form"
    >
      <TextField
        form={form}
        name="name"
        label="Name"
        placeholder="e.g. Terminal ECT feed"
        description="Who uses the key: the terminal, carrier or platform that posts events."
        required
        data-autofocus
      />
    </RecordForm>
  );
}

function keyColumns(onRevoke: (key: IntegrationKey) => void): RecordColumn<IntegrationKey>[] {
  return [
    { id: 'name', header: 'Name', width: 220, required: true, cell: (k) => <Text size="sm">{k.name}</Text> },
    {
      id: 'prefix',
      header: 'Key',
      width: 150,
      cell: (k) => (
        <Text size="sm" ff="monospace" title="The first characters of the key">
          {k.prefix}…
        </Text>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      width: 110,
      cell: (k) =>
        k.revokedAt ? (
          <Badge color="gray" variant="light" data-testid="key-status" data-status="revoked">
            Revoked
          </Badge>
        ) : (
          <Badge color="green" variant="light" data-testid="key-status" data-status="active">
            Active
          </Badge>
        ),
    },
    { id: 'lastUsedAt', header: 'Last used', width: 150, cell: (k) => formatDateTime(k.lastUsedAt) },
    {
      id: 'created',
      header: 'Created',
      width: 220,
      cell: (k) => `${formatDateTime(k.createdAt)}${k.createdBy ? ` by ${k.createdBy.name}` : ''}`,
    },
    {
      id: 'revokedAt',
      header: 'Revoked',
      width: 150,
      hiddenByDefault: true,
      cell: (k) => formatDateTime(k.revokedAt),
    },
    {
      id: 'actions',
      header: 'Action',
      width: 120,
      required: true,
      cell: (k) =>
        k.revokedAt ? null : (
          <Button
            size="compact-sm"
            variant="light"
            color="red"
            leftSection={<IconKeyOff size={14} aria-hidden />}
            onClick={() => onRevoke(k)}
            aria-label={`Revoke the key ${k.name}`}
            data-testid="revoke-key"
          >
            Revoke
          </Button>
        ),
    },
  ];
}

/** The integration keys (admin): live ones first; revoking asks first, then takes effect at once. */
export function IntegrationKeyList() {
  const keys = useQuery(integrationKeysOptions());
  const revoke = useRevokeIntegrationKey();
  const [revoking, setRevoking] = useState<IntegrationKey | null>(null);

  if (keys.isError)
    return (
      <ErrorState
        title="The integration keys could not be loaded"
        error={keys.error}
        onRetry={() => void keys.refetch()}
      />
    );

  const confirmRevoke = () => {
    if (!revoking) return;
    const { id, name } = revoking;
    revoke.mutate(id, {
      onSuccess: () => notifications.show({ color: 'green', message: `The key “${name}” is revoked.` }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not revoked', message: problemMessage(error) }),
      onSettled: () => setRevoking(null),
    });
  };

  return (
    <>
      <DataTable<IntegrationKey>
        tableId="integration-keys"
        label="Integration keys"
        columns={keyColumns(setRevoking)}
        rows={keys.data ?? []}
        getRowId={(k) => k.id}
        getRowTestId={(k) => `row-key-${k.name}`}
        loading={keys.isPending}
        empty={
          <Stack align="center" gap={4} py="lg" data-testid="keys-empty">
            <Text fw={500}>No integration keys yet</Text>
            <Text size="sm" c="dimmed">
              Create one for each terminal, carrier or platform that posts container events.
            </Text>
          </Stack>
        }
        maxHeight={520}
      />
      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke this key?"
        message={`Requests with the key “${revoking?.name ?? ''}” are refused from now on. The integration needs a new key to post events again.`}
        confirmLabel="Revoke key"
        cancelLabel="Keep it"
        danger
        loading={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      />
    </>
  );
}
