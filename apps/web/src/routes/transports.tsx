import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { DocumentsTab } from '../features/documents/components/dossier-documents.tsx';
import { dossierContainerNumbers, dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { partyLookup } from '../features/parties/api/parties-api.ts';
import {
  TransportDetail,
  type TransportExtraTab,
} from '../features/transports/components/transport-detail.tsx';
import { TransportForm } from '../features/transports/components/transport-form.tsx';
import { transportListConfig } from '../features/transports/components/transport-list-config.tsx';
import type { TransportsSearch } from '../features/transports/search.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

/** Carriers are parties with the carrier role. */
const carrierLookup = partyLookup('carrier');

/** The leg's documents (features/documents), composed in here so the transports feature imports none. */
const EXTRA_TABS: TransportExtraTab[] = [
  {
    value: 'documents',
    label: 'Documents',
    content: (t) => <DocumentsTab recordType="transport" recordId={t.id} />,
  },
];

/**
 * /transports. A row opens the leg in a dialog over the list (`?open=<id>`, `&edit=1` for its form);
 * "New transport" (staff) opens the create form (`?new=1`). Customers see their dossiers' legs read-only.
 */
export default function TransportsScreen() {
  const me = useMe();
  const [search, setSearch] = useRouteSearch<TransportsSearch>();
  const role = me.data?.role;
  const staff = role === 'admin' || role === 'staff';
  const config = useMemo(() => transportListConfig({ carrierLookup, staff }), [staff]);
  const keepsForm = (key: 'new' | 'edit') => (next: { pathname: string; search: Record<string, unknown> }) =>
    next.pathname === pathFor('transports') && next.search[key] === 1;
  const closeNew = () => setSearch({ new: undefined });
  const closeDetail = () => setSearch({ open: undefined, edit: undefined, tab: undefined });

  return (
    <ScreenFrame route="transports">
      <ListPage
        config={config}
        onOpen={(t) => setSearch({ open: t.id, edit: undefined })}
        actions={
          staff && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setSearch({ new: 1 })}
              data-testid="new-transport"
            >
              New transport
            </Button>
          )
        }
      />
      <RecordModal
        opened={staff && search.new === 1}
        title="New transport"
        onClose={closeNew}
        testId="new-transport-dialog"
      >
        <TransportForm
          carrierLookup={carrierLookup}
          dossierLookup={dossierLookup}
          dossierContainers={dossierContainerNumbers}
          onSaved={(t) => setSearch({ new: undefined, open: t.id })}
          onCancel={closeNew}
          keepsForm={keepsForm('new')}
        />
      </RecordModal>
      <RecordModal
        opened={Boolean(search.open) && search.new !== 1}
        title={search.edit === 1 ? 'Edit transport' : 'Transport'}
        onClose={closeDetail}
        testId="transport-dialog"
      >
        {search.open && (
          <TransportDetail
            id={search.open}
            staff={staff}
            carrierLookup={carrierLookup}
            editing={search.edit === 1}
            onEdit={(editing) => setSearch({ edit: editing ? 1 : undefined })}
            keepsForm={keepsForm('edit')}
            extraTabs={EXTRA_TABS}
          />
        )}
      </RecordModal>
    </ScreenFrame>
  );
}
