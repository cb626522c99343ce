import { ScreenFrame } from '../components/screen-frame.tsx';

export default function ShipmentAltScreen() {
  return <ScreenFrame route="shipment-alt" />;
}
