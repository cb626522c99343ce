import { useParams } from '@tanstack/react-router';
import { StockTreeView } from '../features/stock/tree/stock-tree-view.tsx';

/** /stock/$id/tree: the handling units of a stock record, their movements and pallet labels. */
export default function StockTreeScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return <StockTreeView key={id} id={id} />;
}
