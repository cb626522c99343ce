import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ListScreen } from '../components/records/list-screen.tsx';
import { preloadRecordModal } from '../components/records/record-modal.tsx';
import {
  declarationListConfig,
  declarationPath,
} from '../features/declarations/components/declaration-list-config.tsx';
import { SandboxNotice } from '../features/declarations/components/sandbox-notice.tsx';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import { lazyNamed } from '../lib/lazy-component.ts';
import { useIsStaff } from '../lib/session.ts';

const loadForm = () => import('../features/declarations/components/new-declaration-form.tsx');
const NewDeclarationForm = lazyNamed(loadForm, 'NewDeclarationForm');
const preloadDialog = () => {
  void preloadRecordModal();
  void loadForm();
};

/**
 * /declarations: import, export and transit declarations. Staff open "New declaration" in a dialog
 * over the list (`?new=1`); customers see their own party's lodged declarations, read-only.
 */
export default function DeclarationsScreen() {
  const staff = useIsStaff();
  const navigate = useNavigate();
  const config = useMemo(
    () => declarationListConfig({ staff, customerLookup: customerPartyLookup, dossierLookup }),
    [staff],
  );
  return (
    <ListScreen
      route="declarations"
      config={config}
      notice={<SandboxNotice />}
      create={
        staff && {
          label: 'New declaration',
          testId: 'new-declaration',
          dialogTestId: 'new-declaration-dialog',
          preload: preloadDialog,
          form: ({ close, keepsForm }) => (
            <NewDeclarationForm
              customerLookup={customerPartyLookup}
              dossierLookup={dossierLookup}
              onSaved={(declaration) => {
                notifications.show({
                  color: 'green',
                  message: `Draft declaration ${declaration.lrn} made: fill it in and lodge it.`,
                });
                void navigate({ to: declarationPath(declaration) });
              }}
              onCancel={close}
              keepsForm={keepsForm}
            />
          ),
        }
      }
    />
  );
}
