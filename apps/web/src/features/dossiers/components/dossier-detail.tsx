import {
  BASE_CURRENCY,
  DOSSIER_TRANSITIONS,
  type Dossier,
  type DossierStatus,
  isValidContainerNumber,
  type Role,
} from '@fvg/contracts';
import { Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCircleCheck, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useRef, useState } from 'react';
import { ComingArea } from '../../../components/records/coming-area.tsx';
import { ConfirmDialog, DeleteRecordButton } from '../../../components/records/confirm-dialog.tsx';
import {
  DetailLayout,
  type DetailTab,
  useCanonicalAddress,
} from '../../../components/records/detail-layout.tsx';
import { FactsTable, SidePanel } from '../../../components/records/facts.tsx';
import { formatAuditValue, RecordHistory } from '../../../components/records/history-tab.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { TransitionButtons } from '../../../components/records/transition-buttons.tsx';
import { useRouteSearch } from '../../../components/records/use-route-search.ts';
import { useAdminMode } from '../../../lib/admin-mode.ts';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import {
  dossierHistoryOptions,
  dossierOptions,
  useDeleteDossier,
  useTransitionDossier,
} from '../api/dossiers-api.ts';
import { ChargesEditor, ChargesView } from './charges-editor.tsx';
import { DossierForm, type DossierLookups } from './dossier-form.tsx';
import {
  DOSSIER_FIELD_LABELS,
  DOSSIER_TRANSITION_LABELS,
  MODE_LABELS,
  STATUS_COLORS,
  STATUS_LABELS,
  TRANSITION_CONFIRM,
  TYPE_LABELS,
} from './dossier-meta.ts';
import { dossierTransitionFacts } from './dossier-transition-facts.ts';

type PartyRef = { id: string; code: string; name: string } | null;

const eur = (amount: string) => formatMoney(amount as `${number}`, { currency: BASE_CURRENCY });
const EDITABLE = (status: DossierStatus) => status !== 'closed' && status !== 'cancelled';

function PartyLink({ party, staff }: { party: PartyRef; staff: boolean }) {
  if (!party) return null;
  const label = `${party.name} (${party.code})`;
  return staff ? (
    <Anchor component={Link} to={pathFor('party', { id: party.code })} size="sm">
      {label}
    </Anchor>
  ) : (
    label
  );
}

function SummaryTab({ d }: { d: Dossier }) {
  return (
    <FactsTable
      testId="dossier-summary"
      rows={[
        ['Type', TYPE_LABELS[d.type]],
        ['Mode', MODE_LABELS[d.mode]],
        ['Incoterm', d.incoterm ? [d.incoterm, d.incotermPlace].filter(Boolean).join(' ') : null],
        ['Origin → destination', `${d.originLocode ?? '—'} → ${d.destinationLocode ?? '—'}`],
        ['ETD', d.etd && formatDate(d.etd)],
        ['ETA', d.eta && formatDate(d.eta)],
        ['Departed (ATD)', d.atd && formatDate(d.atd)],
        ['Arrived (ATA)', d.ata && formatDate(d.ata)],
        ['Customer reference', d.customerReference],
        ['Booking number', d.bookingNumber],
        ['Master BL / AWB', d.masterBl],
        ['House BL', d.houseBl],
        ['CMR number', d.cmrNumber],
        // Booked by accepting a sales offer: the way back to it (the offer opens over its list).
        ...(d.offer
          ? ([
              [
                'From offer',
                <Anchor
                  key="o"
                  component={Link}
                  to={pathFor('sales-offers')}
                  search={{ open: d.offer.id } as never}
                  data-testid="dossier-offer-link"
                >
                  {d.offer.number}
                </Anchor>,
              ],
            ] as const)
          : []),
      ]}
    />
  );
}

function PartiesTab({ d, staff }: { d: Dossier; staff: boolean }) {
  return (
    <FactsTable
      testId="dossier-parties"
      rows={[
        ['Customer', <PartyLink key="c" party={d.customer} staff={staff} />],
        ['Consignor', d.consignor && <PartyLink key="s" party={d.consignor} staff={staff} />],
        ['Consignee', d.consignee && <PartyLink key="e" party={d.consignee} staff={staff} />],
        ['Notify party', d.notifyParty && <PartyLink key="n" party={d.notifyParty} staff={staff} />],
        ['Handler', d.handler?.name],
      ]}
    />
  );
}

function CargoTab({ d }: { d: Dossier }) {
  return (
    <Stack gap="lg">
      <FactsTable
        testId="dossier-cargo"
        rows={[
          [
            'Description',
            d.cargoDescription && <Text style={{ whiteSpace: 'pre-wrap' }}>{d.cargoDescription}</Text>,
          ],
          [
            'Packages',
            d.packages !== null ? `${formatNumber(d.packages)} ${d.packageType ?? ''}`.trim() : null,
          ],
          ['Gross weight', d.grossWeightKg && `${formatNumber(d.grossWeightKg as `${number}`)} kg`],
          ['Volume', d.volumeM3 && `${formatNumber(d.volumeM3 as `${number}`)} m³`],
          [
            'Chargeable weight',
            d.chargeableWeightKg && `${formatNumber(d.chargeableWeightKg as `${number}`)} kg`,
          ],
        ]}
      />
      <Stack gap="xs">
        <Title order={2} size="h4">
          Containers ({d.containers.length})
        </Title>
        {d.containers.length === 0 ? (
          <Text c="dimmed">No containers.</Text>
        ) : (
          <Table striped withTableBorder data-testid="dossier-containers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Number</Table.Th>
                <Table.Th>Size-type</Table.Th>
                <Table.Th>Seals</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {d.containers.map((c) => (
                <Table.Tr key={c.number} data-testid={`container-row-${c.number}`}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text ff="monospace" size="sm">
                        {c.number}
                      </Text>
                      {isValidContainerNumber(c.number) ? (
                        <IconCircleCheck
                          size={16}
                          color="var(--mantine-color-green-6)"
                          aria-label="Check digit OK"
                        />
                      ) : (
                        <IconAlertTriangle
                          size={16}
                          color="var(--mantine-color-orange-6)"
                          aria-label="Check digit wrong"
                        />
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{c.sizeType ?? '—'}</Table.Td>
                  <Table.Td>{c.seals.length ? c.seals.join(', ') : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Stack>
  );
}

/** Values of the audit trail as people read them: party and user ids by name, statuses by label. */
function historyFormatter(d: Dossier) {
  const names = new Map<string, string>();
  for (const p of [d.customer, d.consignor, d.consignee, d.notifyParty])
    if (p) names.set(p.id, `${p.name} (${p.code})`);
  if (d.handler) names.set(d.handler.id, d.handler.name);
  for (const c of d.charges) if (c.party) names.set(c.party.id, `${c.party.name} (${c.party.code})`);
  return (field: string, value: unknown): ReactNode => {
    if (typeof value === 'string') {
      if (field === 'status') return STATUS_LABELS[value as DossierStatus] ?? value;
      if (field === 'type') return TYPE_LABELS[value as keyof typeof TYPE_LABELS] ?? value;
      if (field === 'mode') return MODE_LABELS[value as keyof typeof MODE_LABELS] ?? value;
      if (field.endsWith('Id')) return names.get(value) ?? `${value.slice(0, 8)}…`;
      if (field === 'costTotal' || field === 'revenueTotal') return eur(value);
    }
    return formatAuditValue(value);
  };
}

const COMING: [value: string, label: string, area: string, description: string][] = [
  [
    'transports',
    'Transports',
    'transports',
    'The legs of this dossier: carrier, vehicle, pickup and delivery.',
  ],
  [
    'documents',
    'Documents',
    'documents',
    'Bills of lading, CMRs, invoices and other files attached to this dossier.',
  ],
  ['events', 'Container events', 'container events', 'Track and trace events of this dossier’s containers.'],
  ['offers', 'Offers', 'sales offers', 'The quotation this dossier came from and its charges.'],
  ['invoices', 'Invoices', 'sales invoices', 'Invoices and credit notes billed on this dossier.'],
  [
    'declarations',
    'Declarations',
    'customs declarations',
    'Import, export and transit declarations of this dossier.',
  ],
  ['chat', 'Chat', 'the dossier chat', 'Messages between staff and the customer about this dossier.'],
];

/** A tab another area provides (the chat), composed in by the screen. */
export interface DossierExtraTab {
  value: string;
  label: string;
  content: (dossier: Dossier) => ReactNode;
  badge?: (dossier: Dossier) => ReactNode;
}

export interface DossierDetailProps {
  /** The number (or id) the URL names the dossier with. */
  dossierKey: string;
  role: Role | undefined;
  /** The signed-in user: the default handler when a booking is confirmed. */
  me?: { id: string; name: string } | null | undefined;
  lookups: DossierLookups;
  /** Tabs of other areas (the chat), placed last. */
  extraTabs?: readonly DossierExtraTab[];
  /** Shown in the header beside the actions (e.g. who else is looking), composed in by the screen. */
  headerExtra?: ReactNode;
}

/**
 * /dossiers/$dossierId: header with status and the allowed status actions, tabs, side panel; staff
 * edit (?edit=1) with the same form as create and keep the job costing; admins in admin mode delete
 * booking requests and cancelled dossiers and read the raw audit trail.
 */
export function DossierDetail({
  dossierKey,
  role,
  me,
  lookups,
  extraTabs = [],
  headerExtra,
}: DossierDetailProps) {
  const navigate = useNavigate();
  const [search, setSearch] = useRouteSearch<{ tab?: string; edit?: 1 }>();
  const query = useQuery(dossierOptions(dossierKey));
  const transition = useTransitionDossier(dossierKey);
  const remove = useDeleteDossier(dossierKey);
  const adminMode = useAdminMode(role);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const staff = role === 'admin' || role === 'staff';
  const d = query.data;
  // Opened by its id (a search result): the dossier takes its number's address (issue 27 item 1).
  useCanonicalAddress('dossier', dossierKey, d?.number ?? null);
  const editing = staff && search.edit === 1 && d !== undefined && EDITABLE(d.status);
  const detailPath = pathFor('dossier', { dossierId: dossierKey });
  const reload = async () => (await query.refetch()).data;

  // The toast's Undo runs later than this render: it reads the dossier (and its version) as it is then.
  const latest = useRef(d);
  latest.current = d;
  const onTransition = async (to: DossierStatus, facts: Record<string, string>) => {
    const current = latest.current;
    if (!current) throw new Error('The dossier is not loaded');
    const saved = await transition
      .mutateAsync({ id: current.id, body: { to, version: current.version, ...facts } })
      .catch((error: unknown) => {
        // Changed meanwhile: show the dossier as it is now, so a second try uses its version.
        if (isApiError(error) && error.status === 409) void query.refetch();
        throw error;
      });
    return {
      message: `Dossier ${saved.number} is now ${STATUS_LABELS[saved.status].toLowerCase()}.`,
      warnings: saved.warnings,
    };
  };
  const onTransitionError = (error: unknown) => {
    notifications.show({ color: 'red', title: 'Status not changed', message: problemMessage(error) });
    void query.refetch();
  };

  const onDelete = () => {
    if (!d) return;
    remove.mutate(d.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Dossier ${d.number} deleted.` });
        void navigate({ to: pathFor('dossiers'), replace: true });
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not deleted', message: problemMessage(error) }),
      onSettled: () => setConfirmDelete(false),
    });
  };

  const actions = d && !editing && (
    <>
      <TransitionButtons
        current={d.status}
        allowed={d.allowedTransitions}
        workflow={DOSSIER_TRANSITIONS}
        labels={DOSSIER_TRANSITION_LABELS}
        confirm={TRANSITION_CONFIRM}
        facts={dossierTransitionFacts(d, { source: lookups.handler, me })}
        danger={['cancelled']}
        onTransition={onTransition}
        onError={onTransitionError}
      />
      {staff && EDITABLE(d.status) && (
        <Button
          variant="default"
          leftSection={<IconPencil size={16} aria-hidden />}
          onClick={() => setSearch({ edit: 1 })}
          data-testid="edit-record"
        >
          Edit
        </Button>
      )}
      {adminMode.enabled && (d.status === 'requested' || d.status === 'cancelled') && (
        <DeleteRecordButton onClick={() => setConfirmDelete(true)} />
      )}
    </>
  );

  const tabs: DetailTab[] = d
    ? [
        { value: 'summary', label: 'Summary', content: <SummaryTab d={d} /> },
        { value: 'parties', label: 'Parties', content: <PartiesTab d={d} staff={staff} /> },
        {
          value: 'cargo',
          label: 'Cargo & containers',
          badge: d.containers.length || undefined,
          content: <CargoTab d={d} />,
        },
        ...(staff
          ? [
              {
                value: 'charges',
                label: 'Charges',
                badge: d.charges.length || undefined,
                content:
                  d.status === 'cancelled' ? (
                    <ChargesView dossier={d} />
                  ) : (
                    <ChargesEditor
                      key={d.id}
                      dossier={d}
                      dossierKey={dossierKey}
                      partyLookup={lookups.party}
                      reload={reload}
                      keepsForm={(next) => next.pathname === detailPath && next.search.tab === 'charges'}
                    />
                  ),
              },
            ]
          : []),
        // An area that provides one of these tabs (transports, documents, events) takes its place.
        ...COMING.slice(0, 3).map(([value, label, area, description]) => {
          const tab = extraTabs.find((t) => t.value === value);
          return tab
            ? { value, label: tab.label, content: tab.content(d), badge: tab.badge?.(d) }
            : { value, label, content: <ComingArea area={area} description={description} /> };
        }),
        {
          value: 'history',
          label: 'History',
          content: (
            <RecordHistory
              query={dossierHistoryOptions(dossierKey)}
              fieldLabels={DOSSIER_FIELD_LABELS}
              formatValue={historyFormatter(d)}
              allowRaw={adminMode.enabled}
            />
          ),
        },
        // The areas after the history (offers, invoices, declarations, chat) keep their place too.
        ...COMING.slice(3).map(([value, label, area, description]) => {
          const tab = extraTabs.find((t) => t.value === value);
          return tab
            ? { value, label: tab.label, content: tab.content(d), badge: tab.badge?.(d) }
            : { value, label, content: <ComingArea area={area} description={description} /> };
        }),
        ...extraTabs
          .filter((tab) => !COMING.some(([value]) => value === tab.value))
          .map((tab) => ({
            value: tab.value,
            label: tab.label,
            content: tab.content(d),
            badge: tab.badge?.(d),
          })),
      ]
    : [];

  return (
    <>
      <DetailLayout
        route="dossier"
        recordId={d?.number ?? dossierKey}
        subtitle={d && `${d.customer.name} · ${d.originLocode ?? '—'} → ${d.destinationLocode ?? '—'}`}
        status={
          d && <StatusBadge status={d.status} colors={STATUS_COLORS} labels={STATUS_LABELS} size="lg" />
        }
        actions={
          (actions || headerExtra) && (
            <>
              {headerExtra}
              {actions}
            </>
          )
        }
        query={query}
        tabs={tabs}
        side={
          d && (
            <SidePanel
              rows={[
                ['Status', STATUS_LABELS[d.status]],
                ['Customer', <PartyLink key="c" party={d.customer} staff={staff} />],
                ['Handler', d.handler?.name],
                ['Containers', formatNumber(d.containers.length)],
                ...(staff
                  ? ([
                      ['Cost', eur(d.costTotal ?? '0')],
                      ['Revenue', eur(d.revenueTotal ?? '0')],
                      [
                        'Profit',
                        <Text key="p" span size="sm" fw={600} data-testid="side-profit">
                          {d.profit !== null && eur(d.profit)}
                        </Text>,
                      ],
                    ] as const)
                  : []),
                ['Created', `${formatDateTime(d.createdAt)}${d.createdBy ? ` by ${d.createdBy.name}` : ''}`],
                // The version is the edit lock's, not the user's: it stays internal.
                ['Updated', formatDateTime(d.updatedAt)],
              ]}
            />
          )
        }
      >
        {editing && d ? (
          <DossierForm
            dossier={d}
            dossierKey={dossierKey}
            lookups={lookups}
            onSaved={(saved) => {
              notifications.show({ color: 'green', message: `Dossier ${saved.number} saved.` });
              setSearch({ edit: undefined });
            }}
            onCancel={() => setSearch({ edit: undefined })}
            reload={reload}
            keepsForm={(next) => next.pathname === detailPath && next.search.edit === 1}
          />
        ) : undefined}
      </DetailLayout>
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete this dossier?"
        message={`Dossier ${d?.number ?? ''} is removed for good. Only booking requests and cancelled dossiers can be deleted.`}
        confirmLabel="Delete dossier"
        danger
        loading={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirmDelete(false)}
      />
    </>
  );
}
