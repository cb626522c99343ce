import { ScreenFrame } from '../components/screen-frame.tsx';

export default function TransportsScreen() {
  return <ScreenFrame route="transports" />;
}
