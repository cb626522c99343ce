import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { partyLookup } from '../features/parties/api/parties-api.ts';
import { PlanningBoard, weekOf } from '../features/transports/components/planning-board.tsx';
import type { PlanningSearch } from '../features/transports/search.ts';
import { useMe } from '../lib/session.ts';

const carrierLookup = partyLookup('carrier');

/** /planning/list: transports of a date range by carrier; the range is in the URL (`from`, `to`). */
export default function PlanningListScreen() {
  const me = useMe();
  const [search, setSearch] = useRouteSearch<PlanningSearch>();
  const week = weekOf();
  const from = search.from ?? week.from;
  const to = search.to && search.to >= from ? search.to : search.from ? from : week.to;
  const role = me.data?.role;
  return (
    <ScreenFrame route="planning-list">
      <PlanningBoard
        from={from}
        to={to}
        onRangeChange={(f, t) => setSearch({ from: f, to: t })}
        carrierLookup={carrierLookup}
        staff={role === 'admin' || role === 'staff'}
      />
    </ScreenFrame>
  );
}
