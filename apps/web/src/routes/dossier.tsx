import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DossierScreen() {
  return <ScreenFrame route="dossier" />;
}
