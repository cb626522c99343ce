import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { preloadRecordModal, RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import {
  declarationListConfig,
  declarationPath,
} from '../features/declarations/components/declaration-list-config.tsx';
import { SandboxNotice } from '../features/declarations/components/sandbox-notice.tsx';
import type { DeclarationsSearch } from '../features/declarations/search.ts';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import { lazyNamed } from '../lib/lazy-component.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

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
  const me = useMe();
  const navigate = useNavigate();
  const [search, setSearch] = useRouteSearch<DeclarationsSearch>();
  const staff = me.data?.role === 'admin' || me.data?.role === 'staff';
  const config = useMemo(
    () => declarationListConfig({ staff, customerLookup: customerPartyLookup, dossierLookup }),
    [staff],
  );
  const close = () => setSearch({ new: undefined });
  const keepsForm = (next: { pathname: string; search: Record<string, unknown> }) =>
    next.pathname === pathFor('declarations') && next.search.new === 1;

  return (
    <ScreenFrame route="declarations">
      <SandboxNotice />
      <ListPage
        config={config}
        actions={
          staff && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setSearch({ new: 1 })}
              onPointerEnter={preloadDialog}
              onFocus={preloadDialog}
              data-testid="new-declaration"
            >
              New declaration
            </Button>
          )
        }
      />
      <RecordModal
        opened={staff && search.new === 1}
        title="New declaration"
        onClose={close}
        testId="new-declaration-dialog"
      >
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
      </RecordModal>
    </ScreenFrame>
  );
}
