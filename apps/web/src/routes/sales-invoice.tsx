import { ScreenFrame } from '../components/screen-frame.tsx';

export default function SalesInvoiceScreen() {
  return <ScreenFrame route="sales-invoice" />;
}
