import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { preloadRecordModal, RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import {
  invoiceListConfig,
  invoicePath,
} from '../features/sales-invoices/components/invoice-list-config.tsx';
import type { InvoicesSearch } from '../features/sales-invoices/search.ts';
import { lazyNamed } from '../lib/lazy-component.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

// The form (react-hook-form, the line editor, date pickers) loads when the dialog opens, not with the list.
const loadForm = () => import('../features/sales-invoices/components/new-invoice-form.tsx');
const NewInvoiceForm = lazyNamed(loadForm, 'NewInvoiceForm');
const preloadDialog = () => {
  void preloadRecordModal();
  void loadForm();
};

/**
 * /sales-invoices: invoices and credit notes, overdue ones in red. Staff open "New invoice" in a
 * dialog over the list (`?new=1`); customers see their own issued documents only.
 */
export default function SalesInvoicesScreen() {
  const me = useMe();
  const navigate = useNavigate();
  const [search, setSearch] = useRouteSearch<InvoicesSearch>();
  const staff = me.data?.role === 'admin' || me.data?.role === 'staff';
  const config = useMemo(
    () => invoiceListConfig({ staff, customerLookup: customerPartyLookup, dossierLookup }),
    [staff],
  );
  const close = () => setSearch({ new: undefined });
  const keepsForm = (next: { pathname: string; search: Record<string, unknown> }) =>
    next.pathname === pathFor('sales-invoices') && next.search.new === 1;

  return (
    <ScreenFrame route="sales-invoices">
      <ListPage
        config={config}
        actions={
          staff && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setSearch({ new: 1 })}
              onPointerEnter={preloadDialog}
              onFocus={preloadDialog}
              data-testid="new-invoice"
            >
              New invoice
            </Button>
          )
        }
      />
      <RecordModal
        opened={staff && search.new === 1}
        title="New invoice"
        onClose={close}
        testId="new-invoice-dialog"
        size="90rem"
      >
        <NewInvoiceForm
          customerLookup={customerPartyLookup}
          dossierLookup={dossierLookup}
          onSaved={(invoice) => {
            notifications.show({ color: 'green', message: 'Draft invoice made: check it and issue it.' });
            void navigate({ to: invoicePath(invoice) });
          }}
          onCancel={close}
          keepsForm={keepsForm}
        />
      </RecordModal>
    </ScreenFrame>
  );
}
