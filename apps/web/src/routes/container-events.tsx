import { isValidContainerNumber, type UnlinkedEvent } from '@fvg/contracts';
import { Modal, Tabs } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileImport, IconLinkOff, IconTruckDelivery } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { containerKey } from '../features/container-events/api/container-events-api.ts';
import { AddEventPrompt } from '../features/container-events/components/add-event-prompt.tsx';
import {
  containerListConfig,
  unlinkedListConfig,
} from '../features/container-events/components/container-list-config.tsx';
import { ContainerTimeline } from '../features/container-events/components/container-timeline.tsx';
import { CsvImport } from '../features/container-events/components/csv-import.tsx';
import { LinkEventForm } from '../features/container-events/components/link-event-form.tsx';
import { addedMessage, ManualEventForm } from '../features/container-events/components/manual-event-form.tsx';
import {
  type ContainersSearch,
  type ContainersTab,
  LIST_SEARCH_KEYS,
} from '../features/container-events/search.ts';
import { dossierLookup } from '../features/dossiers/api/dossiers-api.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

/**
 * /containers. Everyone sees the containers they may see, with their latest event; a row opens the
 * container's timeline in a dialog (`?open=<container number>`, so reload and back keep it). Staff also
 * add an event by hand to the open timeline or, through "Add event" on the list, to any container by
 * its number, even one without events (`?open=<number>&add=1`), link events no dossier claimed (`?tab=unlinked`)
 * and import CSV files (`?tab=import`).
 */
export default function ContainerEventsScreen() {
  const me = useMe();
  const [search, setSearch] = useRouteSearch<ContainersSearch>();
  const [linking, setLinking] = useState<UnlinkedEvent | null>(null);
  const role = me.data?.role;
  const staff = role === 'admin' || role === 'staff';
  const containers = useMemo(() => containerListConfig(), []);
  const unlinked = useMemo(() => unlinkedListConfig(setLinking), []);
  const tab: ContainersTab = staff ? (search.tab ?? 'containers') : 'containers';

  const openTimeline = (containerNumber: string) => setSearch({ open: containerNumber });
  const container = search.open ? containerKey(search.open) : '';
  const adding = staff && search.add === 1 && isValidContainerNumber(container);
  const closeAdd = () => setSearch({ add: undefined });
  const list = (
    <ListPage
      config={containers}
      onOpen={(c) => openTimeline(c.containerNumber)}
      actions={staff && <AddEventPrompt onContainer={(n) => setSearch({ open: n, add: 1 })} />}
    />
  );

  const changeTab = (value: string | null) => {
    if (!value || value === tab) return;
    // The two lists sort and filter by different fields: a tab starts from its defaults.
    const cleared = Object.fromEntries(LIST_SEARCH_KEYS.map((key) => [key, undefined]));
    setSearch({ ...cleared, tab: value === 'containers' ? undefined : value });
  };

  return (
    <ScreenFrame route="container-events">
      {staff ? (
        <Tabs value={tab} onChange={changeTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab
              value="containers"
              leftSection={<IconTruckDelivery size={16} aria-hidden />}
              data-testid="tab-containers"
            >
              Containers
            </Tabs.Tab>
            <Tabs.Tab
              value="unlinked"
              leftSection={<IconLinkOff size={16} aria-hidden />}
              data-testid="tab-unlinked"
            >
              Unlinked events
            </Tabs.Tab>
            <Tabs.Tab
              value="import"
              leftSection={<IconFileImport size={16} aria-hidden />}
              data-testid="tab-import"
            >
              Import CSV
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="containers" pt="md">
            {list}
          </Tabs.Panel>
          <Tabs.Panel value="unlinked" pt="md">
            <ListPage config={unlinked} onOpen={setLinking} />
          </Tabs.Panel>
          <Tabs.Panel value="import" pt="md">
            <CsvImport />
          </Tabs.Panel>
        </Tabs>
      ) : (
        list
      )}

      <RecordModal
        opened={Boolean(search.open)}
        title={adding ? `Add an event to container ${container}` : `Container ${search.open ?? ''}`}
        onClose={() => setSearch({ open: undefined, add: undefined })}
        size="lg"
        testId="container-dialog"
      >
        {adding ? (
          <ManualEventForm
            containerNumber={container}
            onCancel={closeAdd}
            keepsForm={(next) => next.pathname === pathFor('container-events') && next.search.add === 1}
            onAdded={(event, result) => {
              notifications.show({ color: 'green', message: addedMessage(event, result) });
              closeAdd();
            }}
          />
        ) : (
          search.open && (
            <ContainerTimeline
              containerNumber={search.open}
              onAddEvent={staff ? () => setSearch({ add: 1 }) : undefined}
            />
          )
        )}
      </RecordModal>

      <Modal
        opened={staff && linking !== null}
        onClose={() => setLinking(null)}
        title="Link event to a dossier"
        size="lg"
        data-testid="link-dialog"
      >
        {linking && (
          <LinkEventForm
            event={linking}
            dossierLookup={dossierLookup}
            onCancel={() => setLinking(null)}
            onLinked={(linked, number, leftUnlinked) => {
              const done =
                linked.length === 0
                  ? `Already linked to ${number}: nothing changed.`
                  : `${linked.length} ${linked.length === 1 ? 'event' : 'events'} linked to ${number}.`;
              // Other voyages' and contested events of the container wait for a decision of their own.
              const left =
                leftUnlinked > 0
                  ? ` ${leftUnlinked} ${leftUnlinked === 1 ? 'event' : 'events'} of ${linking.equipmentReference} still unlinked.`
                  : '';
              notifications.show({ color: 'green', message: done + left });
              setLinking(null);
            }}
          />
        )}
      </Modal>
    </ScreenFrame>
  );
}
