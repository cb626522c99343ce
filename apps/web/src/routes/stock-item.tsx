import { useParams } from '@tanstack/react-router';
import { StockDetail } from '../features/stock/components/stock-detail.tsx';
import { useMe } from '../lib/session.ts';

/** /stock/$id: one stock record, by id. */
export default function StockItemScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  const me = useMe();
  return <StockDetail key={id} id={id} role={me.data?.role} />;
}
