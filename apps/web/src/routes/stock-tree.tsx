import { ScreenFrame } from '../components/screen-frame.tsx';

export default function StockTreeScreen() {
  return <ScreenFrame route="stock-tree" />;
}
