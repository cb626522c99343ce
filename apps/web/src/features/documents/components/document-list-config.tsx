import { DOCUMENT_RECORD_TYPE_LABELS, type Document } from '@fvg/contracts';
import { Anchor, Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconEye, IconFile, IconFileTypePdf, IconPhoto } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import type { FilterDef } from '../../../components/records/filter-bar.tsx';
import type { ListConfig } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { fetchDocumentList } from '../api/documents-api.ts';
import { documentKeys } from '../api/keys.ts';
import {
  contentTypeLabel,
  DOCUMENT_TYPE_OPTIONS,
  documentTypeLabel,
  formatBytes,
  RECORD_TYPE_OPTIONS,
  VISIBILITY_OPTIONS,
} from './document-meta.ts';

function FileIcon({ contentType }: { contentType: string }) {
  if (contentType === 'application/pdf') return <IconFileTypePdf size={16} aria-hidden />;
  if (contentType.startsWith('image/')) return <IconPhoto size={16} aria-hidden />;
  return <IconFile size={16} aria-hidden />;
}

/** The record a document hangs on: its dossier by number (a link), or the record's kind. */
function RecordCell({ document: d }: { document: Document }) {
  if (d.dossier) {
    const onDossier = d.recordType === 'dossier';
    return (
      <Group gap={4} wrap="nowrap">
        <Anchor
          component={Link}
          to={pathFor('dossier', { dossierId: d.dossier.number })}
          search={{ tab: 'documents' } as never}
          size="sm"
          ff="monospace"
        >
          {d.dossier.number}
        </Anchor>
        {!onDossier && (
          <Text size="xs" c="dimmed">
            · {DOCUMENT_RECORD_TYPE_LABELS[d.recordType]}
          </Text>
        )}
      </Group>
    );
  }
  return <Text size="sm">{DOCUMENT_RECORD_TYPE_LABELS[d.recordType]}</Text>;
}

export interface DocumentColumnOptions {
  /** Staff see whether the customer sees each document. */
  staff: boolean;
  /** Leave out the record column (a dossier's own tab). */
  withRecord?: boolean;
}

/** The columns of document lists: the /documents screen and a dossier's documents tab. */
export function documentColumns({
  staff,
  withRecord = true,
}: DocumentColumnOptions): RecordColumn<Document>[] {
  const columns: (RecordColumn<Document> | false)[] = [
    {
      id: 'fileName',
      header: 'File',
      sortField: 'fileName',
      width: 280,
      required: true,
      cell: (d) => (
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          <FileIcon contentType={d.contentType} />
          <Text size="sm" fw={500} truncate title={d.fileName}>
            {d.fileName}
          </Text>
          {d.duplicateOf && (
            <Tooltip label="Same content as an earlier document on this record">
              <Badge
                size="xs"
                color="yellow"
                variant="light"
                leftSection={<IconCopy size={10} aria-hidden />}
                data-testid="duplicate-badge"
              >
                Duplicate
              </Badge>
            </Tooltip>
          )}
        </Group>
      ),
    },
    {
      id: 'documentType',
      header: 'Type',
      sortField: 'documentType',
      width: 170,
      cell: (d) => documentTypeLabel(d.documentType),
    },
    withRecord && {
      id: 'record',
      header: 'Record',
      width: 170,
      cell: (d) => <RecordCell document={d} />,
    },
    staff && {
      id: 'visibleToCustomer',
      header: 'Visibility',
      width: 110,
      cell: (d) =>
        d.visibleToCustomer ? (
          <Badge
            size="sm"
            variant="light"
            color="teal"
            leftSection={<IconEye size={12} aria-hidden />}
            data-testid="visible-badge"
          >
            Visible
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            Internal
          </Text>
        ),
    },
    {
      id: 'size',
      header: 'Size',
      sortField: 'size',
      sortDescFirst: true,
      width: 90,
      align: 'right',
      cell: (d) => formatBytes(d.size),
    },
    {
      id: 'contentType',
      header: 'Format',
      width: 130,
      hiddenByDefault: true,
      cell: (d) => contentTypeLabel(d.contentType),
    },
    { id: 'uploadedBy', header: 'Uploaded by', width: 150, cell: (d) => d.uploadedBy?.name ?? '—' },
    {
      id: 'uploadedAt',
      header: 'Uploaded',
      sortField: 'uploadedAt',
      sortDescFirst: true,
      width: 150,
      cell: (d) => formatDateTime(d.uploadedAt),
    },
  ];
  return columns.filter((c): c is RecordColumn<Document> => c !== false);
}

export interface DocumentListOptions {
  staff: boolean;
  /** Dossiers to filter by (the screen provides it: another area's records). */
  dossierLookup: LookupSource;
}

/** The documents list: filters by document type, record (kind and dossier), upload date and, for staff, visibility. */
export function documentListConfig({ staff, dossierLookup }: DocumentListOptions): ListConfig<Document> {
  const filters: FilterDef[] = [
    { kind: 'multiselect', key: 'type', label: 'Document type', options: DOCUMENT_TYPE_OPTIONS },
    { kind: 'select', key: 'recordType', label: 'Attached to', options: RECORD_TYPE_OPTIONS, width: 180 },
    // The dossier's documents include those on its records (its transport legs…).
    { kind: 'lookup', key: 'dossierId', label: 'Dossier', source: dossierLookup },
    // One record's documents, from its tab's "see them all".
    { kind: 'pinned', key: 'recordId', label: 'Record' },
    { kind: 'dateRange', from: 'uploadedFrom', to: 'uploadedTo', label: 'Uploaded', testId: 'uploaded' },
    ...(staff
      ? [
          {
            kind: 'select',
            key: 'visibleToCustomer',
            label: 'Visibility',
            options: VISIBILITY_OPTIONS,
            width: 200,
          } as const,
        ]
      : []),
  ];
  return {
    id: 'documents',
    path: 'documents',
    label: 'Documents',
    plural: 'documents',
    columns: documentColumns({ staff }),
    filters,
    defaultSort: '-uploadedAt',
    searchPlaceholder: 'File name',
    getRowId: (d) => d.id,
    getRowTestId: (d) => `row-document-${d.id}`,
    listKey: documentKeys.list,
    fetchList: fetchDocumentList,
  };
}
