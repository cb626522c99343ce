import { DOCUMENT_RECORD_TYPE_LABELS, type Document, type DocumentRecordType } from '@fvg/contracts';
import { Anchor, EmptyState, Group, Loader, Stack, Text } from '@mantine/core';
import { IconFiles } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ErrorState } from '../../../components/error-state.tsx';
import { DataTable } from '../../../components/records/data-table.tsx';
import { RecordModal } from '../../../components/records/record-modal.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { useMe } from '../../../lib/session.ts';
import { documentListOptions, dossierDocumentsOptions } from '../api/documents-api.ts';
import { DocumentDetail } from './document-detail.tsx';
import { documentColumns } from './document-list-config.tsx';
import { DocumentUpload } from './document-upload.tsx';

/** The newest documents of a record that the tab shows; the /documents list has them all. */
const TAB_PAGE_SIZE = 200;

export interface RecordDocumentsProps {
  recordType: DocumentRecordType;
  /** The record's id (what documents are attached to). */
  recordId: string;
  /** Staff upload, edit and delete; customers see the documents marked visible to them. */
  staff: boolean;
}

/**
 * A record's Documents tab: its documents (a dossier's include those on its records, e.g. its
 * transport legs), the upload zone for staff (the API takes uploads from staff only), and a
 * document's preview, facts and history in a dialog on click.
 */
export function RecordDocuments({ recordType, recordId, staff }: RecordDocumentsProps) {
  const [open, setOpen] = useState<{ id: string; editing: boolean } | null>(null);
  const params = { page: 1, pageSize: TAB_PAGE_SIZE, sort: '-uploadedAt' } as const;
  // A dossier's own endpoint also lists the documents of its records; others filter the list.
  const options =
    recordType === 'dossier'
      ? dossierDocumentsOptions(recordId, params)
      : documentListOptions({ ...params, recordType, recordId });
  // Both answer the same list shape; only their keys differ.
  const list = useQuery(options as ReturnType<typeof documentListOptions>);
  const testId = `${recordType}-documents`;
  const recordLabel = DOCUMENT_RECORD_TYPE_LABELS[recordType].toLowerCase();
  const columns = documentColumns({ staff, withRecord: false });
  const rows = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const openDocument = (id: string) => setOpen({ id, editing: false });

  return (
    <Stack gap="lg" data-testid={testId}>
      {staff && (
        <DocumentUpload
          key={`${recordType}:${recordId}`}
          recordType={recordType}
          recordId={recordId}
          onOpen={openDocument}
        />
      )}
      {list.isError ? (
        <ErrorState
          title="The documents could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <DataTable<Document>
          tableId={testId}
          label={`Documents of this ${recordLabel}`}
          columns={columns}
          rows={rows}
          getRowId={(d) => d.id}
          getRowTestId={(d) => `row-document-${d.id}`}
          loading={list.isPending}
          onOpen={(d) => openDocument(d.id)}
          toolbar={
            <Group gap="sm">
              <Text size="sm" c="dimmed" data-testid={`${testId}-count`}>
                {list.data ? `${formatNumber(total)} ${total === 1 ? 'document' : 'documents'}` : ''}
              </Text>
              {list.isFetching && !list.isPending && <Loader size="xs" aria-label="Updating" />}
            </Group>
          }
          empty={
            <EmptyState
              icon={<IconFiles size={28} stroke={1.5} aria-hidden />}
              withIndicatorBackground
              title="No documents yet"
              description={
                staff
                  ? 'Upload bills of lading, CMRs, invoices and other files above.'
                  : `Documents your forwarder shares on this ${recordLabel} will appear here.`
              }
              py="lg"
              data-testid={`${testId}-empty`}
            />
          }
          maxHeight={480}
        />
      )}
      {total > rows.length && (
        <Text size="sm" c="dimmed" data-testid={`${testId}-more`}>
          Showing the newest {formatNumber(rows.length)} of {formatNumber(total)}.{' '}
          <Anchor
            component={Link}
            to={pathFor('documents')}
            search={(recordType === 'dossier' ? { dossierId: recordId } : { recordType, recordId }) as never}
            size="sm"
          >
            See them all in Documents
          </Anchor>
        </Text>
      )}
      <RecordModal
        opened={open !== null}
        title={open?.editing ? 'Edit document' : 'Document'}
        onClose={() => setOpen(null)}
        testId="document-dialog"
      >
        {open && (
          <DocumentDetail
            key={open.id}
            id={open.id}
            staff={staff}
            editing={open.editing}
            onEdit={(editing) => setOpen({ id: open.id, editing })}
            onOpen={openDocument}
            onDeleted={() => setOpen(null)}
          />
        )}
      </RecordModal>
    </Stack>
  );
}

/** The dossier screen's Documents tab. */
export const DossierDocuments = ({ dossierId, staff }: { dossierId: string; staff: boolean }) => (
  <RecordDocuments key={`dossier:${dossierId}`} recordType="dossier" recordId={dossierId} staff={staff} />
);

/** The tab as a record screen composes it (dossier, transport): staff or not from the session. */
export function DocumentsTab({ recordType, recordId }: { recordType: DocumentRecordType; recordId: string }) {
  const role = useMe().data?.role;
  return (
    <RecordDocuments
      key={`${recordType}:${recordId}`}
      recordType={recordType}
      recordId={recordId}
      staff={role === 'admin' || role === 'staff'}
    />
  );
}
