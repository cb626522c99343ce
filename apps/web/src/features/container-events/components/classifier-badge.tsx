import type { EventClassifierCode } from '@fvg/contracts';
import { Badge, type BadgeProps, Group, Text } from '@mantine/core';
import { IconCalendar, IconCheck, IconClock } from '@tabler/icons-react';
import classes from './container-timeline.module.css';
import { CLASSIFIER_LABELS } from './event-meta.ts';

const ICONS = { ACT: IconCheck, EST: IconClock, PLN: IconCalendar } as const;

/** The marker of a classifier: filled disc with a check (actual), ring with a clock, dashed ring with a calendar. */
export function ClassifierMarker({ code, small = false }: { code: EventClassifierCode; small?: boolean }) {
  const Icon = ICONS[code];
  return (
    <span
      className={small ? `${classes.marker} ${classes.small}` : classes.marker}
      data-classifier={code}
      aria-hidden
    >
      <Icon size={small ? 10 : 14} stroke={2.5} />
    </span>
  );
}

const VARIANTS: Record<EventClassifierCode, BadgeProps['variant']> = {
  ACT: 'filled',
  EST: 'outline',
  PLN: 'default',
};

/** 'Actual', 'Estimated' or 'Planned' in words, drawn as differently as the markers. */
export function ClassifierBadge({
  code,
  size = 'sm',
}: {
  code: EventClassifierCode;
  size?: BadgeProps['size'];
}) {
  return (
    <Badge
      variant={VARIANTS[code]}
      color={code === 'PLN' ? 'gray' : 'blue'}
      size={size}
      style={code === 'PLN' ? { borderStyle: 'dashed' } : undefined}
      data-classifier={code}
      data-testid="classifier-badge"
    >
      {CLASSIFIER_LABELS[code]}
    </Badge>
  );
}

/** What the markers mean, above a timeline. */
export function ClassifierLegend() {
  return (
    <div className={classes.legend} data-testid="timeline-legend">
      {(['ACT', 'EST', 'PLN'] as const).map((code) => (
        <Group key={code} gap={6} wrap="nowrap">
          <ClassifierMarker code={code} small />
          <Text size="xs" c="dimmed">
            {CLASSIFIER_LABELS[code]}
          </Text>
        </Group>
      ))}
    </div>
  );
}
