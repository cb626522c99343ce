import { ScreenFrame } from '../components/screen-frame.tsx';

export default function ShipmentScreen() {
  return <ScreenFrame route="shipment" />;
}
