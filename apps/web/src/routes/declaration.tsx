import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DeclarationScreen() {
  return <ScreenFrame route="declaration" />;
}
