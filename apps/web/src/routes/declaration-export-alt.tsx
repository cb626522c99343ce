import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DeclarationExportAltScreen() {
  return <ScreenFrame route="declaration-export-alt" />;
}
