import { DOCUMENT_RECORD_TYPE_LABELS, type Document } from '@fvg/contracts';
import { Anchor, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconDownload, IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '../../../components/records/confirm-dialog.tsx';
import { RecordTabs } from '../../../components/records/detail-layout.tsx';
import { type Fact, FactsTable } from '../../../components/records/facts.tsx';
import { formatAuditValue, RecordHistory } from '../../../components/records/history-tab.tsx';
import { RecordQueryState } from '../../../components/records/record-load-state.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import {
  documentHistoryOptions,
  documentOptions,
  downloadDocument,
  useDeleteDocument,
} from '../api/documents-api.ts';
import { DocumentForm } from './document-form.tsx';
import { contentTypeLabel, DOCUMENT_FIELD_LABELS, documentTypeLabel, formatBytes } from './document-meta.ts';
import { DocumentPreview } from './document-preview.tsx';

export interface DocumentDetailProps {
  id: string;
  /** Staff edit and delete; customers preview and download. */
  staff: boolean;
  editing: boolean;
  onEdit: (editing: boolean) => void;
  /** Shows another document in place (the one a duplicate repeats). */
  onOpen?: (id: string) => void;
  /** The document was deleted: the dialog closes. */
  onDeleted: () => void;
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
}

function recordOf(d: Document): ReactNode {
  const kind = DOCUMENT_RECORD_TYPE_LABELS[d.recordType];
  if (!d.dossier) return kind;
  return (
    <Group gap={6}>
      {d.recordType !== 'dossier' && <Text size="sm">{kind} of</Text>}
      <Anchor
        component={Link}
        to={pathFor('dossier', { dossierId: d.dossier.number })}
        search={{ tab: 'documents' } as never}
        size="sm"
      >
        Dossier {d.dossier.number}
      </Anchor>
    </Group>
  );
}

function facts(d: Document, staff: boolean, onOpen?: (id: string) => void): Fact[] {
  const duplicateOf = d.duplicateOf;
  return [
    ['File name', d.fileName],
    ['Document type', documentTypeLabel(d.documentType)],
    ['Record', recordOf(d)],
    ['Format', `${contentTypeLabel(d.contentType)} (${d.contentType})`],
    ['Size', `${formatBytes(d.size)} (${formatNumber(d.size)} bytes)`],
    [
      'SHA-256',
      <Code key="sha" style={{ wordBreak: 'break-all' }} data-testid="document-sha256">
        {d.sha256}
      </Code>,
    ],
    ...(staff ? ([['Visible to the customer', d.visibleToCustomer ? 'Yes' : 'No']] as const) : []),
    [
      'Duplicate of',
      duplicateOf &&
        (onOpen ? (
          <Anchor key="dup" component="button" type="button" size="sm" onClick={() => onOpen(duplicateOf)}>
            An earlier document with the same content
          </Anchor>
        ) : (
          'An earlier document with the same content'
        )),
    ],
    ['Uploaded', `${formatDateTime(d.uploadedAt)}${d.uploadedBy ? ` by ${d.uploadedBy.name}` : ''}`],
    ['Updated', formatDateTime(d.updatedAt)],
  ];
}

const historyValue = (field: string, value: unknown): ReactNode =>
  field === 'documentType' && typeof value === 'string' ? documentTypeLabel(value) : formatAuditValue(value);

/** One document, in a dialog: preview, facts, history; download for all; edit and delete for staff. */
export function DocumentDetail({
  id,
  staff,
  editing,
  onEdit,
  onOpen,
  onDeleted,
  keepsForm,
}: DocumentDetailProps) {
  const detail = useQuery(documentOptions(id));
  const [tab, setTab] = useState<string | null>('preview');
  const remove = useDeleteDocument();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const d = detail.data;

  // Without data yet: the error or the skeleton. A failed refetch keeps what is on screen (an edit in progress).
  if (!d)
    return (
      <RecordQueryState
        query={detail}
        title="This document could not be loaded"
        notFound={{ title: 'This document does not exist' }}
        skeleton={[[28, '50%'], 18, 240]}
      />
    );

  if (editing && staff)
    return (
      <DocumentForm
        document={d}
        onSaved={(saved) => {
          notifications.show({ color: 'green', message: `“${saved.fileName}” saved.` });
          onEdit(false);
        }}
        onCancel={() => onEdit(false)}
        reload={async () => (await detail.refetch()).data}
        {...(keepsForm ? { keepsForm } : {})}
      />
    );

  const download = () => {
    setDownloading(true);
    downloadDocument(d)
      .catch((error: unknown) =>
        notifications.show({ color: 'red', title: 'Download failed', message: problemMessage(error) }),
      )
      .finally(() => setDownloading(false));
  };

  const onDelete = () =>
    remove.mutate(d.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `“${d.fileName}” deleted.` });
        onDeleted();
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not deleted', message: problemMessage(error) }),
      onSettled: () => setConfirmDelete(false),
    });

  return (
    <Stack gap="md" data-testid="document-detail" data-document={d.id}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} style={{ wordBreak: 'break-word' }} data-testid="document-name">
            {d.fileName}
          </Text>
          <Group gap={6}>
            <Badge variant="light">{documentTypeLabel(d.documentType)}</Badge>
            {staff &&
              (d.visibleToCustomer ? (
                <Badge
                  variant="light"
                  color="teal"
                  leftSection={<IconEye size={12} aria-hidden />}
                  data-testid="document-visible"
                >
                  Visible to the customer
                </Badge>
              ) : (
                <Badge variant="light" color="gray" data-testid="document-internal">
                  Internal only
                </Badge>
              ))}
            {d.duplicateOf && (
              <Badge variant="light" color="yellow" leftSection={<IconCopy size={12} aria-hidden />}>
                Duplicate
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs" data-testid="record-actions">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={download}
            loading={downloading}
            data-testid="document-download"
          >
            Download
          </Button>
          {staff && (
            <>
              <Button
                variant="default"
                leftSection={<IconPencil size={16} aria-hidden />}
                onClick={() => onEdit(true)}
                data-testid="edit-document"
              >
                Edit
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setConfirmDelete(true)}
                data-testid="delete-document"
              >
                Delete
              </Button>
            </>
          )}
        </Group>
      </Group>
      <RecordTabs
        value={tab}
        onChange={setTab}
        tabs={[
          {
            value: 'preview',
            label: 'Preview',
            content: <DocumentPreview document={d} onDownload={download} />,
          },
          {
            value: 'details',
            label: 'Details',
            content: <FactsTable rows={facts(d, staff, onOpen)} testId="document-facts" />,
          },
          {
            value: 'history',
            label: 'History',
            content: (
              <RecordHistory
                query={documentHistoryOptions(id)}
                fieldLabels={DOCUMENT_FIELD_LABELS}
                formatValue={historyValue}
              />
            ),
          },
        ]}
      />
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete this document?"
        message={`“${d.fileName}” and its file are removed for good.`}
        confirmLabel="Delete document"
        danger
        loading={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirmDelete(false)}
      />
    </Stack>
  );
}
