import { useQuery } from '@tanstack/react-query';
import { RecordQueryState } from '../../../components/records/record-load-state.tsx';
import { pathFor } from '../../../lib/route-table.ts';
import { stockTreeOptions } from '../api/stock-api.ts';
import { StockTreeScreenBody } from './stock-tree-screen.tsx';

/** `/stock/{id}/tree`: loads the tree and shows it. */
export function StockTreeView({ id }: { id: string }) {
  const query = useQuery(stockTreeOptions(id));
  if (!query.data) {
    return (
      <RecordQueryState
        query={query}
        title="This stock record could not be loaded"
        skeleton={[40, 80, 300]}
        notFound={{
          title: 'This stock record does not exist',
          back: { label: 'Back to the stock', href: pathFor('stock') },
        }}
      />
    );
  }
  return <StockTreeScreenBody tree={query.data} />;
}
