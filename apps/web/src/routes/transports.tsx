import { useMemo } from 'react';
import { ListScreen } from '../components/records/list-screen.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { DocumentsTab } from '../features/documents/components/dossier-documents.tsx';
import { dossierContainerNumbers, dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { partyLookup } from '../features/parties/api/parties-api.ts';
import {
  TransportDetail,
  type TransportExtraTab,
} from '../features/transports/components/transport-detail.tsx';
import { TransportForm } from '../features/transports/components/transport-form.tsx';
import { transportListConfig } from '../features/transports/components/transport-list-config.tsx';
import { useIsStaff } from '../lib/session.ts';

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
  const [, setSearch] = useRouteSearch();
  const staff = useIsStaff();
  const config = useMemo(() => transportListConfig({ carrierLookup, staff }), [staff]);

  return (
    <ListScreen
      route="transports"
      config={config}
      create={
        staff && {
          label: 'New transport',
          testId: 'new-transport',
          dialogTestId: 'new-transport-dialog',
          form: ({ close, keepsForm }) => (
            <TransportForm
              carrierLookup={carrierLookup}
              dossierLookup={dossierLookup}
              dossierContainers={dossierContainerNumbers}
              onSaved={(t) => setSearch({ new: undefined, open: t.id })}
              onCancel={close}
              keepsForm={keepsForm}
            />
          ),
        }
      }
      open={{
        rowId: (t) => t.id,
        title: 'Transport',
        editTitle: 'Edit transport',
        dialogTestId: 'transport-dialog',
        formIn: 'edit',
        content: (id, { editing, setEditing, keepsForm }) => (
          <TransportDetail
            id={id}
            staff={staff}
            carrierLookup={carrierLookup}
            editing={editing}
            onEdit={setEditing}
            keepsForm={keepsForm}
            extraTabs={EXTRA_TABS}
          />
        ),
      }}
    />
  );
}
