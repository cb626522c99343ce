import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DeclarationImportAltScreen() {
  return <ScreenFrame route="declaration-import-alt" />;
}
