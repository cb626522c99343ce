import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DeclarationsScreen() {
  return <ScreenFrame route="declarations" />;
}
