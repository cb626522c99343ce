import type { TimelineEvent } from '@fvg/contracts';
import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { pathFor } from '../../../app/route-table.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { dossierEventsOptions } from '../api/container-events-api.ts';
import { ClassifierLegend } from './classifier-badge.tsx';
import { TimelineEmpty, TimelineLoading, TimelineView } from './container-timeline.tsx';

/** Events without a container (vessel arrivals and departures found through the BL or booking). */
const VOYAGE = '';

/** The events per container, containers in the order of their first event; voyage events last. */
export function groupByContainer(events: readonly TimelineEvent[]): [container: string, TimelineEvent[]][] {
  const groups = new Map<string, TimelineEvent[]>();
  for (const e of events) {
    const key = e.equipmentReference ?? VOYAGE;
    const list = groups.get(key);
    if (list) list.push(e);
    else groups.set(key, [e]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a === VOYAGE ? 1 : 0) - (b === VOYAGE ? 1 : 0));
}

/**
 * The dossier screen's "Container events" tab: the dossier's events grouped by container, each group a
 * timeline; a container's number opens its whole timeline on /containers. Live like the timelines.
 */
export function DossierEvents({ dossierId }: { dossierId: string }) {
  const events = useQuery(dossierEventsOptions(dossierId));
  if (events.isError)
    return (
      <ErrorState
        title="The container events could not be loaded"
        error={events.error}
        onRetry={() => void events.refetch()}
      />
    );
  if (events.isPending) return <TimelineLoading />;
  const { items, truncated } = events.data;
  if (items.length === 0)
    return (
      <TimelineEmpty>
        No container events for this dossier yet. They arrive from carriers and terminals by API or CSV
        import, matched by container number, booking or bill of lading.
      </TimelineEmpty>
    );
  return (
    <Stack gap="lg" data-testid="dossier-events">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {formatNumber(items.length)} {items.length === 1 ? 'event' : 'events'}
          {truncated ? ' (the latest only)' : ''}
        </Text>
        <ClassifierLegend />
      </Group>
      {groupByContainer(items).map(([container, list]) => (
        <Stack
          key={container || 'voyage'}
          gap="xs"
          data-testid="dossier-events-group"
          data-container={container || undefined}
        >
          <Title order={3} size="h5">
            {container ? (
              <>
                Container{' '}
                <Anchor
                  component={Link}
                  to={pathFor('container-events')}
                  search={{ open: container } as never}
                  ff="monospace"
                  inherit
                >
                  {container}
                </Anchor>
              </>
            ) : (
              'Vessel and voyage events'
            )}
          </Title>
          <TimelineView
            events={list}
            label={container ? `Events of container ${container}` : 'Vessel and voyage events'}
          />
        </Stack>
      ))}
    </Stack>
  );
}
