import { TRANSPORT_TRANSITIONS, type Transport, type TransportStatus } from '@fvg/contracts';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { RecordTabs } from '../../../components/records/detail-layout.tsx';
import { type Fact, FactsTable } from '../../../components/records/facts.tsx';
import { RecordHistory } from '../../../components/records/history-tab.tsx';
import { RecordQueryState } from '../../../components/records/record-load-state.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { TransitionButtons } from '../../../components/records/transition-buttons.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { transportHistoryOptions, transportOptions, useTransitionTransport } from '../api/transports-api.ts';
import { TransportForm } from './transport-form.tsx';
import { formatWindow } from './transport-list-config.tsx';
import {
  MODE_LABELS,
  STATUS_COLORS,
  STATUS_LABELS,
  TRANSITION_CONFIRM,
  TRANSITION_LABELS,
  TRANSPORT_FIELD_LABELS,
  vehicleOf,
} from './transport-meta.ts';

export interface TransportDetailProps {
  id: string;
  /** Staff edit and move the status; customers only read. */
  staff: boolean;
  carrierLookup: LookupSource;
  editing: boolean;
  onEdit: (editing: boolean) => void;
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
  /** Tabs other areas provide (the leg's documents), composed in by the screen. */
  extraTabs?: readonly TransportExtraTab[];
}

export interface TransportExtraTab {
  value: string;
  label: string;
  content: (transport: Transport) => ReactNode;
}

const facts = (t: Transport, staff: boolean): Fact[] => [
  [
    'Dossier',
    <Anchor component={Link} to={pathFor('dossier', { dossierId: t.dossier.number })} key="d">
      {t.dossier.number}
    </Anchor>,
  ],
  ['Customer', t.dossier.customer.name],
  ['Mode', MODE_LABELS[t.mode]],
  ['Carrier', t.carrier ? `${t.carrier.name} (${t.carrier.code})` : 'Unassigned'],
  ['Vehicle', vehicleOf(t)],
  ['Vessel IMO', t.vesselImo ?? '—'],
  ['Pickup', [t.pickupLocode, t.pickupAddress].filter(Boolean).join(' · ') || '—'],
  ['Pickup window', formatWindow(t.pickupFrom, t.pickupTo)],
  ['Delivery', [t.deliveryLocode, t.deliveryAddress].filter(Boolean).join(' · ') || '—'],
  ['Delivery window', formatWindow(t.deliveryFrom, t.deliveryTo)],
  ['Actual pickup', formatDateTime(t.actualPickupAt)],
  ['Actual delivery', formatDateTime(t.actualDeliveryAt)],
  // The driver and the internal notes are staff's: customers never get them (the API sends null).
  ...(staff
    ? ([['Driver', [t.driverName, t.driverPhone].filter(Boolean).join(' · ') || '—']] as Fact[])
    : []),
  ['Containers', t.containers.join(', ') || '—'],
  ['Remark for the customer', t.customerRemark ?? '—'],
  ...(staff ? ([['Internal notes', t.notes ?? '—']] as Fact[]) : []),
  ['Updated', formatDateTime(t.updatedAt)],
];

/** One transport leg, in the dialog over the transports list: facts, status actions, history, edit. */
export function TransportDetail({
  id,
  staff,
  carrierLookup,
  editing,
  onEdit,
  keepsForm,
  extraTabs = [],
}: TransportDetailProps) {
  const detail = useQuery(transportOptions(id));
  const [tab, setTab] = useState<string | null>('details');
  const transition = useTransitionTransport();
  const queryClient = useQueryClient();
  const [transitionError, setTransitionError] = useState<string | null>(null);
  const t = detail.data;

  // Without data yet: the error or the skeleton. A failed refetch keeps what is on screen (an edit in progress).
  if (!t)
    return (
      <RecordQueryState
        query={detail}
        title="This transport could not be loaded"
        notFound={{ title: 'This transport does not exist' }}
        skeleton={[[28, '50%'], 18, 18]}
      />
    );

  if (editing && staff)
    return (
      <TransportForm
        transport={t}
        carrierLookup={carrierLookup}
        onSaved={() => onEdit(false)}
        onCancel={() => onEdit(false)}
        reload={async () => (await detail.refetch()).data}
        {...(keepsForm ? { keepsForm } : {})}
      />
    );

  const onTransition = async (to: TransportStatus) => {
    setTransitionError(null);
    // The toast's Undo comes later: it moves the leg as the cache has it then (its newer version).
    const current = queryClient.getQueryData(transportOptions(id).queryKey) ?? t;
    const saved = await transition.mutateAsync({ id: current.id, to, version: current.version });
    return {
      message: `Leg ${saved.sequence} of ${saved.dossier.number} is now ${STATUS_LABELS[saved.status].toLowerCase()}.`,
    };
  };

  return (
    <Stack gap="md" data-testid="transport-detail" data-transport={t.id}>
      <Group justify="space-between" align="center" wrap="wrap">
        <Group gap="sm">
          <Text fw={600} ff="monospace" data-testid="transport-id">
            {t.dossier.number} · leg {t.sequence}
          </Text>
          <StatusBadge status={t.status} colors={STATUS_COLORS} labels={STATUS_LABELS} />
        </Group>
        {staff && (
          <Group gap="xs" data-testid="record-actions">
            <TransitionButtons
              current={t.status}
              allowed={t.allowedTransitions}
              workflow={TRANSPORT_TRANSITIONS}
              labels={TRANSITION_LABELS}
              confirm={TRANSITION_CONFIRM}
              danger={['cancelled']}
              onTransition={onTransition}
              onError={(error) => setTransitionError(problemMessage(error))}
            />
            {t.status !== 'cancelled' && t.status !== 'delivered' && (
              <Button
                variant="default"
                leftSection={<IconPencil size={16} aria-hidden />}
                onClick={() => onEdit(true)}
                data-testid="edit-transport"
              >
                Edit
              </Button>
            )}
          </Group>
        )}
      </Group>
      {transitionError && (
        <Alert color="orange" variant="light" role="alert" data-testid="transition-error">
          {transitionError}
        </Alert>
      )}
      <RecordTabs
        value={tab}
        onChange={setTab}
        tabs={[
          {
            value: 'details',
            label: 'Details',
            content: <FactsTable rows={facts(t, staff)} testId="transport-facts" />,
          },
          ...extraTabs.map((extra) => ({
            value: extra.value,
            label: extra.label,
            content: extra.content(t),
          })),
          {
            value: 'history',
            label: 'History',
            content: (
              <RecordHistory query={transportHistoryOptions(id)} fieldLabels={TRANSPORT_FIELD_LABELS} />
            ),
          },
        ]}
      />
    </Stack>
  );
}
