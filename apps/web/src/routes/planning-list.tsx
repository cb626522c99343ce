import { Center, Group, SegmentedControl, Stack } from '@mantine/core';
import { IconLayoutList, IconTimeline } from '@tabler/icons-react';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { partyLookup } from '../features/parties/api/parties-api.ts';
import { PlanningBoard, weekOf } from '../features/transports/components/planning-board.tsx';
import { PlanningTimeline, todayIso } from '../features/transports/components/planning-timeline.tsx';
import type { PlanningSearch, PlanningView } from '../features/transports/search.ts';
import { useMe } from '../lib/session.ts';

const carrierLookup = partyLookup('carrier');

const VIEWS = [
  {
    value: 'table',
    label: (
      <Center style={{ gap: 6 }}>
        <IconLayoutList size={16} aria-hidden />
        Table
      </Center>
    ),
  },
  {
    value: 'timeline',
    label: (
      <Center style={{ gap: 6 }}>
        <IconTimeline size={16} aria-hidden />
        Timeline
      </Center>
    ),
  },
];

/**
 * /planning/list (staff; the route table keeps customers out): the legs of a date range by carrier as
 * a table (`from`, `to`), or one day as a timeline per carrier and vehicle (`view=timeline&day=`).
 */
export default function PlanningListScreen() {
  const me = useMe();
  const [search, setSearch] = useRouteSearch<PlanningSearch>();
  const week = weekOf();
  const from = search.from ?? week.from;
  const to = search.to && search.to >= from ? search.to : search.from ? from : week.to;
  const view: PlanningView = search.view ?? 'table';
  const today = todayIso();
  // The timeline opens on today when the table's range holds it, else on the range's first day.
  const day = search.day ?? (today >= from && today <= to ? today : from);
  const role = me.data?.role;
  return (
    <ScreenFrame route="planning-list">
      <Stack gap="md">
        <Group>
          <SegmentedControl
            value={view}
            onChange={(value) =>
              setSearch(value === 'timeline' ? { view: 'timeline', day } : { view: undefined })
            }
            data={VIEWS}
            aria-label="View"
            data-testid="planning-view"
          />
        </Group>
        {view === 'timeline' ? (
          <PlanningTimeline day={day} onDayChange={(d) => setSearch({ day: d })} />
        ) : (
          <PlanningBoard
            from={from}
            to={to}
            onRangeChange={(f, t) => setSearch({ from: f, to: t })}
            carrierLookup={carrierLookup}
            staff={role === 'admin' || role === 'staff'}
          />
        )}
      </Stack>
    </ScreenFrame>
  );
}
