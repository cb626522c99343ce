import type { PlanningItem } from '@fvg/contracts';
import { ActionIcon, Button, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { Fragment, useMemo } from 'react';
import { formatNumber } from '../../../lib/format.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { groupPlanning } from './planning-board.tsx';
import { FLAG_WORDS, flagSentence, spanOf, vehicleKey } from './planning-flags.tsx';
import { PlanningLoad, usePlanning } from './planning-load.tsx';
import classes from './planning-timeline.module.css';
import { STATUS_LABELS, vehicleOf } from './transport-meta.ts';

const HOURS = Array.from({ length: 24 }, (_, h) => h);
const ROW_HEIGHT = 30;

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** Today in the browser's zone, YYYY-MM-DD. */
export const todayIso = () => isoDay(new Date());

/** Midnight to midnight of a YYYY-MM-DD day in the browser's zone (23 or 25 hours on a DST day). */
export function dayBounds(day: string): { start: number; end: number } {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return { start: new Date(y, m - 1, d).getTime(), end: new Date(y, m - 1, d + 1).getTime() };
}

/** The day before or after, as YYYY-MM-DD. */
export function shiftDay(day: string, by: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return isoDay(new Date(y, m - 1, d + by));
}

export interface TimelineBar {
  item: PlanningItem;
  /** Position and length on the day's track, in percent. */
  left: number;
  width: number;
  /** The stacked row in its lane: legs at the same time lie under each other. */
  row: number;
  cutStart: boolean;
  cutEnd: boolean;
  start: number;
  end: number;
}

export interface TimelineLane {
  key: string;
  vehicle: string;
  bars: TimelineBar[];
  rows: number;
}

export interface TimelineCarrier {
  key: string;
  carrier: PlanningItem['carrier'];
  lanes: TimelineLane[];
}

/**
 * The legs of one day as lanes: per carrier (unassigned first, then by name), per vehicle within it
 * (legs without a vehicle each on their own lane's rows). A bar spans pickup to delivery, cut at the
 * day's edges; bars that overlap take the next row of their lane, so an overlap shows as a stack.
 */
export function timelineLanes(items: readonly PlanningItem[], day: string): TimelineCarrier[] {
  const bounds = dayBounds(day);
  const length = bounds.end - bounds.start;
  return groupPlanning(items).map((group) => {
    const lanes = new Map<string, TimelineLane>();
    for (const item of group.transports) {
      const span = spanOf(item);
      if (!span || span.end < bounds.start || span.start >= bounds.end) continue;
      const key = vehicleKey(item) ?? 'none';
      const lane = lanes.get(key) ?? {
        key,
        vehicle: key === 'none' ? 'No vehicle' : vehicleOf(item),
        bars: [],
        rows: 0,
      };
      const start = Math.max(span.start, bounds.start);
      const end = Math.min(span.end, bounds.end);
      lane.bars.push({
        item,
        left: ((start - bounds.start) / length) * 100,
        width: ((end - start) / length) * 100,
        row: 0,
        cutStart: span.start < bounds.start,
        cutEnd: span.end > bounds.end,
        start: span.start,
        end: span.end,
      });
      lanes.set(key, lane);
    }
    for (const lane of lanes.values()) {
      // Greedy rows: each bar goes on the first row whose last bar ended before it starts.
      const rowEnds: number[] = [];
      for (const bar of lane.bars.sort((a, b) => a.start - b.start || a.end - b.end)) {
        const free = rowEnds.findIndex((end) => end <= bar.start);
        bar.row = free === -1 ? rowEnds.length : free;
        rowEnds[bar.row] = Math.max(bar.end, bar.start + 1);
      }
      lane.rows = Math.max(1, rowEnds.length);
    }
    const sorted = [...lanes.values()].sort((a, b) =>
      a.key === 'none' ? 1 : b.key === 'none' ? -1 : a.vehicle.localeCompare(b.vehicle),
    );
    return { key: group.carrier?.id ?? 'unassigned', carrier: group.carrier, lanes: sorted };
  });
}

export interface PlanningTimelineProps {
  /** The day shown, YYYY-MM-DD in the browser's zone. */
  day: string;
  onDayChange: (day: string) => void;
}

/**
 * The planning of one day as a timeline: a lane per carrier and vehicle, each leg a bar from pickup to
 * delivery over the day's hours; a bar opens the leg (a link, so Tab reaches it and Enter opens it).
 */
export function PlanningTimeline({ day, onDayChange }: PlanningTimelineProps) {
  const { planning, items, total } = usePlanning(day, day);
  const carriers = useMemo(() => timelineLanes(items, day), [items, day]);
  const shown = carriers.reduce((n, c) => n + c.lanes.reduce((m, l) => m + l.bars.length, 0), 0);

  return (
    <Stack gap="md" data-testid="planning-timeline">
      <Group gap="xs" align="flex-end">
        <ActionIcon
          variant="default"
          size="lg"
          aria-label="Previous day"
          onClick={() => onDayChange(shiftDay(day, -1))}
          data-testid="timeline-previous"
        >
          <IconChevronLeft size={16} aria-hidden />
        </ActionIcon>
        <DatePickerInput
          label="Day"
          valueFormat="YYYY-MM-DD"
          value={day}
          onChange={(value) => value && onDayChange(String(value).slice(0, 10))}
          w={150}
          data-testid="timeline-day"
        />
        <ActionIcon
          variant="default"
          size="lg"
          aria-label="Next day"
          onClick={() => onDayChange(shiftDay(day, 1))}
          data-testid="timeline-next"
        >
          <IconChevronRight size={16} aria-hidden />
        </ActionIcon>
        {planning.isFetching && <Loader size="xs" aria-label="Updating" />}
      </Group>
      <PlanningLoad planning={planning} empty={shown === 0} emptyText="No transports with times on this day.">
        <div style={{ overflowX: 'auto' }}>
          <section className={classes.grid} aria-label={`Legs on ${day}, by carrier and vehicle`}>
            <div className={classes.axisLabel}>
              <Text size="xs" c="dimmed">
                Carrier and vehicle
              </Text>
            </div>
            <div className={classes.axis} aria-hidden>
              {HOURS.map((h) => (
                <span key={h}>{pad(h)}</span>
              ))}
            </div>
            {carriers.map((c) => (
              <Fragment key={c.key}>
                <div
                  className={classes.carrierRow}
                  data-testid={`timeline-carrier-${c.carrier?.code ?? 'unassigned'}`}
                >
                  <Text size="sm" fw={600}>
                    {c.carrier ? `${c.carrier.name} (${c.carrier.code})` : 'Unassigned'}
                  </Text>
                </div>
                {c.lanes.map((lane) => (
                  <Lane key={lane.key} lane={lane} loaded={items} />
                ))}
              </Fragment>
            ))}
          </section>
        </div>
      </PlanningLoad>
      {planning.hasNextPage && (
        <Group gap="sm" justify="center">
          <Text size="sm" c="dimmed">
            Showing the first {formatNumber(items.length)} of {formatNumber(total)} legs of the day
          </Text>
          <Button
            variant="light"
            size="xs"
            loading={planning.isFetchingNextPage}
            onClick={() => void planning.fetchNextPage()}
          >
            Show the next legs
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Lane({ lane, loaded }: { lane: TimelineLane; loaded: readonly PlanningItem[] }) {
  return (
    <>
      <div className={classes.laneLabel} data-testid="timeline-lane-label">
        <Text size="sm" truncate title={lane.vehicle}>
          {lane.vehicle}
        </Text>
      </div>
      <div
        className={classes.track}
        style={{ height: lane.rows * ROW_HEIGHT + 6 }}
        data-testid="timeline-lane"
        data-vehicle={lane.vehicle}
      >
        {lane.bars.map((bar) => (
          <Bar key={bar.item.id} bar={bar} loaded={loaded} />
        ))}
      </div>
    </>
  );
}

function Bar({ bar, loaded }: { bar: TimelineBar; loaded: readonly PlanningItem[] }) {
  const { item } = bar;
  const name = `${item.dossier.number}-${item.sequence}`;
  const overlap = item.flags.includes('vehicle_overlap');
  const times = `${bar.cutStart ? '…' : hhmm(bar.start)}–${bar.cutEnd ? '…' : hhmm(bar.end)}`;
  const route = `${item.pickupLocode ?? item.pickupAddress ?? '—'} → ${item.deliveryLocode ?? item.deliveryAddress ?? '—'}`;
  const flags = item.flags.map((f) => flagSentence(f, item, loaded));
  const label = [`${name}, ${STATUS_LABELS[item.status]}`, route, times, ...flags].join(' · ');
  return (
    <Tooltip
      label={
        <Stack gap={2}>
          <Text size="xs" fw={600}>
            {name} · {STATUS_LABELS[item.status]}
          </Text>
          <Text size="xs">
            {route}, {times}
          </Text>
          {flags.map((f) => (
            <Text key={f} size="xs">
              {f}
            </Text>
          ))}
        </Stack>
      }
      multiline
      maw={340}
      withArrow
      events={{ hover: true, focus: true, touch: false }}
    >
      <Link
        to={pathFor('transports')}
        // The route table's paths are not typed routes; the search is /transports' `open`.
        search={{ open: item.id } as never}
        className={classes.bar}
        style={{ left: `${bar.left}%`, width: `${bar.width}%`, top: 3 + bar.row * ROW_HEIGHT }}
        aria-label={label}
        data-overlap={overlap || undefined}
        data-cut-start={bar.cutStart || undefined}
        data-cut-end={bar.cutEnd || undefined}
        data-testid={`timeline-bar-${item.id}`}
      >
        {name}
        {overlap ? ` · ${FLAG_WORDS.vehicle_overlap}` : ''}
      </Link>
    </Tooltip>
  );
}
