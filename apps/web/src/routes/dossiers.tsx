import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DossiersScreen() {
  return <ScreenFrame route="dossiers" />;
}
