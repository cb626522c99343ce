import type { TimelineEvent } from '@fvg/contracts';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from '@tanstack/react-router';
import { ErrorState } from '../../../components/error-state.tsx';
import { RecordModal } from '../../../components/records/record-modal.tsx';
import { useRouteSearch } from '../../../components/records/use-route-search.ts';
import { formatNumber } from '../../../lib/format.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { containerKey, dossierEventsOptions } from '../api/container-events-api.ts';
import { ClassifierLegend } from './classifier-badge.tsx';
import { TimelineEmpty, TimelineLoading, TimelineView } from './container-timeline.tsx';
import { addedMessage, ManualEventForm } from './manual-event-form.tsx';

/** Events without a container (vessel arrivals and departures found through the BL or booking). */
const VOYAGE = '';

/**
 * The events per container, containers in the order of their first event, then the dossier's other
 * containers (no events yet) in the dossier's order; voyage events last.
 */
export function groupByContainer(
  events: readonly TimelineEvent[],
  containers: readonly string[] = [],
): [container: string, TimelineEvent[]][] {
  const groups = new Map<string, TimelineEvent[]>();
  for (const e of events) {
    const key = e.equipmentReference ?? VOYAGE;
    const list = groups.get(key);
    if (list) list.push(e);
    else groups.set(key, [e]);
  }
  for (const c of containers) if (!groups.has(containerKey(c))) groups.set(containerKey(c), []);
  return [...groups.entries()].sort(([a], [b]) => (a === VOYAGE ? 1 : 0) - (b === VOYAGE ? 1 : 0));
}

export interface DossierEventsProps {
  dossierId: string;
  /** The dossier's container numbers: each gets a group, with or without events. */
  containers?: readonly string[];
  /** Staff add an event to any of the dossier's containers by hand. */
  staff?: boolean;
}

/**
 * The dossier screen's "Container events" tab: the dossier's events grouped by container, each group a
 * timeline, and the dossier's containers without events as empty groups; a container's number opens
 * its whole timeline on /containers. Staff add an event to any container here
 * (`?add=event&container=<number>`). Live like the timelines.
 */
export function DossierEvents({ dossierId, containers = [], staff = false }: DossierEventsProps) {
  const events = useQuery(dossierEventsOptions(dossierId));
  const location = useLocation();
  const [search, setSearch] = useRouteSearch<{ add?: string; container?: string }>();
  const known = containers.map(containerKey);
  const adding =
    staff && search.add === 'event' && search.container && known.includes(containerKey(search.container))
      ? containerKey(search.container)
      : null;
  const closeAdd = () => setSearch({ add: undefined, container: undefined });

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
  const dialog = (
    <RecordModal
      opened={adding !== null}
      title={`Add an event to container ${adding ?? ''}`}
      onClose={closeAdd}
      size="lg"
      testId="add-event-dialog"
    >
      {adding && (
        <ManualEventForm
          containerNumber={adding}
          onCancel={closeAdd}
          keepsForm={(next) => next.pathname === location.pathname && next.search.add === 'event'}
          onAdded={(event, result) => {
            notifications.show({ color: 'green', message: addedMessage(event, result) });
            closeAdd();
          }}
        />
      )}
    </RecordModal>
  );
  if (items.length === 0 && known.length === 0)
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
          {items.length === 0
            ? 'No container events yet: they arrive from carriers and terminals by API or CSV import.'
            : `${formatNumber(items.length)} ${items.length === 1 ? 'event' : 'events'}${truncated ? ' (the latest only)' : ''}`}
        </Text>
        <ClassifierLegend />
      </Group>
      {groupByContainer(items, known).map(([container, list]) => (
        <Stack
          key={container || 'voyage'}
          gap="xs"
          data-testid="dossier-events-group"
          data-container={container || undefined}
        >
          <Group justify="space-between" gap="sm">
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
            {staff && container && (
              <Button
                size="xs"
                variant="subtle"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => setSearch({ add: 'event', container })}
                aria-label={`Add an event to container ${container}`}
                data-testid={`add-event-${container}`}
              >
                Add event
              </Button>
            )}
          </Group>
          {list.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="container-no-events">
              No events for this container yet.
            </Text>
          ) : (
            <TimelineView
              events={list}
              label={container ? `Events of container ${container}` : 'Vessel and voyage events'}
            />
          )}
        </Stack>
      ))}
      {dialog}
    </Stack>
  );
}
