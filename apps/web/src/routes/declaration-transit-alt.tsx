import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DeclarationTransitAltScreen() {
  return <ScreenFrame route="declaration-transit-alt" />;
}
