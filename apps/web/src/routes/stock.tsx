import { ScreenFrame } from '../components/screen-frame.tsx';

export default function StockScreen() {
  return <ScreenFrame route="stock" />;
}
