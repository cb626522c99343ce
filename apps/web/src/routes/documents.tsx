import { ScreenFrame } from '../components/screen-frame.tsx';

export default function DocumentsScreen() {
  return <ScreenFrame route="documents" />;
}
