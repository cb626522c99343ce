import type { Document } from '@fvg/contracts';
import { Anchor, EmptyState, Group, Loader, Stack, Text } from '@mantine/core';
import { IconFiles } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { pathFor } from '../../../app/route-table.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import { DataTable } from '../../../components/records/data-table.tsx';
import { RecordModal } from '../../../components/records/record-modal.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { useMe } from '../../../lib/session.ts';
import { dossierDocumentsOptions } from '../api/documents-api.ts';
import { DocumentDetail } from './document-detail.tsx';
import { documentColumns } from './document-list-config.tsx';
import { DocumentUpload } from './document-upload.tsx';

/** The newest documents of a dossier that the tab shows; the /documents list has them all. */
const TAB_PAGE_SIZE = 200;

export interface DossierDocumentsProps {
  /** The dossier's id (what documents are attached to). */
  dossierId: string;
  /** Staff upload, edit and delete; customers see the documents marked visible to them. */
  staff: boolean;
}

/**
 * The dossier screen's Documents tab: the dossier's documents (on the dossier and its records), the
 * upload zone for staff (the API takes uploads from staff only), and a document's preview, facts and
 * history in a dialog on click.
 */
export function DossierDocuments({ dossierId, staff }: DossierDocumentsProps) {
  const [open, setOpen] = useState<{ id: string; editing: boolean } | null>(null);
  const list = useQuery(
    dossierDocumentsOptions(dossierId, { page: 1, pageSize: TAB_PAGE_SIZE, sort: '-uploadedAt' }),
  );
  const columns = documentColumns({ staff, withRecord: false });
  const rows = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const openDocument = (id: string) => setOpen({ id, editing: false });

  return (
    <Stack gap="lg" data-testid="dossier-documents">
      {staff && <DocumentUpload recordType="dossier" recordId={dossierId} onOpen={openDocument} />}
      {list.isError ? (
        <ErrorState
          title="The documents could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <DataTable<Document>
          tableId="dossier-documents"
          label="Documents of this dossier"
          columns={columns}
          rows={rows}
          getRowId={(d) => d.id}
          getRowTestId={(d) => `row-document-${d.id}`}
          loading={list.isPending}
          onOpen={(d) => openDocument(d.id)}
          toolbar={
            <Group gap="sm">
              <Text size="sm" c="dimmed" data-testid="dossier-documents-count">
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
                  : 'Documents your forwarder shares on this dossier will appear here.'
              }
              py="lg"
              data-testid="dossier-documents-empty"
            />
          }
          maxHeight={480}
        />
      )}
      {total > rows.length && (
        <Text size="sm" c="dimmed" data-testid="dossier-documents-more">
          Showing the newest {formatNumber(rows.length)} of {formatNumber(total)}.{' '}
          <Anchor
            component={Link}
            to={pathFor('documents')}
            search={{ recordType: 'dossier', recordId: dossierId } as never}
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

/** The tab as the dossier screen composes it: staff or not from the session. */
export function DocumentsTab({ dossierId }: { dossierId: string }) {
  const role = useMe().data?.role;
  return <DossierDocuments dossierId={dossierId} staff={role === 'admin' || role === 'staff'} />;
}
