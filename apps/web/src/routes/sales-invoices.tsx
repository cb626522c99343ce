import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ListScreen } from '../components/records/list-screen.tsx';
import { preloadRecordModal } from '../components/records/record-modal.tsx';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import {
  invoiceListConfig,
  invoicePath,
} from '../features/sales-invoices/components/invoice-list-config.tsx';
import { lazyNamed } from '../lib/lazy-component.ts';
import { useIsStaff } from '../lib/session.ts';

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
  const staff = useIsStaff();
  const navigate = useNavigate();
  const config = useMemo(
    () => invoiceListConfig({ staff, customerLookup: customerPartyLookup, dossierLookup }),
    [staff],
  );
  return (
    <ListScreen
      route="sales-invoices"
      config={config}
      create={
        staff && {
          label: 'New invoice',
          testId: 'new-invoice',
          dialogTestId: 'new-invoice-dialog',
          size: '90rem',
          preload: preloadDialog,
          form: ({ close, keepsForm }) => (
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
          ),
        }
      }
    />
  );
}
