import { Button, Tooltip } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ListScreen } from '../components/records/list-screen.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { DocumentDetail } from '../features/documents/components/document-detail.tsx';
import { documentListConfig } from '../features/documents/components/document-list-config.tsx';
import { DocumentUpload } from '../features/documents/components/document-upload.tsx';
import type { DocumentsSearch } from '../features/documents/search.ts';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { useIsStaff } from '../lib/session.ts';

/**
 * /documents. A row opens the document in a dialog over the list (`?open=<id>`, `&edit=1` for its
 * form). Staff upload here once the filters name one dossier (`?upload=1`); the usual place to
 * upload is the dossier's Documents tab.
 */
export default function DocumentsScreen() {
  const [search, setSearch] = useRouteSearch<DocumentsSearch>();
  const staff = useIsStaff();
  const config = useMemo(() => documentListConfig({ staff, dossierLookup }), [staff]);
  const dossierId = search.dossierId;
  // The same query the dossier filter's picker makes for its label: answered from its cache.
  const dossier = useQuery({
    queryKey: [...dossierLookup.key, 'lookup-id', dossierId],
    queryFn: ({ signal }) => dossierLookup.byId(dossierId as string, signal),
    enabled: staff && Boolean(dossierId),
    staleTime: 60_000,
  });

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
    <ListScreen
      route="documents"
      config={config}
      actions={uploadButton}
      open={{
        rowId: (d) => d.id,
        title: 'Document',
        editTitle: 'Edit document',
        dialogTestId: 'document-dialog',
        when: search.upload !== 1,
        formIn: 'edit',
        content: (id, { close, keepsForm, editing, setEditing }) => (
          <DocumentDetail
            key={id}
            id={id}
            staff={staff}
            editing={editing}
            onEdit={setEditing}
            onOpen={(next) => setSearch({ open: next, edit: undefined })}
            onDeleted={close}
            keepsForm={keepsForm}
          />
        ),
      }}
    >
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
    </ListScreen>
  );
}
