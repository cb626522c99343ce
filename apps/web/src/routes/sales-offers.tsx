import { ScreenFrame } from '../components/screen-frame.tsx';

export default function SalesOffersScreen() {
  return <ScreenFrame route="sales-offers" />;
}
