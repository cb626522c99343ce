import { ScreenFrame } from '../components/screen-frame.tsx';

export default function ShipmentEditScreen() {
  return <ScreenFrame route="shipment-edit" />;
}
