import { NewThenOpenListScreen } from '../components/records/list-screen.tsx';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import {
  invoiceListConfig,
  invoicePath,
} from '../features/sales-invoices/components/invoice-list-config.tsx';
import { lazyNamed } from '../lib/lazy-component.ts';

// The form (react-hook-form, the line editor, date pickers) loads when the dialog opens, not with the list.
const load = () => import('../features/sales-invoices/components/new-invoice-form.tsx');
const create = { label: 'New invoice', size: '90rem', form: lazyNamed(load, 'NewInvoiceForm') };
const lookups = { customerLookup: customerPartyLookup, dossierLookup };

/**
 * /sales-invoices: invoices and credit notes, overdue ones in red. Staff open "New invoice" in a
 * dialog over the list (`?new=1`); customers see their own issued documents only.
 */
export default function SalesInvoicesScreen() {
  return (
    <NewThenOpenListScreen
      route="sales-invoices"
      config={invoiceListConfig}
      lookups={lookups}
      create={create}
      saved={(invoice) => ({
        message: 'Draft invoice made: check it and issue it.',
        to: invoicePath(invoice),
      })}
    />
  );
}
