import type { PlanningFlag, PlanningItem } from '@fvg/contracts';
import { Badge, type MantineColor, Tooltip } from '@mantine/core';
import { IconArrowsCross, IconClockExclamation, IconTruckOff } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { formatDate, formatDateTime, formatTime } from '../../../lib/format-date.ts';
import { vehicleOf } from './transport-meta.ts';

/** The flag's name, as a sentence's start. */
export const FLAG_LABELS: Record<PlanningFlag, string> = {
  missing_carrier: 'Missing carrier',
  pickup_passed: 'Pickup passed',
  vehicle_overlap: 'Vehicle overlap',
};
/** The word on the board (the row is narrow); the sentence is the tooltip. */
export const FLAG_WORDS: Record<PlanningFlag, string> = {
  missing_carrier: 'No carrier',
  pickup_passed: 'Overdue',
  vehicle_overlap: 'Overlap',
};
export const FLAG_COLORS: Record<PlanningFlag, MantineColor> = {
  missing_carrier: 'orange',
  pickup_passed: 'red',
  vehicle_overlap: 'grape',
};
const FLAG_ICONS: Record<PlanningFlag, ComponentType<{ size?: number; 'aria-hidden'?: boolean }>> = {
  missing_carrier: IconTruckOff,
  pickup_passed: IconClockExclamation,
  vehicle_overlap: IconArrowsCross,
};

type Leg = Pick<
  PlanningItem,
  | 'id'
  | 'sequence'
  | 'dossier'
  | 'truckPlate'
  | 'trailerPlate'
  | 'vesselImo'
  | 'vesselName'
  | 'flightNumber'
  | 'pickupFrom'
  | 'pickupTo'
  | 'deliveryFrom'
  | 'deliveryTo'
>;

/** The vehicle as the server compares it (migration 0009): a plate without spaces and hyphens, a vessel, a flight. */
export function vehicleKey(t: Leg): string | null {
  const plate = t.truckPlate?.trim();
  if (plate) return `truck:${plate.replace(/[\s-]/g, '').toUpperCase()}`;
  if (t.vesselImo?.trim()) return `vessel:${t.vesselImo.trim()}`;
  if (t.vesselName?.trim()) return `vessel:${t.vesselName.trim().toUpperCase()}`;
  if (t.flightNumber?.trim()) return `flight:${t.flightNumber.trim()}`;
  return null;
}

/** The leg's time span as the server's (migration 0008): pickup start to delivery end; null without times. */
export function spanOf(t: Leg): { start: number; end: number } | null {
  const first = t.pickupFrom ?? t.deliveryFrom;
  if (!first) return null;
  const start = Date.parse(first);
  const last = t.deliveryTo ?? t.deliveryFrom ?? t.pickupTo ?? t.pickupFrom;
  return { start, end: Math.max(start, last ? Date.parse(last) : start) };
}

/** The loaded legs on the same vehicle at the same time as `leg`, earliest first. */
export function overlapsOf<T extends Leg>(leg: Leg, legs: readonly T[]): T[] {
  const key = vehicleKey(leg);
  const span = spanOf(leg);
  if (!key || !span) return [];
  return legs
    .filter((other) => {
      if (other.id === leg.id || vehicleKey(other) !== key) return false;
      const s = spanOf(other);
      return s !== null && s.start < span.end && span.start < s.end;
    })
    .sort((a, b) => (spanOf(a)?.start ?? 0) - (spanOf(b)?.start ?? 0));
}

const legName = (t: Leg) => `${t.dossier.number}-${t.sequence}`;

/** '14:00' on the leg's own day, '2026-12-02 14:00' on another. */
function timeNear(instant: number, leg: Leg): string {
  const iso = new Date(instant).toISOString();
  const sameDay = leg.pickupFrom && formatDate(leg.pickupFrom) === formatDate(iso);
  return sameDay ? formatTime(iso) : formatDateTime(iso);
}

/** The full sentence of a flag: what is wrong, with the leg it clashes with where there is one. */
export function flagSentence(flag: PlanningFlag, leg: Leg, loaded: readonly Leg[]): string {
  const name = FLAG_LABELS[flag];
  if (flag === 'missing_carrier') return `${name} — no carrier is assigned to this leg yet`;
  if (flag === 'pickup_passed')
    return `${name} — the pickup window ended ${formatDateTime(leg.pickupTo ?? leg.pickupFrom)} and the leg is still planned`;
  const vehicle = vehicleOf(leg);
  const [first, ...more] = overlapsOf(leg, loaded);
  const firstSpan = first ? spanOf(first) : null;
  if (!first || !firstSpan) return `${name} — ${vehicle} is also on another leg at this time`;
  const others = more.length === 0 ? '' : ` and ${more.length} more ${more.length === 1 ? 'leg' : 'legs'}`;
  return `${name} — ${vehicle} is also on leg ${legName(first)} until ${timeNear(firstSpan.end, leg)}${others}`;
}

/** A flag on the board: icon and word; the full sentence on hover and keyboard focus (and for readers). */
export function FlagBadge({ flag, sentence }: { flag: PlanningFlag; sentence: string }) {
  const Icon = FLAG_ICONS[flag];
  return (
    <Tooltip
      label={sentence}
      multiline
      maw={320}
      withArrow
      events={{ hover: true, focus: true, touch: true }}
    >
      <Badge
        color={FLAG_COLORS[flag]}
        variant="light"
        size="sm"
        tt="none"
        leftSection={<Icon size={12} aria-hidden />}
        tabIndex={0}
        aria-label={sentence}
        data-testid={`flag-${flag}`}
        style={{ cursor: 'help', overflow: 'visible' }}
      >
        {FLAG_WORDS[flag]}
      </Badge>
    </Tooltip>
  );
}
