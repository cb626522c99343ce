import { ScreenFrame } from '../components/screen-frame.tsx';

export default function SalesInvoicesScreen() {
  return <ScreenFrame route="sales-invoices" />;
}
