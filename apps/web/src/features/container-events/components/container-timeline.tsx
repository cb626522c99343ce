import type { TimelineEvent } from '@fvg/contracts';
import { Anchor, Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus, IconTimelineEvent } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ErrorState } from '../../../components/error-state.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { timelineOptions } from '../api/container-events-api.ts';
import { ClassifierBadge, ClassifierLegend, ClassifierMarker } from './classifier-badge.tsx';
import classes from './container-timeline.module.css';
import {
  CLASSIFIER_LABELS,
  EMPTY_LABELS,
  eventLabel,
  formatEventTime,
  formatPlaceTime,
  MODE_LABELS,
  milestoneName,
  placeText,
  vesselText,
} from './event-meta.ts';

/** Oldest first by the event's own time; events at the same instant keep the server's order. */
export function inTimeOrder(events: readonly TimelineEvent[]): TimelineEvent[] {
  return events
    .map((e, i) => ({ e, i, t: Date.parse(e.eventDateTime) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map(({ e }) => e);
}

function EventTime({ e }: { e: TimelineEvent }) {
  const text = formatEventTime(e.eventDateTime);
  return (
    <time
      dateTime={e.eventDateTime}
      data-testid="timeline-time"
      title={`At the place of the event: ${formatPlaceTime(e.eventDateTime)}`}
    >
      {e.superseded ? <s className={classes.struck}>{text}</s> : text}
    </time>
  );
}

/**
 * How a plan or estimate moved: 'ETA changed from <old> to <new>'; for the actual event, the last
 * estimate it is measured against.
 */
function TimeChange({ e }: { e: TimelineEvent }) {
  if (!e.previousEventDateTime) return null;
  const before = (
    <s className={classes.struck} data-testid="previous-time">
      <time dateTime={e.previousEventDateTime}>{formatEventTime(e.previousEventDateTime)}</time>
    </s>
  );
  if (e.eventClassifierCode === 'ACT') {
    return (
      <Text size="sm" data-testid="time-change">
        Last estimate was {before}
      </Text>
    );
  }
  return (
    <Text size="sm" fw={500} data-testid="time-change">
      {milestoneName(e)} changed from {before} to{' '}
      <time dateTime={e.eventDateTime}>{formatEventTime(e.eventDateTime)}</time>
    </Text>
  );
}

export interface TimelineViewProps {
  events: readonly TimelineEvent[];
  /** Accessible name of the list, e.g. 'Events of MSKU6011672'. */
  label: string;
  /** Name each event's container (a dossier's timeline mixes containers and voyage events). */
  showContainer?: boolean;
  /** Link each event's dossier (a container's timeline can span several dossiers). */
  showDossier?: boolean;
}

/**
 * Events as a vertical timeline in time order. Planned, estimated and actual events differ in marker
 * shape, line style and badge, and say which they are in words; a replaced plan or estimate is struck
 * through, and a moved one says from when to when.
 */
export function TimelineView({
  events,
  label,
  showContainer = false,
  showDossier = false,
}: TimelineViewProps) {
  return (
    <ol className={classes.timeline} aria-label={label} data-testid="timeline">
      {inTimeOrder(events).map((e) => {
        const vessel = vesselText(e);
        const mode = e.transportCall?.modeOfTransport;
        const facts = [
          placeText(e),
          vessel,
          mode && !vessel ? MODE_LABELS[mode] : null,
          e.emptyIndicatorCode ? EMPTY_LABELS[e.emptyIndicatorCode] : null,
          e.ISOEquipmentCode,
          e.documentID ? `${e.documentTypeCode ?? 'Document'} ${e.documentID}` : null,
        ].filter((f): f is string => Boolean(f) && f !== '—');
        return (
          <li
            key={e.id}
            className={classes.item}
            data-classifier={e.eventClassifierCode}
            data-superseded={e.superseded || undefined}
            data-testid="timeline-event"
            data-event-id={e.eventID}
          >
            <ClassifierMarker code={e.eventClassifierCode} />
            <div className={classes.body}>
              <Group gap="xs" wrap="wrap">
                <Text fw={600} size="sm" data-testid="timeline-label">
                  {eventLabel(e)}
                </Text>
                <ClassifierBadge code={e.eventClassifierCode} />
                {e.superseded && (
                  <Badge variant="light" color="gray" size="sm" data-testid="superseded">
                    {e.eventClassifierCode === 'PLN' ? 'Plan replaced' : 'Estimate replaced'}
                  </Badge>
                )}
                <Text size="sm" c="dimmed">
                  <EventTime e={e} />
                </Text>
              </Group>
              <TimeChange e={e} />
              {(facts.length > 0 || (showContainer && e.equipmentReference)) && (
                <Text size="sm" c="dimmed" data-testid="timeline-facts">
                  {[showContainer ? e.equipmentReference : null, ...facts].filter(Boolean).join(' · ')}
                </Text>
              )}
              {showDossier && e.dossier && (
                <Text size="xs" c="dimmed">
                  Dossier{' '}
                  <Anchor component={Link} to={pathFor('dossier', { dossierId: e.dossier.number })} size="xs">
                    {e.dossier.number}
                  </Anchor>
                </Text>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** Skeleton rows while a timeline loads. */
export function TimelineLoading() {
  return (
    <Stack gap="md" data-testid="timeline-loading" aria-busy>
      {[0, 1, 2].map((i) => (
        <Group key={i} gap="sm" wrap="nowrap" align="flex-start">
          <Skeleton circle height={26} />
          <Stack gap={6} style={{ flex: 1 }}>
            <Skeleton height={14} width="40%" />
            <Skeleton height={12} width="70%" />
          </Stack>
        </Group>
      ))}
    </Stack>
  );
}

export function TimelineEmpty({ children }: { children: string }) {
  return (
    <Stack align="center" gap="xs" py="lg" data-testid="timeline-empty">
      <IconTimelineEvent size={28} stroke={1.5} aria-hidden />
      <Text c="dimmed">{children}</Text>
    </Stack>
  );
}

export interface ContainerTimelineProps {
  containerNumber: string;
  /** Offers "Add event" (staff: an event entered by hand). */
  onAddEvent?: (() => void) | undefined;
}

/**
 * A container's timeline (the dialog of /containers). Live: the area's query keys are registered
 * with the hub's live updates, so an event posted meanwhile appears without a reload.
 */
export function ContainerTimeline({ containerNumber, onAddEvent }: ContainerTimelineProps) {
  const timeline = useQuery(timelineOptions(containerNumber));
  if (timeline.isError)
    return (
      <ErrorState
        title="The timeline could not be loaded"
        error={timeline.error}
        onRetry={() => void timeline.refetch()}
      />
    );
  if (timeline.isPending) return <TimelineLoading />;
  const { items, truncated } = timeline.data;
  const dossiers = new Set(items.flatMap((e) => (e.dossier ? [e.dossier.number] : [])));
  const actual = items.filter((e) => e.eventClassifierCode === 'ACT').length;
  return (
    <Stack gap="md" data-testid="container-timeline" data-container={timeline.data.containerNumber}>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" data-testid="timeline-summary">
          {formatNumber(items.length)} {items.length === 1 ? 'event' : 'events'}, {formatNumber(actual)}{' '}
          {CLASSIFIER_LABELS.ACT.toLowerCase()}
        </Text>
        <Group gap="sm">
          <ClassifierLegend />
          {onAddEvent && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={onAddEvent}
              data-testid="add-event"
            >
              Add event
            </Button>
          )}
        </Group>
      </Group>
      {dossiers.size > 0 && (
        <Group gap="xs" data-testid="timeline-dossiers">
          <Text size="sm">{dossiers.size === 1 ? 'Dossier' : 'Dossiers'}</Text>
          {[...dossiers].map((number) => (
            <Anchor
              key={number}
              component={Link}
              to={pathFor('dossier', { dossierId: number })}
              size="sm"
              ff="monospace"
            >
              {number}
            </Anchor>
          ))}
        </Group>
      )}
      {truncated && (
        <Text size="sm" c="dimmed">
          Only the latest {formatNumber(items.length)} events are shown.
        </Text>
      )}
      {items.length === 0 ? (
        <TimelineEmpty>No events for this container yet.</TimelineEmpty>
      ) : (
        <TimelineView
          events={items}
          label={`Events of container ${timeline.data.containerNumber}`}
          showDossier={dossiers.size > 1}
        />
      )}
    </Stack>
  );
}
