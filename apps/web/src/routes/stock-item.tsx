import { ScreenFrame } from '../components/screen-frame.tsx';

export default function StockItemScreen() {
  return <ScreenFrame route="stock-item" />;
}
