import '@mantine/dropzone/styles.css';
import {
  DOCUMENT_DEFAULT_MAX_BYTES,
  type DocumentRecordType,
  type DocumentType,
  documentTypeSchema,
} from '@fvg/contracts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Progress,
  Select,
  Stack,
  Switch,
  Text,
  Tooltip,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import {
  IconCheck,
  IconCloudUpload,
  IconCopy,
  IconFileUpload,
  IconRefresh,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { documentLimitsOptions, invalidateDocumentLists, uploadDocument } from '../api/documents-api.ts';
import {
  ACCEPTED_SUMMARY,
  documentTypeLabel,
  formatBytes,
  UPLOAD_DOCUMENT_TYPE_OPTIONS,
} from './document-meta.ts';
import type { SendFile, UploadItem } from './upload-queue.ts';
import { uploadQueueFor } from './upload-queues.ts';

export interface DocumentUploadProps {
  recordType: DocumentRecordType;
  recordId: string;
  /** Opens a stored document (the one a duplicate repeats, or the new one). */
  onOpen?: (documentId: string) => void;
  /**
   * Pre-check limit; by default the server's DOCUMENT_MAX_BYTES (GET /api/documents/limits), which
   * decides in the end anyway.
   */
  maxBytes?: number;
  /** How files are sent (tests pass a fake). */
  send?: SendFile;
}

/**
 * The queue of the record, shared by every zone showing it and kept when the zone goes away: uploads
 * go on (the page warns before unloading while any run); its lists refresh as files land.
 */
function useUploadQueue(recordType: DocumentRecordType, recordId: string, send: SendFile, maxBytes: number) {
  const queryClient = useQueryClient();
  const queue = useMemo(
    () =>
      uploadQueueFor(recordType, recordId, {
        send,
        maxBytes,
        onUploaded: () => invalidateDocumentLists(queryClient),
      }),
    [recordType, recordId, send, maxBytes, queryClient],
  );
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return { queue, items };
}

/**
 * Upload (staff): pick the document type (and whether the customer sees the files), then drop files
 * or choose them. Each file is sent on its own with a progress bar and a cancel button; the server's
 * refusals (too large, a type it does not accept) show on the file, duplicates as a warning.
 */
export function DocumentUpload({
  recordType,
  recordId,
  onOpen,
  maxBytes: fixedMaxBytes,
  send = uploadDocument,
}: DocumentUploadProps) {
  const limits = useQuery({ ...documentLimitsOptions(), enabled: fixedMaxBytes === undefined });
  const maxBytes = fixedMaxBytes ?? limits.data?.maxBytes ?? DOCUMENT_DEFAULT_MAX_BYTES;
  const { queue, items } = useUploadQueue(recordType, recordId, send, maxBytes);
  const [documentType, setDocumentType] = useState<DocumentType | null>(null);
  const [visibleToCustomer, setVisibleToCustomer] = useState(false);
  const openRef = useRef<() => void>(null);
  const ready = documentType !== null;

  const add = (files: File[]) => {
    if (!documentType || files.length === 0) return;
    queue.add(files, { recordType, recordId, documentType, visibleToCustomer });
  };
  const finished = items.filter((i) => i.status !== 'queued' && i.status !== 'uploading').length;

  return (
    <Stack gap="sm" data-testid="document-upload">
      <Group gap="md" align="flex-end" wrap="wrap">
        <Select
          label="Document type"
          placeholder="Choose a type"
          data={UPLOAD_DOCUMENT_TYPE_OPTIONS}
          value={documentType}
          onChange={(value) => {
            const parsed = documentTypeSchema.safeParse(value);
            setDocumentType(parsed.success ? parsed.data : null);
          }}
          searchable
          required
          w={260}
          comboboxProps={{ withinPortal: true }}
          data-testid="upload-document-type"
        />
        <Switch
          label="Visible to the customer"
          checked={visibleToCustomer}
          onChange={(event) => setVisibleToCustomer(event.currentTarget.checked)}
          mb={8}
          data-testid="upload-visible"
        />
      </Group>
      <Dropzone
        onDrop={add}
        openRef={openRef}
        disabled={!ready}
        // The button below opens the picker (and is the keyboard's way in); the zone takes drops.
        activateOnClick={false}
        activateOnKeyboard={false}
        multiple
        inputProps={{ 'aria-label': 'Files to upload' }}
        data-testid="document-dropzone"
        py="md"
      >
        <Group justify="center" gap="lg" mih={80} style={{ pointerEvents: 'none' }}>
          <Dropzone.Accept>
            <IconCloudUpload size={40} stroke={1.5} aria-hidden />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={40} stroke={1.5} aria-hidden />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconFileUpload size={40} stroke={1.5} aria-hidden />
          </Dropzone.Idle>
          <Stack gap={2}>
            <Text size="md">
              {ready ? 'Drop files here, several at once' : 'Choose the document type first'}
            </Text>
            <Text size="sm" c="dimmed">
              {ACCEPTED_SUMMARY}, up to {formatBytes(maxBytes)} each.
            </Text>
          </Stack>
        </Group>
      </Dropzone>
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconUpload size={16} aria-hidden />}
          onClick={() => openRef.current?.()}
          disabled={!ready}
          data-testid="upload-choose"
        >
          Choose files…
        </Button>
        {finished > 0 && (
          <Button variant="subtle" size="sm" onClick={() => queue.clearFinished()} data-testid="upload-clear">
            Clear finished
          </Button>
        )}
      </Group>
      {items.length > 0 && (
        // Outcomes are announced as they come; the percentages are not (the progress bars carry them).
        <Stack gap="xs" aria-live="polite" data-testid="upload-list">
          {items.map((item) => (
            <UploadRow
              key={item.key}
              item={item}
              onCancel={() => queue.cancel(item.key)}
              onRetry={() => queue.retry(item.key)}
              onDismiss={() => queue.dismiss(item.key)}
              {...(onOpen ? { onOpen } : {})}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

const percent = (item: UploadItem) =>
  item.total > 0 ? Math.min(100, Math.round((item.loaded / item.total) * 100)) : 0;

function UploadRow({
  item,
  onCancel,
  onRetry,
  onDismiss,
  onOpen,
}: {
  item: UploadItem;
  onCancel: () => void;
  onRetry: () => void;
  onDismiss: () => void;
  onOpen?: (documentId: string) => void;
}) {
  const active = item.status === 'queued' || item.status === 'uploading';
  const duplicateOf = item.document?.duplicateOf;
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="upload-item" data-status={item.status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} truncate title={item.fileName} data-testid="upload-name">
              {item.fileName}
            </Text>
            <Text size="xs" c="dimmed">
              {formatBytes(item.size)} · {documentTypeLabel(item.request.documentType)}
              {item.request.visibleToCustomer ? ' · visible to the customer' : ''}
            </Text>
          </Stack>
          <Group gap={4} wrap="nowrap">
            {item.status === 'done' && item.document && onOpen && (
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => item.document && onOpen(item.document.id)}
                data-testid="upload-open"
              >
                Open
              </Button>
            )}
            {item.retryable && (
              <Button
                size="compact-sm"
                variant="subtle"
                leftSection={<IconRefresh size={14} aria-hidden />}
                onClick={onRetry}
                data-testid="upload-retry"
              >
                Retry
              </Button>
            )}
            {active ? (
              <Tooltip label="Cancel">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  onClick={onCancel}
                  aria-label={`Cancel the upload of ${item.fileName}`}
                  data-testid="upload-cancel"
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ) : (
              <Tooltip label="Remove from this list">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  onClick={onDismiss}
                  aria-label={`Remove ${item.fileName} from this list`}
                  data-testid="upload-dismiss"
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Group>
        {item.status === 'uploading' && (
          <Group gap="sm" wrap="nowrap">
            <Progress
              value={percent(item)}
              flex={1}
              aria-label={`Uploading ${item.fileName}`}
              data-testid="upload-progress"
            />
            <Text size="xs" w={40} ta="right" aria-hidden data-testid="upload-percent">
              {percent(item)}%
            </Text>
          </Group>
        )}
        <UploadStatusLine item={item} {...(onOpen ? { onOpen } : {})} duplicateOf={duplicateOf ?? null} />
      </Stack>
    </Paper>
  );
}

/** The outcome in words. */
function UploadStatusLine({
  item,
  duplicateOf,
  onOpen,
}: {
  item: UploadItem;
  duplicateOf: string | null;
  onOpen?: (documentId: string) => void;
}) {
  switch (item.status) {
    case 'queued':
      return (
        <Text size="xs" c="dimmed" data-testid="upload-state">
          Waiting…
        </Text>
      );
    case 'uploading':
      return null;
    case 'done':
      return (
        <Stack gap={4}>
          <Group gap={4}>
            <IconCheck size={14} color="var(--mantine-color-green-7)" aria-hidden />
            <Text size="xs" c="green.8" data-testid="upload-state">
              Uploaded
            </Text>
          </Group>
          {duplicateOf && (
            <Alert
              color="yellow"
              variant="light"
              p="xs"
              icon={<IconCopy size={16} aria-hidden />}
              data-testid="upload-duplicate"
            >
              <Text size="xs">
                The same file (identical content) is already on this record. It was stored again; delete one
                of them if it is not needed twice.{' '}
                {onOpen && (
                  <Anchor component="button" type="button" size="xs" onClick={() => onOpen(duplicateOf)}>
                    Open the earlier one
                  </Anchor>
                )}
              </Text>
            </Alert>
          )}
        </Stack>
      );
    case 'cancelled':
      return (
        <Text size="xs" c="dimmed" data-testid="upload-state">
          Cancelled
        </Text>
      );
    case 'failed':
    case 'refused':
      return (
        <Text size="xs" c="red.8" role="alert" data-testid="upload-error">
          {item.error}
        </Text>
      );
  }
}
