import { useParams } from '@tanstack/react-router';
import { InvoiceDetail } from '../features/sales-invoices/components/invoice-detail.tsx';
import { useMe } from '../lib/session.ts';

/** /sales-invoices/$id: the parameter is the number of an issued invoice, the id of a draft. */
export default function SalesInvoiceScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  const me = useMe();
  return <InvoiceDetail key={id} id={id} role={me.data?.role} />;
}
