import { Button, Tooltip } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { DocumentDetail } from '../features/documents/components/document-detail.tsx';
import { documentListConfig } from '../features/documents/components/document-list-config.tsx';
import { DocumentUpload } from '../features/documents/components/document-upload.tsx';
import type { DocumentsSearch } from '../features/documents/search.ts';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

/**
 * /documents. A row opens the document in a dialog over the list (`?open=<id>`, `&edit=1` for its
 * form). Staff upload here once the filters name one dossier (`?upload=1`); the usual place to
 * upload is the dossier's Documents tab.
 */
export default function DocumentsScreen() {
  const me = useMe();
  const [search, setSearch] = useRouteSearch<DocumentsSearch>();
  const role = me.data?.role;
  const staff = role === 'admin' || role === 'staff';
  const config = useMemo(() => documentListConfig({ staff, dossierLookup }), [staff]);
  const dossierId = search.dossierId;
  // The same query the dossier filter's picker makes for its label: answered from its cache.
  const dossier = useQuery({
    queryKey: [...dossierLookup.key, 'lookup-id', dossierId],
    queryFn: ({ signal }) => dossierLookup.byId(dossierId as string, signal),
    enabled: staff && Boolean(dossierId),
    staleTime: 60_000,
  });
  const keepsForm = (next: { pathname: string; search: Record<string, unknown> }) =>
    next.pathname === pathFor('documents') && next.search.edit === 1;
  const closeDetail = () => setSearch({ open: undefined, edit: undefined });

  const uploadButton = staff && (
    <Tooltip label="Pick a dossier in the filters to upload to it" disabled={Boolean(dossierId)}>
      {/* A wrapper, so the tooltip explains the disabled button on hover and focus. */}
      <span>
        <Button
          leftSection={<IconUpload size={16} aria-hidden />}
          onClick={() => setSearch({ upload: 1 })}
          disabled={!dossierId}
          data-testid="upload-documents"
        >
          Upload
        </Button>
      </span>
    </Tooltip>
  );

  return (
    <ScreenFrame route="documents">
      <ListPage
        config={config}
        onOpen={(d) => setSearch({ open: d.id, edit: undefined })}
        actions={uploadButton}
      />
      <RecordModal
        opened={staff && Boolean(dossierId) && search.upload === 1}
        title={dossier.data ? `Upload to dossier ${dossier.data.label}` : 'Upload documents'}
        onClose={() => setSearch({ upload: undefined })}
        testId="upload-dialog"
      >
        {dossierId && (
          <DocumentUpload
            key={`dossier:${dossierId}`}
            recordType="dossier"
            recordId={dossierId}
            onOpen={(id) => setSearch({ upload: undefined, open: id })}
          />
        )}
      </RecordModal>
      <RecordModal
        opened={Boolean(search.open) && search.upload !== 1}
        title={search.edit === 1 ? 'Edit document' : 'Document'}
        onClose={closeDetail}
        testId="document-dialog"
      >
        {search.open && (
          <DocumentDetail
            key={search.open}
            id={search.open}
            staff={staff}
            editing={search.edit === 1}
            onEdit={(editing) => setSearch({ edit: editing ? 1 : undefined })}
            onOpen={(id) => setSearch({ open: id, edit: undefined })}
            onDeleted={closeDetail}
            keepsForm={keepsForm}
          />
        )}
      </RecordModal>
    </ScreenFrame>
  );
}
