import { ScreenFrame } from '../components/screen-frame.tsx';

export default function ShipmentsScreen() {
  return <ScreenFrame route="shipments" />;
}
