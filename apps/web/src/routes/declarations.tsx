import { Button } from '@mantine/core';
import { IconCurrencyEuro } from '@tabler/icons-react';
import { NewThenOpenListScreen } from '../components/records/list-screen.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { CustomsRatesEditor } from '../features/company/index.ts';
import {
  declarationListConfig,
  declarationPath,
} from '../features/declarations/components/declaration-list-config.tsx';
import { SandboxNotice } from '../features/declarations/components/sandbox-notice.tsx';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import { lazyNamed } from '../lib/lazy-component.ts';

// The form loads when the dialog opens (or on hover of its button), not with the list.
const load = () => import('../features/declarations/components/new-declaration-form.tsx');
const create = { label: 'New declaration', form: lazyNamed(load, 'NewDeclarationForm') };
const lookups = { customerLookup: customerPartyLookup, dossierLookup };

/**
 * /declarations: import, export and transit declarations. Staff open "New declaration" in a dialog
 * over the list (`?new=1`), and the month's customs exchange rates (`?rates=1`); customers see their
 * own party's lodged declarations, read-only.
 */
export default function DeclarationsScreen() {
  const [search, setSearch] = useRouteSearch<{ rates?: number | undefined }>();
  return (
    <NewThenOpenListScreen
      route="declarations"
      notice={<SandboxNotice />}
      config={declarationListConfig}
      lookups={lookups}
      create={create}
      saved={(declaration) => ({
        message: `Draft declaration ${declaration.lrn} made: fill it in and lodge it.`,
        to: declarationPath(declaration),
      })}
      staffActions={
        <Button
          variant="default"
          leftSection={<IconCurrencyEuro size={16} />}
          onClick={() => setSearch({ rates: 1 })}
          data-testid="customs-rates-open"
        >
          Customs rates
        </Button>
      }
    >
      <RecordModal
        opened={search.rates === 1}
        title="Customs exchange rates"
        onClose={() => setSearch({ rates: undefined })}
        testId="customs-rates-dialog"
        size="xl"
      >
        <CustomsRatesEditor />
      </RecordModal>
    </NewThenOpenListScreen>
  );
}
