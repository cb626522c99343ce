import {
  OFFER_TRANSITIONS,
  type OfferStatus,
  type OfferTransitionTarget,
  type SalesOffer,
} from '@fvg/contracts';
import { Alert, Anchor, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileTypePdf, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useCallback, useState } from 'react';
import { ConfirmDialog } from '../../../components/records/confirm-dialog.tsx';
import { RecordTabs } from '../../../components/records/detail-layout.tsx';
import { type Fact, FactsTable } from '../../../components/records/facts.tsx';
import { formatAuditValue, RecordHistory } from '../../../components/records/history-tab.tsx';
import { RecordQueryState } from '../../../components/records/record-load-state.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { TransitionButtons } from '../../../components/records/transition-buttons.tsx';
import { useRouteSearch } from '../../../components/records/use-route-search.ts';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import {
  fetchOfferPdf,
  offerHistoryOptions,
  offerOptions,
  useDeleteOffer,
  useTransitionOffer,
} from '../api/sales-offers-api.ts';
import { type OfferCustomerSource, OfferForm } from './offer-form.tsx';
import { OfferLinesView } from './offer-lines.tsx';
import {
  MODE_LABELS,
  OFFER_FIELD_LABELS,
  STATUS_COLORS,
  STATUS_LABELS,
  TRANSITION_LABELS,
  TYPE_LABELS,
  transitionQuestions,
} from './offer-meta.ts';

export interface OfferDetailProps {
  /** The offer's id (or number), as `?open=` names it. */
  id: string;
  /** Staff edit drafts, send and cancel; customers accept or reject what was sent to them. */
  staff: boolean;
  customerLookup: LookupSource;
  customerInfo?: OfferCustomerSource | undefined;
  /** The company's country, for the draft lines' standard rate. */
  sellerCountry?: string | null | undefined;
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
  /** After a draft is deleted: close the dialog. */
  onDeleted?: () => void;
}

const route = (o: { originLocode: string | null; destinationLocode: string | null }) =>
  `${o.originLocode ?? '—'} → ${o.destinationLocode ?? '—'}`;

const measure = (value: string | null, unit: string) =>
  value === null ? null : `${formatNumber(value as `${number}`)} ${unit}`;

function DossierLink({ dossier, size }: { dossier: { number: string }; size?: 'sm' }) {
  return (
    <Anchor
      component={Link}
      to={pathFor('dossier', { dossierId: dossier.number })}
      size={size}
      fw={500}
      data-testid="offer-dossier-link"
    >
      Dossier {dossier.number}
    </Anchor>
  );
}

/** The offer's facts in two tables side by side: the terms, then the cargo and what happened. */
function facts(o: SalesOffer, staff: boolean): [Fact[], Fact[]] {
  return [
    [
      ['Customer', `${o.customer.name} (${o.customer.code})`],
      ['Contact', [o.contactName, o.contactEmail].filter(Boolean).join(' · ')],
      ['Valid until', formatDate(o.validUntil)],
      ['Route', route(o)],
      ['Mode', MODE_LABELS[o.mode]],
      ['Incoterm', o.incoterm ? [o.incoterm, o.incotermPlace].filter(Boolean).join(' ') : null],
      ['Dossier type', TYPE_LABELS[o.dossierType]],
      ...(staff ? ([['Internal notes', o.notes]] as Fact[]) : []),
    ],
    [
      [
        'Cargo',
        o.cargoDescription && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {o.cargoDescription}
          </Text>
        ),
      ],
      ['Packages', o.packages !== null ? `${formatNumber(o.packages)} ${o.packageType ?? ''}`.trim() : null],
      ['Gross weight', measure(o.grossWeightKg, 'kg')],
      ['Volume', measure(o.volumeM3, 'm³')],
      ['Sent', o.sentAt && formatDateTime(o.sentAt)],
      ['Decided', o.decidedAt && formatDateTime(o.decidedAt)],
      ['Dossier', o.dossier && <DossierLink dossier={o.dossier} size="sm" />],
    ],
  ];
}

/** Values of the audit trail as people read them: statuses, modes and types in words, lines counted. */
function historyValue(o: SalesOffer) {
  return (field: string, value: unknown): ReactNode => {
    if (typeof value === 'string') {
      if (field === 'status') return STATUS_LABELS[value as OfferStatus] ?? value;
      if (field === 'mode') return MODE_LABELS[value as keyof typeof MODE_LABELS] ?? value;
      if (field === 'dossierType') return TYPE_LABELS[value as keyof typeof TYPE_LABELS] ?? value;
      if (field === 'customerId' && value === o.customer.id) return `${o.customer.name} (${o.customer.code})`;
    }
    if (field === 'lines' && Array.isArray(value))
      return value.length === 1 ? '1 line' : `${formatNumber(value.length)} lines`;
    return formatAuditValue(value);
  };
}

/** The offer's PDF in a new tab (fetched with the token a plain link cannot send); a download where tabs are blocked. */
async function openPdf(offer: SalesOffer) {
  const tab = window.open('', '_blank');
  try {
    if (!tab) {
      await downloadFile(`sales-offers/${encodeURIComponent(offer.id)}/pdf`, {}, `${offer.number}.pdf`);
      return;
    }
    tab.location.href = URL.createObjectURL(await fetchOfferPdf(offer.id));
  } catch (error) {
    tab?.close();
    notifications.show({
      color: 'red',
      title: 'The PDF could not be opened',
      message: problemMessage(error),
    });
  }
}

/**
 * One offer, in the dialog over the list: number, status and customer; a staff draft is its form
 * (header and lines) with Send and Cancel; anything else reads as facts and lines with the totals,
 * the status actions the user may take (a customer accepts or rejects while it is sent), the PDF,
 * the history and, once accepted, the dossier it became.
 */
export function OfferDetail({
  id,
  staff,
  customerLookup,
  customerInfo,
  sellerCountry,
  keepsForm,
  onDeleted,
}: OfferDetailProps) {
  const detail = useQuery(offerOptions(id));
  const [search, setSearch] = useRouteSearch<{ tab?: string }>();
  const tab = search.tab === 'history' ? 'history' : 'details';
  const transition = useTransitionOffer();
  const remove = useDeleteOffer();
  const queryClient = useQueryClient();
  const [transitionError, setTransitionError] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const onDirtyChange = useCallback((next: boolean) => setDirty(next), []);
  const o = detail.data;

  if (!o)
    return (
      <RecordQueryState
        query={detail}
        title="This offer could not be loaded"
        notFound={{ title: 'This offer does not exist' }}
        skeleton={[[28, '50%'], 18, 18, 120]}
      />
    );

  const editable = staff && o.status === 'draft';

  const onTransition = async (to: OfferStatus) => {
    setTransitionError(null);
    // The cache holds the newest version (a save of the draft form just before, a live update).
    const current = queryClient.getQueryData(offerOptions(id).queryKey) ?? o;
    const saved = await transition.mutateAsync({
      id: current.id,
      to: to as OfferTransitionTarget,
      version: current.version,
    });
    return {
      message:
        saved.status === 'accepted' && saved.dossier
          ? `Offer ${saved.number} accepted: dossier ${saved.dossier.number} is booked.`
          : `Offer ${saved.number} is now ${STATUS_LABELS[saved.status].toLowerCase()}.`,
    };
  };
  const onTransitionError = (error: unknown) => {
    setTransitionError(problemMessage(error));
    // Expired or changed meanwhile: show the offer as it is now.
    if (isApiError(error) && error.status === 409) void detail.refetch();
  };

  const onDelete = () =>
    remove.mutate(o, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Offer ${o.number} deleted.` });
        onDeleted?.();
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not deleted', message: problemMessage(error) }),
      onSettled: () => setConfirmDelete(false),
    });

  return (
    <Stack gap="md" data-testid="offer-detail" data-offer={o.id} data-status={o.status}>
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Text fw={600} ff="monospace" data-testid="offer-number">
            {o.number}
          </Text>
          <StatusBadge status={o.status} colors={STATUS_COLORS} labels={STATUS_LABELS} />
          <Text c="dimmed" data-testid="offer-customer">
            {o.customer.name}
          </Text>
          {o.dossier && <DossierLink dossier={o.dossier} />}
        </Group>
        <Group gap="xs" data-testid="record-actions">
          <TransitionButtons
            current={o.status}
            allowed={o.allowedTransitions}
            workflow={OFFER_TRANSITIONS}
            labels={TRANSITION_LABELS}
            confirm={transitionQuestions(o, staff)}
            danger={['cancelled', 'rejected']}
            disabled={dirty}
            onTransition={onTransition}
            onError={onTransitionError}
          />
          <Button
            variant="default"
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
            onClick={() => void openPdf(o)}
            data-testid="offer-pdf"
          >
            PDF
          </Button>
          {editable && (
            <Button
              color="red"
              variant="subtle"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => setConfirmDelete(true)}
              data-testid="delete-offer"
            >
              Delete
            </Button>
          )}
        </Group>
      </Group>
      {editable && dirty && (
        <Text size="sm" c="dimmed" data-testid="offer-unsaved-hint">
          Save your changes before sending the offer.
        </Text>
      )}
      {transitionError && (
        <Alert color="orange" variant="light" role="alert" data-testid="transition-error">
          {transitionError}
        </Alert>
      )}
      {!staff && o.status === 'sent' && (
        <Text size="sm" data-testid="offer-decide-hint">
          Accept this offer by {formatDate(o.validUntil)} to book the transport at these prices, or reject it.
        </Text>
      )}
      <RecordTabs
        value={tab}
        onChange={(next) => setSearch({ tab: next === 'history' ? 'history' : undefined })}
        tabs={[
          {
            value: 'details',
            label: editable ? 'Offer' : 'Details',
            content: editable ? (
              <OfferForm
                key={o.id}
                offer={o}
                customerLookup={customerLookup}
                customerInfo={customerInfo}
                sellerCountry={sellerCountry}
                onSaved={(saved) =>
                  notifications.show({ color: 'green', message: `Offer ${saved.number} saved.` })
                }
                reload={async () => (await detail.refetch()).data}
                keepsForm={keepsForm}
                onDirtyChange={onDirtyChange}
              />
            ) : (
              <Stack gap="lg">
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" data-testid="offer-facts">
                  {facts(o, staff).map((rows, i) => (
                    <FactsTable key={rows[0]?.[0] ?? i} rows={rows} />
                  ))}
                </SimpleGrid>
                <OfferLinesView offer={o} showInternal={staff} />
              </Stack>
            ),
          },
          {
            value: 'history',
            label: 'History',
            content: (
              <RecordHistory
                query={offerHistoryOptions(id)}
                fieldLabels={OFFER_FIELD_LABELS}
                formatValue={historyValue(o)}
              />
            ),
          },
        ]}
      />
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete this offer?"
        message={`Draft ${o.number} is removed for good.`}
        confirmLabel="Delete offer"
        danger
        loading={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirmDelete(false)}
      />
    </Stack>
  );
}
