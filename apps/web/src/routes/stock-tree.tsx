import { useParams } from '@tanstack/react-router';
import { RouteAccess } from '../components/route-access.tsx';
import { StockTreeView } from '../features/stock/tree/stock-tree-view.tsx';

/** /stock/$id/tree: the handling units of a stock record, their movements and pallet labels. */
export default function StockTreeScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return (
    <RouteAccess route="stock-tree">
      <StockTreeView key={id} id={id} />
    </RouteAccess>
  );
}
